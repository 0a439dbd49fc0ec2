// The provider of each resource kind, as dispatch.ts routes shim calls to them. Built once per
// provider process with the real dependencies (client resolved per call from config and env).
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../../model/kinds";
import { defaultDeps, type ProviderDeps } from "./deps";
import { endpointSpec } from "./endpoint";
import { resourceProvider } from "./lifecycle";
import { networkVolumeSpec } from "./networkVolume";
import { podSpec } from "./pod";
import { registryAuthSpec } from "./registryAuth";
import { secretSpec } from "./secret";
import { templateSpec } from "./template";

type Provider = pulumi.dynamic.ResourceProvider;

export const podProvider = (deps: ProviderDeps): Provider => resourceProvider(podSpec, deps);
export const endpointProvider = (deps: ProviderDeps): Provider => resourceProvider(endpointSpec, deps);
export const networkVolumeProvider = (deps: ProviderDeps): Provider => resourceProvider(networkVolumeSpec, deps);
export const templateProvider = (deps: ProviderDeps): Provider => resourceProvider(templateSpec, deps);
export const registryAuthProvider = (deps: ProviderDeps): Provider => resourceProvider(registryAuthSpec, deps);
export const secretProvider = (deps: ProviderDeps): Provider => resourceProvider(secretSpec, deps);

export function buildResourceProviders(deps: ProviderDeps): Record<ResourceKind, Provider> {
  return {
    pod: podProvider(deps),
    endpoint: endpointProvider(deps),
    networkVolume: networkVolumeProvider(deps),
    template: templateProvider(deps),
    registryAuth: registryAuthProvider(deps),
    secret: secretProvider(deps),
  };
}

export const resourceProviders: Record<ResourceKind, Provider> = buildResourceProviders(defaultDeps());
