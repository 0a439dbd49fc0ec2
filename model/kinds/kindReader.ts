// How a kind is read from the service: one by id, all of them, and whether one the service still
// reports is gone for good. Each kind's folder declares its reader (model/kinds/<kind>/); the
// lookups read through it, and each kind's provider spec (provider/resources/<kind>.ts) is built on
// it, so a lookup, a refresh and a readiness poll read a resource the same way.

import type { ManagementApi } from "../backend/port";
import type { ResourceTable } from "../fields/fieldTable";

export interface KindReader<L extends { id: string; name?: string | undefined }, Args = unknown> {
  table: ResourceTable<L, Args>;
  get(api: ManagementApi, id: string): Promise<L>;
  /** The service still reports it but it is gone for good (a terminated pod). */
  gone?(live: L): boolean;
  /** Every resource of the kind, unfiltered: one list serves many readers at once (backend/sharedReads.ts). */
  list(api: ManagementApi): Promise<L[]>;
}
