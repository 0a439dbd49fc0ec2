// The provider of each resource kind, as dispatch.ts routes shim calls to them. Built once per
// provider process with the real dependencies (client resolved per call from config and env).
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kinds";
import { defaultDeps, type ProviderDeps } from "./deps";
import { endpointProvider } from "./endpoint";
import { networkVolumeProvider } from "./networkVolume";
import { podProvider } from "./pod";
import { registryAuthProvider } from "./registryAuth";
import { templateProvider } from "./template";

export function buildResourceProviders(deps: ProviderDeps): Record<ResourceKind, pulumi.dynamic.ResourceProvider> {
  return {
    pod: podProvider(deps),
    endpoint: endpointProvider(deps),
    networkVolume: networkVolumeProvider(deps),
    template: templateProvider(deps),
    registryAuth: registryAuthProvider(deps),
  };
}

export const resourceProviders: Record<ResourceKind, pulumi.dynamic.ResourceProvider> = buildResourceProviders(defaultDeps());
