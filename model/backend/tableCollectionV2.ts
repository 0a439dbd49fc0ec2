// A kind's v2 collection built from its field table alone: bodies through the rows' `v2` column
// (fields/wireV2.ts), answers back into the model's names, reads shared where the connection shares
// them. A kind with composites of its own adds them through the two hooks (a template's mount).

import type { ResourceTable } from "../fields/fieldTable";
import type { Props } from "../fields/values";
import { toWireV2 } from "../fields/wireV2";
import type { Collection } from "./port";
import type { KindReads } from "./sharedReads";
import { fieldsOf } from "./v2Context";

/** The kind's v2 calls, their bodies composed from the table (the typed request is the caller's, wireRequest). */
export interface WireCallsV2<Wire> {
  create(body: Props): Promise<Wire>;
  delete(id: string): Promise<void>;
}

export interface TableCollectionSpec<Item extends { id: string }, Wire extends { id: string }> {
  table: Pick<ResourceTable<Item>, "fields">;
  wire: WireCallsV2<Wire>;
  reads: KindReads<Wire>;
  /** An answer in the model's names. */
  itemOf(wire: Wire): Item;
  /** What one field cannot say alone, added to a create body. */
  composeCreate?(body: Props): void;
}

/** The collection's calls but update (registry credentials have none). */
export function tableCollectionV2<Item extends { id: string }, Wire extends { id: string }, CreateInput extends object>(
  spec: TableCollectionSpec<Item, Wire>,
): Omit<Collection<Item, CreateInput, never>, "update"> {
  const { table, wire, reads, itemOf } = spec;
  return {
    async create(input) {
      const body = toWireV2(table, fieldsOf(input));
      spec.composeCreate?.(body);
      return itemOf(await wire.create(body));
    },
    list: async () => (await reads.list()).map(itemOf),
    get: async (id) => itemOf(await reads.read(id)),
    delete: (id) => wire.delete(id),
  };
}

/** The collection's update: a PATCH of the declared changes, with what the kind composes from the live item. */
export function tableUpdateV2<Item extends { id: string }, Wire extends { id: string }, UpdateInput extends object>(
  spec: Pick<TableCollectionSpec<Item, Wire>, "table" | "itemOf"> & {
    patch(id: string, body: Props): Promise<Wire>;
    composeUpdate?(id: string, body: Props): Promise<void>;
  },
): Collection<Item, never, UpdateInput>["update"] {
  return async (id, input) => {
    const body = toWireV2(spec.table, fieldsOf(input));
    await spec.composeUpdate?.(id, body);
    return spec.itemOf(await spec.patch(id, body));
  };
}
