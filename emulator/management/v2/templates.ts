/**
 * /api/v2/templates: the domain's template commands (management/templates.ts) over the same
 * records as /v1, under v2's rules. `category` and `serverless` can change here; `startSsh`,
 * `startJupyter` and `allowedCudaVersions` are v2 fields kept on the record. Names need not be
 * unique: the v2 reference states no such rule (v1's unique names, NOTES.md section 1, stay v1's).
 */
import type { Operation } from "../../http/router";
import type { TemplateRecord } from "../../state/model";
import { CreateTemplateRequest, ListPageQuery, UpdateTemplateRequest } from "../../vocabulary/schemas/v2/requests";
import type { Template } from "../../vocabulary/schemas/v2/wire";
import { notFound } from "../errors";
import { templateOf, usableTemplate } from "../lookup";
import { type TemplateFields, provisioningOf, templateRegistry } from "../templateRecords";
import { createTemplate, deleteTemplate, updateTemplate } from "../templates";
import { byCreation } from "../lists";
import { listPage, type V2Context } from "./operation";
import { containerFieldsOf, containerView } from "./container";
import { requireRegistry } from "../lookup";

/**
 * A template as the account `accountId` reads it. listPublicTemplates: "`registry` is always null
 * for templates you don't own" (templateRecords.ts templateRegistry), so another account's public
 * template shows none.
 */
export function v2TemplateView(template: TemplateRecord, accountId: string): Template {
  return {
    id: template.id,
    name: template.name,
    ...containerView(template),
    registry: templateRegistry(template, accountId),
    serverless: template.isServerless,
    public: template.isPublic,
    category: template.category,
    ...provisioningOf(template),
  };
}

/** The record fields an UpdateTemplateRequest sets (v2 name -> record field). */
function fieldsOf(body: UpdateTemplateRequest): Partial<TemplateFields> {
  const out: Partial<TemplateFields> = containerFieldsOf(body);
  if (body.name !== undefined) out.name = body.name;
  if (body.mounts?.persistent) {
    out.volumeInGb = body.mounts.persistent.size;
    out.volumeMountPath = body.mounts.persistent.path;
  }
  if (body.serverless !== undefined) out.isServerless = body.serverless;
  if (body.public !== undefined) out.isPublic = body.public;
  if (body.category !== undefined) out.category = body.category;
  if (body.startSsh !== undefined) out.startSsh = body.startSsh;
  if (body.startJupyter !== undefined) out.startJupyter = body.startJupyter;
  if (body.allowedCudaVersions !== undefined) out.allowedCudaVersions = [...body.allowedCudaVersions];
  return out;
}

function createFieldsOf(body: CreateTemplateRequest): TemplateFields {
  return {
    name: body.name,
    imageName: body.image,
    category: body.category,
    containerDiskInGb: body.disk ?? 50,
    containerRegistryAuthId: body.registry ?? null,
    dockerEntrypoint: [],
    dockerStartCmd: [],
    env: body.env ?? {},
    isPublic: body.public,
    isServerless: body.serverless,
    ports: [...(body.ports ?? [])],
    readme: "",
    volumeInGb: body.mounts?.persistent?.size ?? 0,
    volumeMountPath: body.mounts?.persistent?.path ?? "/workspace",
    startSsh: body.startSsh,
    startJupyter: body.startJupyter,
    allowedCudaVersions: [...(body.allowedCudaVersions ?? [])],
  };
}

export function v2TemplateOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /templates", "listTemplates", "templates:read", "List templates"],
      { query: ListPageQuery, paged: true, answer: [200, "ListTemplatesResponse"], errors: [422] },
      (call) => {
        const page = listPage(v, "listTemplates", call, call.account.templates.values(), byCreation);
        return {
          status: 200,
          body: { templates: page.items.map((template) => v2TemplateView(template, call.accountId)), pagination: page.pagination },
        };
      },
    ),
    route(
      ["POST /templates", "createTemplate", "templates:write", "Create a template"],
      { body: ["CreateTemplateRequest", CreateTemplateRequest], answer: [201, "Template"], errors: [400, 422] },
      ({ account, body }) => {
        if (body.registry) requireRegistry(account, body.registry);
        return { status: 201, body: v2TemplateView(createTemplate(ctx, account, createFieldsOf(body), "v2", body), account.accountId) };
      },
    ),
    route(
      ["GET /templates/{id}", "getTemplate", "templates:read", "Get a template"],
      { answer: [200, "Template"], errors: [404] },
      ({ accountId, id }) => {
        const template = usableTemplate(ctx, accountId, id);
        if (!template) throw notFound("template");
        return { status: 200, body: v2TemplateView(template, accountId) };
      },
    ),
    route(
      ["PATCH /templates/{id}", "updateTemplate", "templates:write", "Update a template"],
      { body: ["UpdateTemplateRequest", UpdateTemplateRequest], answer: [200, "Template"], errors: [400, 404, 422] },
      ({ account, id, body }) => {
        const template = templateOf(account, id);
        if (body.registry) requireRegistry(account, body.registry);
        return { status: 200, body: v2TemplateView(updateTemplate(ctx, account, template, fieldsOf(body), "v2", body), account.accountId) };
      },
    ),
    route(
      ["DELETE /templates/{id}", "deleteTemplate", "templates:write", "Delete a template"],
      { answer: [204], errors: [400, 404] },
      ({ account, id }) => {
        deleteTemplate(account, templateOf(account, id), "v2");
        return { status: 204 };
      },
    ),
  ];
}
