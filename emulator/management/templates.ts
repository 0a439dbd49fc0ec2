/**
 * Templates (v1 /templates, v2 /templates): the container settings pods and endpoints are made
 * from. An update that changes what workers run (anything but the cosmetic fields) rolls every
 * endpoint that points at the template; endpoints made through v2 own a copy (their bound
 * template, endpoints/container.ts), so an edit of the template they came from does not reach them.
 */
import { isDeepStrictEqual } from "node:util";
import type { AccountData, TemplateRecord } from "../state/model";
import { type CommandInput, commandChange } from "./command";
import type { ManagementContext } from "./context";
import { rollEndpointsOf } from "./endpoints/records";
import { conflict, invalid } from "./errors";
import { requireRegistryAuth } from "./lookup";
import { type TemplateFields, addTemplate, injectPlatformEnv } from "./templateRecords";

/**
 * Where /v1 and /api/v2 differ. v1: "Template names must be unique" (NOTES.md section 1, 409), and
 * a template an endpoint uses cannot be deleted (409). v2 states no name rule, and deleteTemplate
 * is "Rejected if the template is currently referenced by a pod (see that pod's `template` field)
 * or bound to a serverless endpoint" (400).
 */
export type TemplateRules = "v1" | "v2";

/** Changes that do not touch what workers run (an edit of only these rolls no endpoint). */
const COSMETIC: ReadonlySet<string> = new Set([
  "name",
  "readme",
  "isPublic",
  "args",
  "category",
  "startSsh",
  "startJupyter",
  "allowedCudaVersions",
]);

function requireUniqueName(account: AccountData, name: string, exceptId?: string): void {
  for (const template of account.templates.values()) {
    if (template.name === name && template.id !== exceptId) {
      throw conflict(
        `template name ${JSON.stringify(name)} is already used by template ${template.id}; template names must be unique, choose another`,
      );
    }
  }
}

/** `command`: v2's args / cmd / entrypoint, over the arrays in `fields`. */
export function createTemplate(
  ctx: ManagementContext,
  account: AccountData,
  fields: TemplateFields,
  rules: TemplateRules,
  command: CommandInput = {},
): TemplateRecord {
  if (rules === "v1") requireUniqueName(account, fields.name);
  if (fields.containerRegistryAuthId) requireRegistryAuth(account, fields.containerRegistryAuthId);
  const change = commandChange(command, { entrypoint: fields.dockerEntrypoint, cmd: fields.dockerStartCmd });
  const env = { ...fields.env };
  if (fields.isServerless) injectPlatformEnv(ctx, env);
  return addTemplate(ctx, account, { ...fields, env, ...change });
}

export function updateTemplate(
  ctx: ManagementContext,
  account: AccountData,
  template: TemplateRecord,
  fields: Partial<TemplateFields>,
  rules: TemplateRules,
  command: CommandInput = {},
): TemplateRecord {
  if (rules === "v1" && fields.name !== undefined) requireUniqueName(account, fields.name, template.id);
  if (fields.containerRegistryAuthId) requireRegistryAuth(account, fields.containerRegistryAuthId);
  const changes: Partial<TemplateFields> = {
    ...fields,
    ...commandChange(command, { entrypoint: template.dockerEntrypoint, cmd: template.dockerStartCmd }),
  };
  const rolls = Object.entries(changes).some(
    ([key, value]) => !COSMETIC.has(key) && !isDeepStrictEqual(template[key as keyof TemplateRecord], value),
  );
  Object.assign(template, changes);
  if (rolls) rollEndpointsOf(ctx, account, template.id);
  return template;
}

export function deleteTemplate(account: AccountData, template: TemplateRecord, rules: TemplateRules): void {
  const endpoints = [...account.endpoints.values()].filter((e) => e.templateId === template.id).map((e) => e.id);
  if (rules === "v1" && endpoints.length > 0) {
    throw conflict(
      `template ${template.id} is used by endpoint ${endpoints.join(", ")}; delete the endpoint or point it at another template first`,
    );
  }
  if (rules === "v2") {
    const users = [
      ...[...account.pods.values()].filter((p) => p.templateId === template.id).map((p) => `pod ${p.id}`),
      ...endpoints.map((id) => `endpoint ${id}`),
    ];
    if (users.length > 0) throw invalid("id", `template ${template.id} is used by ${users.join(", ")}; delete them first`);
  }
  account.templates.delete(template.id);
}
