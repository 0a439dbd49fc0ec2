// The registry credential collection on v2: the table's fields; no update in the reference.

import type { ContainerRegistryAuth } from "../../../client/schemas";
import type { RegistryAuths } from "../../backend/port";
import { tableCollectionV2 } from "../../backend/tableCollectionV2";
import type { V2Context } from "../../backend/v2Context";
import { wireRequest } from "../../fields/wireV2";
import { registryAuthTable } from "./registryAuthFields";

export function registryAuthCollectionV2({ client, reads }: V2Context): RegistryAuths {
  return tableCollectionV2({
    table: registryAuthTable,
    wire: { create: (body) => client.registries.create(wireRequest<"createRegistry">(body)), delete: (id) => client.registries.delete(id) },
    reads: reads.registries,
    // The registry's v2 answer, validated by the client, carries its fields under the model's names
    // and types: it is the item as it is, not parsed a second time.
    itemOf: (wire): ContainerRegistryAuth => wire,
  });
}
