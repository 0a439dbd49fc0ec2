/**
 * /endpoints: serverless endpoints. Every change is handed to the job side (endpointChanged /
 * endpointDeleted); changes to what workers run (template, hardware, volumes) bump `version`,
 * which the job side treats as a rolling release.
 */
import { isDeepStrictEqual } from "node:util";
import { badRequest, conflict } from "../http/errors";
import { type Operation, defineOperation } from "../http/router";
import { newId } from "../ids";
import type { QuirkOptions } from "../options";
import type { AccountData, EndpointRecord } from "../state/model";
import { DATA_CENTER_IDS, CPU_FLAVORS } from "../vocabulary/catalog";
import {
  ENDPOINT_RELEASE_FIELDS,
  ENDPOINT_UPDATE_HINTS,
  EndpointCreateInput,
  EndpointQuery,
  EndpointUpdateInput,
} from "../vocabulary/schemas/endpoint";
import type { Endpoint } from "../vocabulary/schemas/wire";
import { type ManagementContext, isoTime } from "./context";
import { endpointSpec } from "./endpointSpec";
import { endpointOf, requireNetworkVolume, requireTemplate, usableTemplate } from "./lookup";
import { workerPodView } from "./podView";
import { templateView } from "./views";

const DAY_MS = 86_400_000;

/**
 * The management API v1 has no type field (the service's newer API has `type`), so a load-balancing
 * endpoint is created with this marker at the end of its name, the way the service marks flashboot
 * endpoints with a " -fb" suffix. The type is fixed at create: a later rename does not change it.
 */
const LOAD_BALANCER_NAME_SUFFIX = " -lb";

function endpointTypeOfName(name: string): EndpointRecord["type"] {
  return name.endsWith(LOAD_BALANCER_NAME_SUFFIX) ? "LOAD_BALANCER" : "QUEUE";
}

/** Reported: after 3 idle days workersMax drops to 2, after 7 to 0 (quirk, off by default). */
function applyIdleDecay(ctx: ManagementContext, endpoint: EndpointRecord): void {
  if (!ctx.options.quirks.idleEndpointWorkersMaxDecay) return;
  const idle = ctx.clock.now() - endpoint.lastActivityMs;
  const cap = idle >= 7 * DAY_MS ? 0 : idle >= 3 * DAY_MS ? 2 : Infinity;
  if (endpoint.workersMax <= cap) return;
  endpoint.workersMax = cap;
  endpoint.workersMin = Math.min(endpoint.workersMin, cap);
  ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  ctx.changed();
}

/** The data center list as the live service has been seen to report it (quirks: sorted, one string). */
function reportedDataCenterIds(quirks: QuirkOptions, ids: readonly string[]): string[] | string {
  const ordered = quirks.endpointDataCenterIdsSorted ? [...ids].sort() : [...ids];
  return quirks.endpointDataCenterIdsAsString ? ordered.join(",") : ordered;
}

/**
 * Deletes an endpoint through either API: its workers stop, and the template a v2 create bound to
 * it (its own copy of the container settings) goes with it.
 */
export function removeEndpoint(ctx: ManagementContext, accountId: string, acct: AccountData, endpoint: EndpointRecord): void {
  acct.endpoints.delete(endpoint.id);
  ctx.serverless.endpointDeleted(accountId, endpoint.id);
  for (const template of [...acct.templates.values()]) if (template.boundEndpointId === endpoint.id) acct.templates.delete(template.id);
}

export function endpointView(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord, query: EndpointQuery): Endpoint {
  applyIdleDecay(ctx, endpoint);
  const quirks = ctx.options.quirks;
  const view: Endpoint = {
    id: endpoint.id,
    name: quirks.flashBootNameSuffix && endpoint.flashboot ? `${endpoint.name} -fb` : endpoint.name,
    templateId: endpoint.templateId,
    computeType: endpoint.computeType,
    gpuTypeIds: [...endpoint.gpuTypeIds],
    gpuCount: endpoint.gpuCount,
    // An endpoint made through /api/v2 without data centers stores none (the scheduler chooses);
    // /v1 shows that as its own default, every data center.
    dataCenterIds: reportedDataCenterIds(quirks, endpoint.dataCenterIds.length > 0 ? endpoint.dataCenterIds : DATA_CENTER_IDS),
    env: { ...endpoint.env },
    executionTimeoutMs: endpoint.executionTimeoutMs,
    idleTimeout: endpoint.idleTimeout,
    scalerType: endpoint.scalerType,
    scalerValue: endpoint.scalerValue,
    workersMin: endpoint.workersMin,
    workersMax: endpoint.workersMax,
    version: endpoint.version,
    createdAt: isoTime(endpoint.createdAtMs),
    userId: endpoint.accountId,
  };
  if (endpoint.computeType === "CPU") {
    // "cpu3c-8-16": flavor, vCPUs, RAM in GB, as the service lists CPU instance ids.
    view.instanceIds = endpoint.cpuFlavorIds.map((id) => `${id}-${endpoint.vcpuCount}-${endpoint.vcpuCount * (CPU_FLAVORS.get(id)?.ramPerVcpuGb ?? 2)}`);
  }
  if (endpoint.allowedCudaVersions !== null) view.allowedCudaVersions = [...endpoint.allowedCudaVersions];
  if (endpoint.minCudaVersion !== null) view.minCudaVersion = endpoint.minCudaVersion;
  if (endpoint.networkVolumeId !== null) view.networkVolumeId = endpoint.networkVolumeId;
  if (endpoint.networkVolumeIds !== null) view.networkVolumeIds = [...endpoint.networkVolumeIds];
  if (query.includeTemplate) {
    const template = usableTemplate(ctx, account, endpoint.templateId);
    if (template) view.template = templateView(template);
  }
  if (query.includeWorkers) {
    const spec = endpointSpec(ctx, endpoint);
    const include = { includeMachine: false, includeNetworkVolume: false, includeSavingsPlans: false, includeTemplate: false };
    view.workers = ctx.serverless.workers(endpoint.id).map((worker) => workerPodView(ctx, spec, worker, include));
  }
  return view;
}

/** Checks that hold for the merged (stored + changed) endpoint. */
function validateEndpoint(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord): void {
  const template = requireTemplate(ctx, account, endpoint.templateId);
  if (!template.isServerless) {
    throw badRequest(
      `invalid templateId: template ${endpoint.templateId} is not a serverless template (isServerless is false); ` +
        "create one with isServerless: true for endpoints",
    );
  }
  if (endpoint.networkVolumeId !== null) requireNetworkVolume(account, endpoint.networkVolumeId);
  for (const id of endpoint.networkVolumeIds ?? []) requireNetworkVolume(account, id, "networkVolumeIds");
  if (endpoint.workersMin > endpoint.workersMax) {
    throw badRequest(`invalid workersMin: workersMin (${endpoint.workersMin}) must be <= workersMax (${endpoint.workersMax})`);
  }
}

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/** The fields a PATCH actually sent. */
function definedEntries<T extends object>(body: T): Defined<T> {
  const out: Defined<T> = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined) Object.assign(out, { [key]: value });
  return out;
}

export function endpointOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);

  const update = (path: string, method: "PATCH" | "POST", operationId: string) =>
    defineOperation({
      method,
      path,
      operationId,
      tag: "endpoints",
      summary: method === "PATCH" ? "Update an endpoint (rolling release when workers change)" : "Update an endpoint (synonym of PATCH)",
      body: EndpointUpdateInput,
      bodyName: "EndpointUpdateInput",
      unknownFieldHints: ENDPOINT_UPDATE_HINTS,
      response: { status: 200, description: "The updated endpoint.", schemaName: "Endpoint" },
      errors: [400, 404],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const endpoint = endpointOf(acct, params.endpointId ?? "");
        const changes = definedEntries(body);
        const merged: EndpointRecord = { ...endpoint, ...changes };
        validateEndpoint(ctx, acct, merged);
        const release = ENDPOINT_RELEASE_FIELDS.some((field) => !isDeepStrictEqual(merged[field], endpoint[field]));
        Object.assign(endpoint, merged, {
          version: release ? endpoint.version + 1 : endpoint.version,
          lastActivityMs: ctx.clock.now(),
        });
        ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
        return { status: 200, body: endpointView(ctx, acct, endpoint, { includeTemplate: false, includeWorkers: false }) };
      },
    });

  return [
    defineOperation({
      method: "POST",
      path: "/endpoints",
      operationId: "CreateEndpoint",
      tag: "endpoints",
      summary: "Create a new endpoint",
      body: EndpointCreateInput,
      bodyName: "EndpointCreateInput",
      response: { status: 200, description: "The created endpoint.", schemaName: "Endpoint" },
      errors: [400],
      handle({ accountId, body }) {
        const acct = account(accountId);
        const now = ctx.clock.now();
        const id = newId("endpoint", (candidate) => acct.endpoints.has(candidate));
        const name = body.name ?? `endpoint ${id}`;
        const endpoint: EndpointRecord = {
          id,
          accountId,
          createdAtMs: now,
          lastActivityMs: now,
          name,
          templateId: body.templateId,
          computeType: body.computeType,
          gpuTypeIds: body.gpuTypeIds ?? [],
          gpuCount: body.gpuCount,
          cpuFlavorIds: body.cpuFlavorIds ?? (body.computeType === "CPU" ? ["cpu3c"] : []),
          vcpuCount: body.vcpuCount,
          dataCenterIds: body.dataCenterIds ?? [...DATA_CENTER_IDS],
          allowedCudaVersions: body.allowedCudaVersions ?? null,
          minCudaVersion: body.minCudaVersion ?? null,
          networkVolumeId: body.networkVolumeId ?? null,
          networkVolumeIds: body.networkVolumeIds ?? null,
          executionTimeoutMs: body.executionTimeoutMs,
          // Reported: create ignores flashboot: false (tools patch it right after create).
          flashboot: true,
          idleTimeout: body.idleTimeout,
          scalerType: body.scalerType,
          scalerValue: body.scalerValue,
          workersMin: body.workersMin,
          workersMax: body.workersMax,
          env: {},
          version: 0,
          type: endpointTypeOfName(name),
        };
        validateEndpoint(ctx, acct, endpoint);
        acct.endpoints.set(id, endpoint);
        ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
        return { status: 200, body: endpointView(ctx, acct, endpoint, { includeTemplate: false, includeWorkers: false }) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/endpoints",
      operationId: "ListEndpoints",
      tag: "endpoints",
      summary: "List endpoints",
      query: EndpointQuery,
      response: { status: 200, description: "The account's endpoints.", schemaName: "Endpoint", array: true },
      errors: [400],
      handle({ accountId, query }) {
        const acct = account(accountId);
        return { status: 200, body: [...acct.endpoints.values()].map((endpoint) => endpointView(ctx, acct, endpoint, query)) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/endpoints/{endpointId}",
      operationId: "GetEndpoint",
      tag: "endpoints",
      summary: "Find an endpoint by ID",
      query: EndpointQuery,
      response: { status: 200, description: "The endpoint.", schemaName: "Endpoint" },
      errors: [400, 404],
      handle({ accountId, params, query }) {
        const acct = account(accountId);
        return { status: 200, body: endpointView(ctx, acct, endpointOf(acct, params.endpointId ?? ""), query) };
      },
    }),
    update("/endpoints/{endpointId}", "PATCH", "UpdateEndpoint"),
    update("/endpoints/{endpointId}/update", "POST", "UpdateEndpointPost"),
    defineOperation({
      method: "DELETE",
      path: "/endpoints/{endpointId}",
      operationId: "DeleteEndpoint",
      tag: "endpoints",
      summary: "Delete an endpoint (refused while workersMin > 0)",
      response: { status: 204, description: "Deleted." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const endpoint = endpointOf(acct, params.endpointId ?? "");
        if (endpoint.workersMin > 0) {
          throw conflict(
            `endpoint ${endpoint.id} still keeps workers running (workersMin is ${endpoint.workersMin}); ` +
              "scale workersMin to 0 first (PATCH {\"workersMin\": 0}), then delete it",
          );
        }
        removeEndpoint(ctx, accountId, acct, endpoint);
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
