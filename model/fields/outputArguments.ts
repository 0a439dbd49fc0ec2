// The outputs each resource class registers (see sdk/props.ts and sdk/argumentOutputs.ts), as plain
// lists in the order of the kind's table rows. The SDK reads these, not the field tables: the tables
// carry the argument validators (zod), which a program's load has no use for, and the SDK's public
// declarations name the unions derived here, which the tables' types would pull into every user's
// type check. Each *Fields.ts holds its union equal to `OutputArgumentKeys<typeof rows>` at compile
// time, so a new row cannot be forgotten here; test/model/fields/outputArguments.test.ts holds the
// lists of every kind equal to what its table says at run time.

import type { ResourceKind } from "../kinds";

/** A pod's arguments registered as outputs: every row but the provider-only ones. */
export const POD_OUTPUT_ARGUMENTS = [
  "name",
  "imageName",
  "env",
  "ports",
  "containerDiskInGb",
  "volumeInGb",
  "volumeMountPath",
  "dockerEntrypoint",
  "dockerStartCmd",
  "containerRegistryAuthId",
  "globalNetworking",
  "locked",
  "computeType",
  "cloudType",
  "gpuTypeIds",
  "gpuTypePriority",
  "gpuCount",
  "allowedCudaVersions",
  "cpuFlavorIds",
  "cpuFlavorPriority",
  "vcpuCount",
  "dataCenterIds",
  "dataCenterPriority",
  "countryCodes",
  "interruptible",
  "networkVolumeId",
  "startSsh",
  "startJupyter",
  "templateId",
  "supportPublicIp",
  "minRAMPerGPU",
  "minVCPUPerGPU",
  "minDiskBandwidthMBps",
  "minDownloadMbps",
  "minUploadMbps",
  "publicIp",
  "portMappings",
  "costEstimate",
  "costPerHr",
  "adjustedCostPerHr",
  "machineId",
  "gpuTypeId",
  "gpuDisplayName",
  "cpuFlavorId",
  "dataCenterId",
  "memoryInGb",
  "lastStartedAt",
  "lastStatusChange",
] as const;
export type PodOutputArguments = (typeof POD_OUTPUT_ARGUMENTS)[number];

export const ENDPOINT_OUTPUT_ARGUMENTS = [
  "templateId",
  "name",
  "gpuTypeIds",
  "gpuCount",
  "allowedCudaVersions",
  "minCudaVersion",
  "cpuFlavorIds",
  "vcpuCount",
  "dataCenterIds",
  "networkVolumeId",
  "networkVolumeIds",
  "workersMin",
  "workersMax",
  "idleTimeout",
  "executionTimeoutMs",
  "scalerType",
  "scalerValue",
  "flashboot",
  "computeType",
  "type",
  "costEstimate",
  "endpointId",
  "version",
  "createdAt",
  "requestUrls",
] as const;
export type EndpointOutputArguments = (typeof ENDPOINT_OUTPUT_ARGUMENTS)[number];

export const NETWORK_VOLUME_OUTPUT_ARGUMENTS = ["name", "size", "dataCenterId", "type", "costEstimate"] as const;
export type NetworkVolumeOutputArguments = (typeof NETWORK_VOLUME_OUTPUT_ARGUMENTS)[number];

export const TEMPLATE_OUTPUT_ARGUMENTS = [
  "name",
  "imageName",
  "isPublic",
  "containerDiskInGb",
  "volumeInGb",
  "volumeMountPath",
  "containerRegistryAuthId",
  "dockerEntrypoint",
  "dockerStartCmd",
  "env",
  "ports",
  "readme",
  "startSsh",
  "startJupyter",
  "category",
  "isServerless",
  "revision",
] as const;
export type TemplateOutputArguments = (typeof TEMPLATE_OUTPUT_ARGUMENTS)[number];

export const REGISTRY_AUTH_OUTPUT_ARGUMENTS = ["name", "username", "password"] as const;
export type RegistryAuthOutputArguments = (typeof REGISTRY_AUTH_OUTPUT_ARGUMENTS)[number];

export const SECRET_OUTPUT_ARGUMENTS = ["name", "value", "description", "createdAt", "valueLastUpdatedAt"] as const;
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
  pod: {
    computed: [
      "desiredStatus",
      "publicIp",
      "portMappings",
      "costEstimate",
      "costPerHr",
      "adjustedCostPerHr",
      "machineId",
      "gpuTypeId",
      "gpuDisplayName",
      "cpuFlavorId",
      "dataCenterId",
      "memoryInGb",
      "lastStartedAt",
      "lastStatusChange",
    ],
    // desiredStatus is a provider argument the service reports (whether the pod runs).
    all: [...POD_OUTPUT_ARGUMENTS, "desiredStatus"],
  },
  endpoint: { computed: ["costEstimate", "endpointId", "version", "createdAt", "requestUrls"], all: ENDPOINT_OUTPUT_ARGUMENTS },
  networkVolume: { computed: ["type", "costEstimate"], all: NETWORK_VOLUME_OUTPUT_ARGUMENTS },
  template: { computed: ["revision"], all: TEMPLATE_OUTPUT_ARGUMENTS },
  registryAuth: { computed: [], all: REGISTRY_AUTH_OUTPUT_ARGUMENTS },
  secret: { computed: ["createdAt", "valueLastUpdatedAt"], all: SECRET_OUTPUT_ARGUMENTS },
};
