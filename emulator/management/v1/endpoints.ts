/**
 * /v1/endpoints: the domain's endpoint commands (management/endpoints/) under v1's rules: an
 * endpoint points at a serverless template of the account (editing it rolls the endpoint), a
 * release is counted but not recorded, and an endpoint that keeps workers cannot be deleted.
 */
import { type Operation, defineOperation } from "../../http/router";
import type { QuirkOptions } from "../../options";
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { CPU_FLAVORS, DATA_CENTER_IDS } from "../../vocabulary/catalog";
import { ENDPOINT_UPDATE_HINTS, EndpointCreateInput, EndpointQuery, EndpointUpdateInput } from "../../vocabulary/schemas/endpoint";
import type { Endpoint } from "../../vocabulary/schemas/wire";
import { type ManagementContext, isoTime } from "../context";
import { createEndpoint } from "../endpoints/create";
import { deleteEndpoint } from "../endpoints/delete";
import { applyIdleDecay } from "../endpoints/records";
import { endpointSpec } from "../endpoints/spec";
import { updateEndpoint } from "../endpoints/update";
import { invalid } from "../errors";
import { endpointOf, requireNetworkVolume, requireTemplate, usableTemplate } from "../lookup";
import { workerPodView } from "./podView";
import { templateView } from "./views";

/**
 * The management API v1 has no type field (the service's newer API has `type`), so a load-balancing
 * endpoint is created with this marker at the end of its name, the way the service marks flashboot
 * endpoints with a " -fb" suffix. The type is fixed at create: a later rename does not change it.
 */
const LOAD_BALANCER_NAME_SUFFIX = " -lb";

function endpointTypeOfName(name: string): EndpointRecord["type"] {
  return name.endsWith(LOAD_BALANCER_NAME_SUFFIX) ? "LOAD_BALANCER" : "QUEUE";
}

/** The data center list as the live service has been seen to report it (quirks: sorted, one string). */
function reportedDataCenterIds(quirks: QuirkOptions, ids: readonly string[]): string[] | string {
  const ordered = quirks.endpointDataCenterIdsSorted ? [...ids].sort() : [...ids];
  return quirks.endpointDataCenterIdsAsString ? ordered.join(",") : ordered;
}

export function endpointView(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord, query: EndpointQuery): Endpoint {
  applyIdleDecay(ctx, account, endpoint);
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
    view.instanceIds = endpoint.cpuFlavorIds.map(
      (id) => `${id}-${endpoint.vcpuCount}-${endpoint.vcpuCount * (CPU_FLAVORS.get(id)?.ramPerVcpuGb ?? 2)}`,
    );
  }
  if (endpoint.allowedCudaVersions !== null) view.allowedCudaVersions = [...endpoint.allowedCudaVersions];
  if (endpoint.minCudaVersion !== null) view.minCudaVersion = endpoint.minCudaVersion;
  if (endpoint.networkVolumeId !== null) view.networkVolumeId = endpoint.networkVolumeId;
  if (endpoint.networkVolumeIds !== null) view.networkVolumeIds = [...endpoint.networkVolumeIds];
  if (query.includeTemplate) {
    const template = usableTemplate(ctx, account.accountId, endpoint.templateId);
    if (template) view.template = templateView(template);
  }
  if (query.includeWorkers) {
    const spec = endpointSpec(ctx, endpoint);
    const include = { includeMachine: false, includeNetworkVolume: false, includeSavingsPlans: false, includeTemplate: false };
    view.workers = ctx.serverless.workers(endpoint.id).map((worker) => workerPodView(ctx, spec, worker, include));
  }
  return view;
}

/** What the endpoint (as a create makes it, or an update leaves it) refers to must exist: a serverless template, its volumes. */
function checkReferences(
  ctx: ManagementContext,
  account: AccountData,
  endpoint: Pick<EndpointRecord, "templateId" | "networkVolumeId" | "networkVolumeIds">,
): TemplateRecord {
  const template = requireTemplate(ctx, account, endpoint.templateId);
  if (!template.isServerless) {
    throw invalid(
      "templateId",
      `template ${endpoint.templateId} is not a serverless template (isServerless is false); create one with isServerless: true for endpoints`,
    );
  }
  if (endpoint.networkVolumeId !== null) requireNetworkVolume(account, endpoint.networkVolumeId);
  for (const id of endpoint.networkVolumeIds ?? []) requireNetworkVolume(account, id, "networkVolumeIds");
  return template;
}

/** The fields a PATCH actually sent. */
function fieldsOf(body: EndpointUpdateInput): Partial<EndpointRecord> {
  const fields: Partial<EndpointRecord> = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined) Object.assign(fields, { [key]: value });
  return fields;
}

export function endpointOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);
  const plain = { includeTemplate: false, includeWorkers: false };

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
        const fields = fieldsOf(body);
        checkReferences(ctx, acct, { ...endpoint, ...fields });
        return { status: 200, body: endpointView(ctx, acct, updateEndpoint(ctx, acct, endpoint, { fields }, "v1"), plain) };
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
        const settings = {
          name: body.name,
          type: endpointTypeOfName(body.name ?? ""),
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
          // Reported: create ignores flashboot: false (tools patch it right after create; NOTES.md section 1).
          flashboot: true,
          idleTimeout: body.idleTimeout,
          scalerType: body.scalerType,
          scalerValue: body.scalerValue,
          workersMin: body.workersMin,
          workersMax: body.workersMax,
        };
        const template = checkReferences(ctx, acct, {
          templateId: body.templateId,
          networkVolumeId: settings.networkVolumeId,
          networkVolumeIds: settings.networkVolumeIds,
        });
        const { endpoint } = createEndpoint(ctx, acct, { settings, container: { template } }, "v1");
        return { status: 200, body: endpointView(ctx, acct, endpoint, plain) };
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
        return {
          status: 200,
          body: [...ctx.visibility.listed(acct.endpoints.values())].map((endpoint) => endpointView(ctx, acct, endpoint, query)),
        };
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
        deleteEndpoint(ctx, acct, endpointOf(acct, params.endpointId ?? ""), "v1");
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
