// A kind's v2 collection built from its field table alone: bodies through the rows' `v2` column
// (fields/wireV2.ts), answers back into the model's names, reads shared where the connection shares
// them. A kind with composites of its own adds them through the hooks (a template's mount).

import type { ResourceTable } from "../fields/fieldTable";
import { fieldsOf, type Props } from "../fields/values";
import { toWireV2 } from "../fields/wireV2";
import type { Collection } from "./port";
import type { KindReads } from "./sharedReads";

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

/** A kind with an update: its PATCH, and what it composes from the live item. */
export interface TableUpdateSpec<Wire> {
  patch(id: string, body: Props): Promise<Wire>;
  composeUpdate?(id: string, body: Props): Promise<void>;
}

type Created<Item extends { id: string }, CreateInput> = Omit<Collection<Item, CreateInput, never>, "update">;

/** The collection; with `update`, a PATCH of the declared changes (registry credentials have none). */
export function tableCollectionV2<
  Item extends { id: string },
  Wire extends { id: string },
  CreateInput extends object,
  UpdateInput extends object,
>(spec: TableCollectionSpec<Item, Wire> & { update: TableUpdateSpec<Wire> }): Collection<Item, CreateInput, UpdateInput>;
export function tableCollectionV2<Item extends { id: string }, Wire extends { id: string }, CreateInput extends object>(
  spec: TableCollectionSpec<Item, Wire>,
): Created<Item, CreateInput>;
export function tableCollectionV2<
  Item extends { id: string },
  Wire extends { id: string },
  CreateInput extends object,
  UpdateInput extends object,
>(
  spec: TableCollectionSpec<Item, Wire> & { update?: TableUpdateSpec<Wire> },
): Created<Item, CreateInput> & Partial<Pick<Collection<Item, CreateInput, UpdateInput>, "update">> {
  const { table, wire, reads, itemOf, update } = spec;
  const collection: Created<Item, CreateInput> = {
    async create(input) {
      const body = toWireV2(table, fieldsOf(input));
      spec.composeCreate?.(body);
      return itemOf(await wire.create(body));
    },
    list: async () => (await reads.list()).map(itemOf),
    get: async (id) => itemOf(await reads.read(id)),
    delete: (id) => wire.delete(id),
  };
  if (update === undefined) return collection;
  return {
    ...collection,
    async update(id: string, input: UpdateInput) {
      const body = toWireV2(table, fieldsOf(input));
      await update.composeUpdate?.(id, body);
      return itemOf(await update.patch(id, body));
    },
  };
}
