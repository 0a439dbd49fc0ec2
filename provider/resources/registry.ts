import type { ResourceKind } from "../../model/kinds";
import { defaultDeps, type ProviderDeps } from "./deps";
import { endpointSpec } from "./endpoint";
import { type LifecycleProvider, resourceProvider } from "./lifecycle";
import { networkVolumeSpec } from "./networkVolume";
import { podSpec } from "./pod";
import { registryAuthSpec } from "./registryAuth";
import { secretSpec } from "./secret";
import { templateSpec } from "./template";

type Provider = LifecycleProvider;

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
