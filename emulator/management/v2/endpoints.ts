/**
 * /api/v2/serverless: the domain's endpoint commands (management/endpoints/) over the same records
 * as /v1 /endpoints, read from v2 requests (pools and exclusions, a CPU list, scaling, workers,
 * container settings) and answered in v2 shapes; plus their workers, releases and builds.
 *
 * Builds (management-api-v2-today.md 5.3): the service builds a release's image from a source
 * repository; the emulator builds nothing (an endpoint is made from an image or a template, and
 * its releases are all MANUAL with no `buildId`), so no endpoint has a build: every endpoint
 * answers the empty page "an endpoint with no build history" answers, and every build id is a 404
 * (emulator README, "v2 operations added: assumptions").
 */
import type { Operation } from "../../http/router";
import type { AccountData, EndpointRecord } from "../../state/model";
import { ListBuildsQuery } from "../../vocabulary/schemas/v2/builds";
import { CreateEndpointRequest, type EndpointScaling, ListPageQuery, UpdateEndpointRequest } from "../../vocabulary/schemas/v2/requests";
import { type EndpointCreation, createEndpoint, templateCuda } from "../endpoints/create";
import { deleteEndpoint } from "../endpoints/delete";
import { cpusOfSelection, gpuTypeIdsOf, selectionOf, typesOfSelection } from "../endpoints/selection";
import { type EndpointChange, checkComputeFamily, updateEndpoint } from "../endpoints/update";
import { releaseListOf, workersOf } from "../endpoints/workers";
import { requireOneFamily } from "../compute";
import { notFound } from "../errors";
import { endpointOf, requireDataCenters, requireImage, requireNetworkVolumes, requireRegistry, requireTemplateOfKind } from "../lookup";
import { byCreation } from "../lists";
import { listPage, type V2Context } from "./operation";
import { v2EndpointView } from "./endpointView";

function scalerOf(scaling: EndpointScaling): Pick<EndpointRecord, "scalerType" | "scalerValue"> {
  return { scalerType: scaling.type, scalerValue: scaling.type === "QUEUE_DELAY" ? scaling.queueDelay : scaling.requestCount };
}

function flashbootOf(flashboot: CreateEndpointRequest["flashboot"]): Pick<EndpointRecord, "flashboot" | "flashbootPriority"> {
  return { flashboot: flashboot !== "OFF", flashbootPriority: flashboot === "PRIORITY_FLASHBOOT" };
}

function creationOf(v: V2Context, account: AccountData, body: CreateEndpointRequest): EndpointCreation {
  requireOneFamily(body.gpu, body.cpu, ["GPU workers", "CPU workers"]);
  const gpuTypeIds = body.gpu ? typesOfSelection(body.gpu.pools, body.gpu.excludedTypes ?? []) : [];
  const cpu = body.cpu ? cpusOfSelection(body.cpu) : undefined;
  requireDataCenters(body.dataCenterIds);
  const networkVolumeIds = body.networkVolumes ? requireNetworkVolumes(account, body.networkVolumes) : null;
  if (body.registry) requireRegistry(account, body.registry);
  const source = body.templateId ? requireTemplateOfKind(v.ctx, account, body.templateId, "serverless") : undefined;
  requireImage(body.image, source);
  const settings = {
    name: body.name,
    type: body.type,
    computeType: cpu ? ("CPU" as const) : ("GPU" as const),
    gpuTypeIds,
    gpuCount: body.gpu?.count ?? 1,
    cpuFlavorIds: cpu?.ids ?? [],
    vcpuCount: cpu?.vcpuCount ?? 2,
    // CreateEndpointRequest.dataCenterIds: "Omit or pass an empty array to let the scheduler
    // choose": stored and answered as [] (no preference), never filled in with a list.
    dataCenterIds: [...(body.dataCenterIds ?? [])],
    // CreateEndpointGpuConfig.allowedCudaVersions: "Omit to accept any version (or inherit the
    // template's constraint when creating from `templateId`)".
    allowedCudaVersions: body.gpu?.allowedCudaVersions ?? templateCuda(source, cpu !== undefined, body.gpu?.minCudaVersion),
    minCudaVersion: body.gpu?.minCudaVersion ?? null,
    networkVolumeId: null,
    networkVolumeIds,
    executionTimeoutMs: body.timeout,
    ...flashbootOf(body.flashboot),
    idleTimeout: body.workers?.idleTimeout,
    ...scalerOf(body.scaling),
    workersMin: body.workers?.min ?? 0,
    workersMax: body.workers?.max ?? 3,
  };
  return { settings, container: { source, body } };
}

const CONTAINER_FIELDS = ["image", "args", "cmd", "entrypoint", "disk", "env", "ports", "registry", "templateId"] as const;

function changeOf(v: V2Context, account: AccountData, endpoint: EndpointRecord, body: UpdateEndpointRequest): EndpointChange {
  const rebuilds = checkComputeFamily(v.ctx, endpoint, body);
  const fields: Partial<EndpointRecord> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.workers?.min !== undefined) fields.workersMin = body.workers.min;
  if (body.workers?.max !== undefined) fields.workersMax = body.workers.max;
  if (body.workers?.idleTimeout !== undefined) fields.idleTimeout = body.workers.idleTimeout;
  if (body.scaling) Object.assign(fields, scalerOf(body.scaling));
  if (body.dataCenterIds !== undefined) {
    requireDataCenters(body.dataCenterIds);
    fields.dataCenterIds = [...body.dataCenterIds];
  }
  if (body.networkVolumes !== undefined)
    Object.assign(fields, { networkVolumeId: null, networkVolumeIds: requireNetworkVolumes(account, body.networkVolumes) });
  if (body.timeout !== undefined) fields.executionTimeoutMs = body.timeout;
  if (body.flashboot !== undefined) Object.assign(fields, flashbootOf(body.flashboot));
  // UpdateEndpointGpuConfig (SPEC-0922, management-api-v2-today.md 5.3 and 6.1 #3): `pools` replaces
  // the selection and clears the exclusions it does not restate; no `pools` leaves both untouched.
  if (rebuilds && !body.gpu?.pools) fields.gpuTypeIds = gpuTypeIdsOf({ pools: selectionOf(endpoint.gpuTypeIds).pools, excludedTypes: [] });
  if (body.gpu?.pools) fields.gpuTypeIds = typesOfSelection(body.gpu.pools, body.gpu.excludedTypes ?? []);
  if (body.gpu?.count !== undefined) fields.gpuCount = body.gpu.count;
  if (body.gpu?.allowedCudaVersions !== undefined) fields.allowedCudaVersions = [...body.gpu.allowedCudaVersions];
  if (body.gpu?.minCudaVersion !== undefined) fields.minCudaVersion = body.gpu.minCudaVersion === "" ? null : body.gpu.minCudaVersion;
  if (body.cpu) {
    const cpu = cpusOfSelection(body.cpu);
    Object.assign(fields, { cpuFlavorIds: cpu.ids, vcpuCount: cpu.vcpuCount });
  }
  if (!CONTAINER_FIELDS.some((field) => body[field] !== undefined)) return { fields };
  if (body.registry) requireRegistry(account, body.registry);
  const source = body.templateId ? requireTemplateOfKind(v.ctx, account, body.templateId, "serverless") : undefined;
  return { fields, container: { source, body } };
}

export function v2EndpointOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /serverless", "listEndpoints", "serverless:read", "List serverless endpoints"],
      { query: ListPageQuery, paged: true, answer: [200, "ListEndpointsResponse"], errors: [422] },
      (call) => {
        const page = listPage(v, "listEndpoints", call, call.account.endpoints.values(), byCreation);
        return { status: 200, body: { endpoints: page.items.map((e) => v2EndpointView(v, e)), pagination: page.pagination } };
      },
    ),
    route(
      ["POST /serverless", "createEndpoint", "serverless:write", "Create a serverless endpoint"],
      { body: ["CreateEndpointRequest", CreateEndpointRequest], answer: [201, "Endpoint"], errors: [400, 404, 422] },
      ({ account, body }) => {
        const { endpoint: created, template } = createEndpoint(ctx, account, creationOf(v, account, body), "v2");
        return { status: 201, body: v2EndpointView(v, created, template) };
      },
    ),
    route(
      ["GET /serverless/{id}", "getEndpoint", "serverless:read", "Get a serverless endpoint"],
      { answer: [200, "Endpoint"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: v2EndpointView(v, endpointOf(account, id)) }),
    ),
    route(
      ["PATCH /serverless/{id}", "updateEndpoint", "serverless:write", "Update a serverless endpoint"],
      { body: ["UpdateEndpointRequest", UpdateEndpointRequest], answer: [200, "Endpoint"], errors: [400, 404, 422] },
      ({ account, id, body }) => {
        const target = endpointOf(account, id);
        return { status: 200, body: v2EndpointView(v, updateEndpoint(ctx, account, target, changeOf(v, account, target, body), "v2")) };
      },
    ),
    route(
      ["DELETE /serverless/{id}", "deleteEndpoint", "serverless:write", "Delete a serverless endpoint"],
      { answer: [204], errors: [404] },
      ({ account, id }) => {
        deleteEndpoint(ctx, account, endpointOf(account, id), "v2");
        return { status: 204 };
      },
    ),
    route(
      ["GET /serverless/{id}/workers", "listEndpointWorkers", "serverless:read", "List serverless endpoint workers"],
      { answer: [200, "ListEndpointWorkersResponse"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: workersOf(ctx, endpointOf(account, id)) }),
    ),
    route(
      ["GET /serverless/{id}/releases", "listEndpointReleases", "serverless:read", "List serverless endpoint releases"],
      { query: ListPageQuery, paged: true, answer: [200, "ListEndpointReleasesResponse"], errors: [404, 422] },
      (call) => {
        const target = endpointOf(call.account, call.id);
        const all = releaseListOf(target, ctx.serverless.workers(target.id));
        // The rollout summary is the endpoint's current state on every page (management-api-v2-today.md 1.3).
        const page = listPage(v, "listEndpointReleases", call, all.releases, (r) => ({ rank: r.version, id: r.id }));
        return { status: 200, body: { ...all, releases: page.items, pagination: page.pagination } };
      },
    ),
    route(
      ["GET /serverless/{id}/builds", "listEndpointBuilds", "serverless:read", "List serverless endpoint builds"],
      { query: ListBuildsQuery, paged: true, answer: [200, "ListBuildsResponse"], errors: [404, 422] },
      (call) => {
        endpointOf(call.account, call.id);
        // The cursor is still checked (a 422 for one this list did not issue), as on every paginated list.
        const page = listPage(v, "listEndpointBuilds", call, [], byCreation);
        return { status: 200, body: { builds: page.items, pagination: page.pagination } };
      },
    ),
    route(
      ["GET /serverless/{id}/builds/{buildId}", "getEndpointBuild", "serverless:read", "Get a serverless endpoint build"],
      { answer: [200, "Build"], errors: [404] },
      ({ account, id }) => {
        endpointOf(account, id);
        throw notFound("build");
      },
    ),
  ];
}
