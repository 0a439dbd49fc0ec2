/**
 * /templates. Names are unique per account (409 on a clash). An update that changes what workers
 * run (anything but name, readme, isPublic) rolls every endpoint built on the template.
 */
import { isDeepStrictEqual } from "node:util";
import { conflict, notFound } from "../http/errors";
import { type Operation, defineOperation } from "../http/router";
import { newId } from "../ids";
import type { AccountData, TemplateRecord } from "../state/model";
import { TEMPLATE_UPDATE_HINTS, TemplateCreateInput, TemplateQuery, TemplateUpdateInput } from "../vocabulary/schemas/template";
import type { ManagementContext } from "./context";
import { endpointSpec } from "./endpointSpec";
import { publicTemplates, requireRegistryAuth, templateOf } from "./lookup";
import { SERVICE_TEMPLATES } from "./serviceTemplates";
import { templateView } from "./views";

/** Fields whose change does not touch running workers. */
const COSMETIC_FIELDS: ReadonlySet<string> = new Set(["name", "readme", "isPublic"]);

function requireUniqueName(account: AccountData, name: string, exceptId?: string): void {
  for (const template of account.templates.values()) {
    if (template.name === name && template.id !== exceptId) {
      throw conflict(`template name ${JSON.stringify(name)} is already used by template ${template.id}; template names must be unique, choose another`);
    }
  }
}

/** Templates this query may see beyond the account's own. */
function visibleExtras(ctx: ManagementContext, accountId: string, query: TemplateQuery): TemplateRecord[] {
  const extras: TemplateRecord[] = [];
  if (query.includePublicTemplates) extras.push(...publicTemplates(ctx, accountId));
  if (query.includeServiceTemplates) extras.push(...SERVICE_TEMPLATES.values());
  return extras;
}

export function templateOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);

  const update = (path: string, method: "PATCH" | "POST", operationId: string) =>
    defineOperation({
      method,
      path,
      operationId,
      tag: "templates",
      summary: method === "PATCH" ? "Update a template (rolls endpoints that use it)" : "Update a template (synonym of PATCH)",
      body: TemplateUpdateInput,
      bodyName: "TemplateUpdateInput",
      unknownFieldHints: TEMPLATE_UPDATE_HINTS,
      response: { status: 200, description: "The updated template.", schemaName: "Template" },
      errors: [400, 404, 409],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const template = templateOf(acct, params.templateId ?? "");
        if (body.name !== undefined) requireUniqueName(acct, body.name, template.id);
        if (body.containerRegistryAuthId) requireRegistryAuth(acct, body.containerRegistryAuthId);
        let rolls = false;
        for (const [key, value] of Object.entries(body)) {
          if (value === undefined) continue;
          const field = key as keyof TemplateUpdateInput;
          const next = field === "containerRegistryAuthId" ? (value ?? null) : value;
          if (!COSMETIC_FIELDS.has(field) && !isDeepStrictEqual(template[field], next)) rolls = true;
          Object.assign(template, { [field]: next });
        }
        if (rolls) {
          for (const endpoint of acct.endpoints.values()) {
            if (endpoint.templateId !== template.id) continue;
            endpoint.version += 1;
            ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
          }
        }
        return { status: 200, body: templateView(template) };
      },
    });

  return [
    defineOperation({
      method: "POST",
      path: "/templates",
      operationId: "CreateTemplate",
      tag: "templates",
      summary: "Create a new template",
      body: TemplateCreateInput,
      bodyName: "TemplateCreateInput",
      response: { status: 200, description: "The created template.", schemaName: "Template" },
      errors: [400, 409],
      handle({ accountId, body }) {
        const acct = account(accountId);
        requireUniqueName(acct, body.name);
        if (body.containerRegistryAuthId) requireRegistryAuth(acct, body.containerRegistryAuthId);
        const env = { ...body.env };
        if (body.isServerless && ctx.options.quirks.injectServerlessTemplatePorts) {
          // Reported: the platform adds these to serverless templates; clients must not fight them.
          env.PORT ??= "80";
          env.PORT_HEALTH ??= "80";
        }
        const template: TemplateRecord = {
          id: newId("template", (candidate) => acct.templates.has(candidate) || SERVICE_TEMPLATES.has(candidate)),
          accountId,
          createdAtMs: ctx.clock.now(),
          name: body.name,
          imageName: body.imageName,
          category: body.category,
          containerDiskInGb: body.containerDiskInGb,
          containerRegistryAuthId: body.containerRegistryAuthId ?? null,
          dockerEntrypoint: body.dockerEntrypoint,
          dockerStartCmd: body.dockerStartCmd,
          env,
          isPublic: body.isPublic,
          isServerless: body.isServerless,
          ports: body.ports,
          readme: body.readme,
          volumeInGb: body.volumeInGb,
          volumeMountPath: body.volumeMountPath,
        };
        acct.templates.set(template.id, template);
        return { status: 200, body: templateView(template) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/templates",
      operationId: "ListTemplates",
      tag: "templates",
      summary: "List templates",
      query: TemplateQuery,
      response: { status: 200, description: "The account's templates (and public/service ones when asked).", schemaName: "Template", array: true },
      errors: [400],
      handle({ accountId, query }) {
        const own = [...account(accountId).templates.values()];
        return { status: 200, body: [...own, ...visibleExtras(ctx, accountId, query)].map(templateView) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/templates/{templateId}",
      operationId: "GetTemplate",
      tag: "templates",
      summary: "Find a template by ID",
      query: TemplateQuery,
      response: { status: 200, description: "The template.", schemaName: "Template" },
      errors: [400, 404],
      handle({ accountId, params, query }) {
        const id = params.templateId ?? "";
        const template = account(accountId).templates.get(id) ?? visibleExtras(ctx, accountId, query).find((t) => t.id === id);
        if (!template) throw notFound("template");
        return { status: 200, body: templateView(template) };
      },
    }),
    update("/templates/{templateId}", "PATCH", "UpdateTemplate"),
    update("/templates/{templateId}/update", "POST", "UpdateTemplatePost"),
    defineOperation({
      method: "DELETE",
      path: "/templates/{templateId}",
      operationId: "DeleteTemplate",
      tag: "templates",
      summary: "Delete a template (refused while an endpoint uses it)",
      response: { status: 204, description: "Deleted." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const template = templateOf(acct, params.templateId ?? "");
        const users = [...acct.endpoints.values()].filter((endpoint) => endpoint.templateId === template.id).map((e) => e.id);
        if (users.length > 0) {
          throw conflict(`template ${template.id} is used by endpoint ${users.join(", ")}; delete the endpoint or point it at another template first`);
        }
        acct.templates.delete(template.id);
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
