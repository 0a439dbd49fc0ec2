// The template collection on v2: the table's fields, and persistent storage sent whole (size and
// path together, the missing one from the live template).

import { TemplateSchema, type Template } from "../../../client/schemas";
import type { Templates } from "../../backend/port";
import { tableCollectionV2 } from "../../backend/tableCollectionV2";
import type { V2Context } from "../../backend/v2Context";
import { isRecord, type Props } from "../../fields/values";
import { fromWireV2, persistentMount, wireRequest } from "../../fields/wireV2";
import { templateTable } from "./templateFields";

export function templateCollectionV2({ client, reads }: V2Context): Templates {
  return tableCollectionV2({
    table: templateTable,
    wire: { create: (body) => client.templates.create(wireRequest<"createTemplate">(body)), delete: (id) => client.templates.delete(id) },
    reads: reads.templates,
    itemOf: (wire: Props): Template => TemplateSchema.parse(fromWireV2(templateTable, wire)),
    composeCreate: (body) => persistentMount(body, undefined),
    update: {
      patch: (id, body) => client.templates.update(id, wireRequest<"updateTemplate">(body)),
      composeUpdate: async (id, body) => {
        if (isRecord(body["mounts"])) persistentMount(body, await reads.templates.read(id));
      },
    },
  });
}
