// What a kind's v2 collection composes with: the v2 client, every kind's reads (shared where the
// connection shares them), and the price catalog's GPU types read once per backend. Built by
// V2Backend; each kind's folder builds its collection from it (model/kinds/<kind>/...CollectionV2.ts).

import type { ManagementClientV2 } from "../../client/managementV2";
import type { KindReads } from "./sharedReads";

/** The v2 lists carry every field their gets do: reads can share them (sharedReads.ts). */
export type ReadsOf<C> = C extends { get(id: string): Promise<infer T extends { id: string }> } ? KindReads<T> : never;

export interface V2Context {
  readonly client: ManagementClientV2;
  readonly reads: {
    readonly pods: ReadsOf<ManagementClientV2["pods"]>;
    readonly endpoints: ReadsOf<ManagementClientV2["endpoints"]>;
    readonly templates: ReadsOf<ManagementClientV2["templates"]>;
    readonly networkVolumes: ReadsOf<ManagementClientV2["networkVolumes"]>;
    readonly registries: ReadsOf<ManagementClientV2["registries"]>;
  };
  /** The catalog's GPU types, read once per backend (for pools and for prices alike). */
  gpuTypes(): ReturnType<ManagementClientV2["gpuTypes"]>;
}
