// The outputs each resource class registers (see sdk/props.ts and sdk/argumentOutputs.ts). The SDK
// reads these plain lists, not the field tables: the tables carry the argument validators (zod),
// which a program's load has no use for, and the SDK's public declarations name the unions derived
// here, which the tables' types would pull into every user's type check. The lists are generated
// from the tables (outputLists.ts, `npm run generate`): `npm run typecheck` holds each list equal to
// its table's `OutputArgumentKeys<typeof rows>` (test/model/fields/outputLists.types.ts), and a test
// holds the file equal to a fresh generation, so a new row cannot be left out.

import type { ResourceKind } from "../kinds";
import {
  ENDPOINT_COMPUTED_OUTPUTS,
  type ENDPOINT_OUTPUT_ARGUMENTS,
  ENDPOINT_OUTPUTS,
  NETWORK_VOLUME_COMPUTED_OUTPUTS,
  type NETWORK_VOLUME_OUTPUT_ARGUMENTS,
  NETWORK_VOLUME_OUTPUTS,
  POD_COMPUTED_OUTPUTS,
  type POD_OUTPUT_ARGUMENTS,
  POD_OUTPUTS,
  REGISTRY_AUTH_COMPUTED_OUTPUTS,
  type REGISTRY_AUTH_OUTPUT_ARGUMENTS,
  REGISTRY_AUTH_OUTPUTS,
  SECRET_COMPUTED_OUTPUTS,
  type SECRET_OUTPUT_ARGUMENTS,
  SECRET_OUTPUTS,
  TEMPLATE_COMPUTED_OUTPUTS,
  type TEMPLATE_OUTPUT_ARGUMENTS,
  TEMPLATE_OUTPUTS,
} from "./outputLists";

export type PodOutputArguments = (typeof POD_OUTPUT_ARGUMENTS)[number];
export type EndpointOutputArguments = (typeof ENDPOINT_OUTPUT_ARGUMENTS)[number];
export type NetworkVolumeOutputArguments = (typeof NETWORK_VOLUME_OUTPUT_ARGUMENTS)[number];
export type TemplateOutputArguments = (typeof TEMPLATE_OUTPUT_ARGUMENTS)[number];
export type RegistryAuthOutputArguments = (typeof REGISTRY_AUTH_OUTPUT_ARGUMENTS)[number];
export type SecretOutputArguments = (typeof SECRET_OUTPUT_ARGUMENTS)[number];

/** The outputs a resource class registers, by kind. */
export interface ResourceOutputs {
  /**
   * Registered (as undefined, the user's arguments on top) whether declared or not: the outputs the
   * service computes, and the arguments always read back (a pod's desiredStatus, a volume's type).
   */
  readonly computed: readonly string[];
  /** Every output: the arguments registered as outputs, and provider arguments read back from the service. */
  readonly all: readonly string[];
}

export const RESOURCE_OUTPUTS: Readonly<Record<ResourceKind, ResourceOutputs>> = {
  pod: { computed: POD_COMPUTED_OUTPUTS, all: POD_OUTPUTS },
  endpoint: { computed: ENDPOINT_COMPUTED_OUTPUTS, all: ENDPOINT_OUTPUTS },
  networkVolume: { computed: NETWORK_VOLUME_COMPUTED_OUTPUTS, all: NETWORK_VOLUME_OUTPUTS },
  template: { computed: TEMPLATE_COMPUTED_OUTPUTS, all: TEMPLATE_OUTPUTS },
  registryAuth: { computed: REGISTRY_AUTH_COMPUTED_OUTPUTS, all: REGISTRY_AUTH_OUTPUTS },
  secret: { computed: SECRET_COMPUTED_OUTPUTS, all: SECRET_OUTPUTS },
};
