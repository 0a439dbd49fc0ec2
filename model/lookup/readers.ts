// How each kind is read from the service: one by id, all of them, and whether one the service
// still reports is gone for good. The lookups read through these; each kind's provider spec
// (provider/resources/<kind>.ts) is built on its reader, so a lookup, a refresh and a readiness
// poll read a resource the same way.

import type { ContainerRegistryAuth, Endpoint, NetworkVolume, Pod, Template } from "../../client/schemas";
import type { SecretV2 } from "../../client/schemasV2";
import { secretsOf, type ManagementApi } from "../backend/port";
import type { ResourceTable } from "../fields/fieldTable";
import { endpointTable, type EndpointArgs } from "../fields/endpointFields";
import { networkVolumeTable, type NetworkVolumeArgs } from "../fields/networkVolumeFields";
import { podTable, type PodArgs } from "../fields/podFields";
import { registryAuthTable, type RegistryAuthArgs } from "../fields/registryAuthFields";
import { secretTable, type SecretArgs } from "../fields/secretFields";
import { templateTable, type TemplateArgs } from "../fields/templateFields";

export interface KindReader<L extends { id: string; name?: string | undefined }, Args = unknown> {
  table: ResourceTable<L, Args>;
  get(api: ManagementApi, id: string): Promise<L>;
  /** The service still reports it but it is gone for good (a terminated pod). */
  gone?(live: L): boolean;
  /** Every resource of the kind, unfiltered: one list serves many readers at once (backend/sharedReads.ts). */
  list(api: ManagementApi): Promise<L[]>;
}

/** Reads with the machine and network volume so that outputs (data center, GPU type) are complete. */
export const POD_READ_INCLUDE = { includeMachine: true, includeNetworkVolume: true } as const;

export const podReader: KindReader<Pod, PodArgs> = {
  table: podTable,
  get: (api, id) => api.getPod(id, POD_READ_INCLUDE),
  gone: (pod) => pod.desiredStatus === "TERMINATED",
  list: (api) => api.listPods(),
};

export const endpointReader: KindReader<Endpoint, EndpointArgs> = {
  table: endpointTable,
  get: (api, id) => api.getEndpoint(id),
  list: (api) => api.listEndpoints(),
};

export const networkVolumeReader: KindReader<NetworkVolume, NetworkVolumeArgs> = {
  table: networkVolumeTable,
  get: (api, id) => api.getNetworkVolume(id),
  list: (api) => api.listNetworkVolumes(),
};

export const templateReader: KindReader<Template, TemplateArgs> = {
  table: templateTable,
  get: (api, id) => api.getTemplate(id),
  list: (api) => api.listTemplates(),
};

export const registryAuthReader: KindReader<ContainerRegistryAuth, RegistryAuthArgs> = {
  table: registryAuthTable,
  get: (api, id) => api.getRegistryAuth(id),
  list: (api) => api.listRegistryAuths(),
};

export const secretReader: KindReader<SecretV2, SecretArgs> = {
  table: secretTable,
  get: (api, id) => secretsOf(api).get(id),
  list: (api) => secretsOf(api).list(),
};
