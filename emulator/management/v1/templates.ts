/**
 * /v1/templates: the domain's template commands (management/templates.ts) under v1's rules (unique
 * names), and the public and service templates a list or get shows when asked.
 */
import { type Operation, defineOperation } from "../../http/router";
import type { TemplateRecord } from "../../state/model";
import { TEMPLATE_UPDATE_HINTS, TemplateCreateInput, TemplateQuery, TemplateUpdateInput } from "../../vocabulary/schemas/template";
import type { ManagementContext } from "../context";
import { notFound } from "../errors";
import { publicTemplates, templateOf } from "../lookup";
import { SERVICE_TEMPLATES } from "../serviceTemplates";
import type { TemplateFields } from "../templateRecords";
import { createTemplate, deleteTemplate, updateTemplate } from "../templates";
import { templateView } from "./views";

/** The fields a PATCH sets; a null registry clears it. */
function fieldsOf(body: TemplateUpdateInput): Partial<TemplateFields> {
  const fields: Partial<TemplateFields> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    Object.assign(fields, { [key]: key === "containerRegistryAuthId" ? (value ?? null) : value });
  }
  return fields;
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
        return {
          status: 200,
          body: templateView(updateTemplate(ctx, acct, templateOf(acct, params.templateId ?? ""), fieldsOf(body), "v1")),
        };
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
        const fields: TemplateFields = {
          name: body.name,
          imageName: body.imageName,
          category: body.category,
          containerDiskInGb: body.containerDiskInGb,
          containerRegistryAuthId: body.containerRegistryAuthId ?? null,
          dockerEntrypoint: body.dockerEntrypoint,
          dockerStartCmd: body.dockerStartCmd,
          env: body.env,
          isPublic: body.isPublic,
          isServerless: body.isServerless,
          ports: body.ports,
          readme: body.readme,
          volumeInGb: body.volumeInGb,
          volumeMountPath: body.volumeMountPath,
        };
        return { status: 200, body: templateView(createTemplate(ctx, account(accountId), fields, "v1")) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/templates",
      operationId: "ListTemplates",
      tag: "templates",
      summary: "List templates",
      query: TemplateQuery,
      response: {
        status: 200,
        description: "The account's templates (and public/service ones when asked).",
        schemaName: "Template",
        array: true,
      },
      errors: [400],
      handle({ accountId, query }) {
        const own = [...ctx.visibility.listed(account(accountId).templates.values())];
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
        deleteTemplate(acct, templateOf(acct, params.templateId ?? ""), "v1");
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
