// Every kind's field table, for the generators that read them all (the plugin's schema, the SDK's
// output lists), taken from the kinds' registry (model/kinds/registry.ts).
import type { ResourceTable } from "../../model/fields/fieldTable";
import { RESOURCE_KINDS, type ResourceKind } from "../../model/kinds";
import { KIND_READERS } from "../../model/kinds/registry";

export const FIELD_TABLES: Readonly<Record<ResourceKind, ResourceTable<never>>> = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, KIND_READERS[kind].table as ResourceTable<never>]),
) as Record<ResourceKind, ResourceTable<never>>;
