/**
 * /api/v2/templates over the same template records as /v1. `category` and `serverless` can
 * change here; `startSsh`, `startJupyter` and `allowedCudaVersions` are v2 fields kept on the
 * record. Endpoints created through v2 own a copy (their bound template), so editing a template
 * does not reach them; endpoints made through /v1 point at the template and roll with it, as in /v1.
 * Names need not be unique here: the v2 reference states no such rule (v1's unique template names,
 * NOTES.md section 1, stay a /v1 rule).
 */
import { isDeepStrictEqual } from "node:util";
import { notFound } from "../../http/errors";
import type { Operation } from "../../http/router";
import { newId } from "../../ids";
import type { AccountData, TemplateRecord } from "../../state/model";
import { endpointSpec } from "../endpointSpec";
import { templateOf, usableTemplate } from "../lookup";
import { SERVICE_TEMPLATES } from "../serviceTemplates";
import { type V2Context, defineV2Operation } from "./operation";
import { commandChange, commandView } from "./command";
import { mountsOf } from "./podView";
import { requireV2Registry } from "./pods";
import { byCreation, paginate } from "./pagination";
import { fieldProblem } from "./problem";
import { CreateTemplateRequest, ListPageQuery, UpdateTemplateRequest } from "./schemas";
import type { Template } from "./wire";

const TAG = "templates";
/** Changes that do not touch what workers run. */
const COSMETIC: ReadonlySet<string> = new Set(["name", "args", "isPublic", "category", "startSsh", "startJupyter", "allowedCudaVersions"]);

export function v2TemplateView(template: TemplateRecord): Template {
  return {
    id: template.id,
    name: template.name,
    image: template.imageName,
    ...commandView(template),
    disk: template.containerDiskInGb,
    env: { ...template.env },
    ports: [...template.ports],
    registry: template.containerRegistryAuthId,
    mounts: mountsOf(template),
    serverless: template.isServerless,
    public: template.isPublic,
    category: template.category,
    startSsh: template.startSsh ?? true,
    startJupyter: template.startJupyter ?? true,
    allowedCudaVersions: [...(template.allowedCudaVersions ?? [])],
  };
}

/** The record fields a v2 body sets (v2 name -> record field); the command over `template`'s. */
function recordFields(body: UpdateTemplateRequest, template: TemplateRecord): Partial<TemplateRecord> {
  const out: Partial<TemplateRecord> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.image !== undefined) out.imageName = body.image;
  const command = commandChange(body, { entrypoint: template.dockerEntrypoint, cmd: template.dockerStartCmd });
  if (command) Object.assign(out, command);
  if (body.disk !== undefined) out.containerDiskInGb = body.disk;
  if (body.env !== undefined) out.env = { ...body.env };
  if (body.ports !== undefined) out.ports = [...body.ports];
  if (body.registry !== undefined) out.containerRegistryAuthId = body.registry;
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

export function v2TemplateOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    defineV2Operation({
      method: "GET",
      path: "/templates",
      operationId: "listTemplates",
      tag: TAG,
      scope: "templates:read",
      summary: "List templates",
      query: ListPageQuery,
      response: { status: 200, description: "OK", schemaName: "ListTemplatesResponse" },
      errors: [422],
      handle({ accountId, query: { limit, cursor } }) {
        const page = paginate([...account(accountId).templates.values()], byCreation, { operationId: "listTemplates", accountId, bound: {}, limit, cursor, pageSize: ctx.options.pageSize });
        return { status: 200, body: { templates: page.items.map(v2TemplateView), pagination: page.pagination } };
      },
    }, { queryProblemStatus: 422 }),
    defineV2Operation({
      method: "POST",
      path: "/templates",
      operationId: "createTemplate",
      tag: TAG,
      scope: "templates:write",
      summary: "Create a template",
      body: CreateTemplateRequest,
      bodyName: "CreateTemplateRequest",
      response: { status: 201, description: "Created", schemaName: "Template" },
      errors: [400, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        if (body.registry) requireV2Registry(acct, body.registry);
        const env = { ...body.env };
        if (body.serverless && ctx.options.quirks.injectServerlessTemplatePorts) {
          env.PORT ??= "80";
          env.PORT_HEALTH ??= "80";
        }
        const template: TemplateRecord = {
          id: newId("template", (candidate) => acct.templates.has(candidate) || SERVICE_TEMPLATES.has(candidate)),
          accountId,
          createdAtMs: ctx.clock.now(),
          name: body.name,
          imageName: body.image,
          category: body.category,
          containerDiskInGb: body.disk ?? 50,
          containerRegistryAuthId: body.registry ?? null,
          dockerEntrypoint: [],
          dockerStartCmd: [],
          env,
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
        const command = commandChange(body, { entrypoint: [], cmd: [] });
        if (command) Object.assign(template, command);
        acct.templates.set(template.id, template);
        return { status: 201, body: v2TemplateView(template) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/templates/{id}",
      operationId: "getTemplate",
      tag: TAG,
      scope: "templates:read",
      summary: "Get a template",
      response: { status: 200, description: "OK", schemaName: "Template" },
      errors: [404],
      handle({ accountId, params }) {
        const template = usableTemplate(ctx, account(accountId), params.id ?? "");
        if (!template) throw notFound("template");
        return { status: 200, body: v2TemplateView(template) };
      },
    }),
    defineV2Operation({
      method: "PATCH",
      path: "/templates/{id}",
      operationId: "updateTemplate",
      tag: TAG,
      scope: "templates:write",
      summary: "Update a template",
      body: UpdateTemplateRequest,
      bodyName: "UpdateTemplateRequest",
      response: { status: 200, description: "OK", schemaName: "Template" },
      errors: [400, 404, 422],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const template = templateOf(acct, params.id ?? "");
        if (body.registry) requireV2Registry(acct, body.registry);
        const changes = recordFields(body, template);
        const rolls = Object.entries(changes).some(([key, value]) => !COSMETIC.has(key) && !isDeepStrictEqual(template[key as keyof TemplateRecord], value));
        Object.assign(template, changes);
        if (rolls) {
          for (const endpoint of acct.endpoints.values()) {
            if (endpoint.templateId !== template.id) continue;
            endpoint.version += 1;
            ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
          }
        }
        return { status: 200, body: v2TemplateView(template) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/templates/{id}",
      operationId: "deleteTemplate",
      tag: TAG,
      scope: "templates:write",
      summary: "Delete a template",
      response: { status: 204, description: "Deleted. Response has no body." },
      errors: [400, 404],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const template = templateOf(acct, params.id ?? "");
        const users = [
          ...[...acct.pods.values()].filter((p) => p.templateId === template.id).map((p) => `pod ${p.id}`),
          ...[...acct.endpoints.values()].filter((e) => e.templateId === template.id).map((e) => `endpoint ${e.id}`),
        ];
        if (users.length > 0) throw fieldProblem("id", `template ${template.id} is used by ${users.join(", ")}; delete them first`);
        acct.templates.delete(template.id);
        return { status: 204 };
      },
    }),
  ];
}
