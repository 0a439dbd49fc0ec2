// The Template's specifics: names are unique, and it carries its owner's marker in its env, so the
// template a lost or interrupted create made is found by the marker (a 409 on its name too); an
// update rolls out to the endpoints using it; ready on create.

import type { Template, TemplateCreateInput } from "../../client/schemas";
import type { ManagementApi } from "../../model/backend/port";
import { deleteIgnoringMissing, subjectOf, type ResourceSpec } from "./lifecycle";
import type { TemplateArgs } from "../../model/kinds/template/templateFields";
import { templateReader } from "../../model/kinds/template/templateReader";
import { messageOf } from "../../model/fields/values";
import { markerInEnv } from "./ownership";

export const templateSpec: ResourceSpec<TemplateArgs, Template, TemplateCreateInput> = {
  ...templateReader,
  matches: (t, args) => t.name === args.name,
  uniqueName: true,
  ownerMarker: (t) => markerInEnv(t.env),
  create: (client, body) => client.templates.create(body),
  update: (client, id, body) => client.templates.update(id, body),
  updateNote: "endpoints using it roll out the change",
  adoptRemedy:
    "category and isServerless can only be set when a template is created: declare the live values to adopt it, or remove adoptId to create a new template.",
  async delete({ client, id, subject }) {
    try {
      await deleteIgnoringMissing(() => client.templates.delete(id));
    } catch (error) {
      const users = await usersOf(client, id).catch(() => [] as string[]);
      // Pods are named only where the service links them to their template (v1); v2 keeps no link.
      const held = users.length > 0 ? ` It is used by ${users.join(", ")}: delete those or point them at another template first.` : "";
      throw new Error(
        `${subject} cannot be deleted: ${messageOf(error)}.${held} ` +
          "If this delete is part of a replacement (category or isServerless changed), give the template a new name instead: " +
          "the new template is then created first and its users move to it before the old one is deleted.",
        { cause: error },
      );
    }
  },
};

/**
 * Endpoints and pods that report the template, as `endpoint "a" (id x)`. v2 pods never do (the
 * service keeps no link from a pod to its template), so on v2 this names endpoints only.
 */
async function usersOf(client: ManagementApi, templateId: string): Promise<string[]> {
  const [endpoints, pods] = await Promise.all([client.endpoints.list(), client.pods.list({ templateId })]);
  return [
    ...endpoints.filter((e) => e.templateId === templateId).map((e) => subjectOf("endpoint", e.name, e.id)),
    ...pods.filter((p) => p.templateId === templateId && p.desiredStatus !== "TERMINATED").map((p) => subjectOf("pod", p.name, p.id)),
  ];
}
