// The management port (port.ts: the calls the resources make, in the provider's field names) on
// the service's v2 API: each kind's collection, built in its folder from its field table's `v2`
// column and its own composites (model/kinds/<kind>/...CollectionV2.ts), over one client, one set of
// reads (shared where the connection shares them) and one read of the GPU catalog; the account's
// secrets and reads, which v1 has not.

import type { ManagementClientV2 } from "../../client/managementV2";
import { endpointCollectionV2 } from "../kinds/endpoint/endpointCollectionV2";
import { networkVolumeCollectionV2 } from "../kinds/networkVolume/networkVolumeCollectionV2";
import { podCollectionV2 } from "../kinds/pod/podCollectionV2";
import { registryAuthCollectionV2 } from "../kinds/registryAuth/registryAuthCollectionV2";
import { templateCollectionV2 } from "../kinds/template/templateCollectionV2";
import type { Account, Endpoints, ManagementApi, NetworkVolumes, Pods, RegistryAuths, Templates } from "./port";
import { readsOf, type SharingOptions } from "./sharedReads";
import type { V2Context } from "./v2Context";

export class V2Backend implements ManagementApi {
  readonly pods: Pods;
  readonly endpoints: Endpoints;
  readonly templates: Templates;
  readonly networkVolumes: NetworkVolumes;
  readonly registryAuths: RegistryAuths;
  /** The account secrets calls, in v2's own shapes (their fields are the provider's names). */
  readonly secrets: ManagementClientV2["secrets"];
  readonly account: Account;

  /** `shareReads`: serve reads of one kind that arrive together by one list call (the provider process does). */
  constructor(client: ManagementClientV2, options: { shareReads?: SharingOptions | false } = {}) {
    const sharing = options.shareReads ?? false;
    const reads = <T extends { id: string }>(collection: { list(): Promise<T[]>; get(id: string): Promise<T> }) =>
      readsOf({ list: () => collection.list(), get: (id) => collection.get(id) }, sharing);
    let gpuCatalog: ReturnType<ManagementClientV2["gpuTypes"]> | undefined;
    const context: V2Context = {
      client,
      reads: {
        pods: reads(client.pods),
        endpoints: reads(client.endpoints),
        templates: reads(client.templates),
        networkVolumes: reads(client.networkVolumes),
        registries: reads(client.registries),
      },
      gpuTypes() {
        gpuCatalog ??= client.gpuTypes();
        // A failed read is not kept: the next call tries again.
        gpuCatalog.catch(() => (gpuCatalog = undefined));
        return gpuCatalog;
      },
    };
    this.pods = podCollectionV2(context);
    this.endpoints = endpointCollectionV2(context);
    this.templates = templateCollectionV2(context);
    this.networkVolumes = networkVolumeCollectionV2(context);
    this.registryAuths = registryAuthCollectionV2(context);
    this.secrets = client.secrets;
    this.account = {
      catalogLists: async () => {
        const [gpus, cpus] = await Promise.all([context.gpuTypes(), client.cpuTypes()]);
        return { gpus, cpus };
      },
      limits: () => client.accountLimits(),
      sshKeys: () => client.sshKeys(),
      replaceSshKeys: (keys) => client.replaceSshKeys(keys),
    };
  }
}
