/**
 * /api/v2/serverless: endpoints over the same records as /v1 /endpoints, plus their workers and
 * releases. The type (QUEUE or LOAD_BALANCER) is chosen at create and fixed. `templateId` is a
 * snapshot: its container settings are copied into the endpoint's own (bound) template, which
 * PATCH changes and DELETE removes with the endpoint.
 */
import type { Operation } from "../../http/router";
import { newId } from "../../ids";
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { GPU_TYPES } from "../../vocabulary/catalog";
import { removeEndpoint } from "../endpoints";
import { endpointSpec } from "../endpointSpec";
import { endpointOf, requireNetworkVolume, usableTemplate } from "../lookup";
import { ENDPOINT_CPU_IDS, GPU_POOLS, isDataCenter, isPowerOfTwo } from "./catalog";
import { endpointTemplate, gpuTypeIdsOf, selectionOf, usesIdleTimeout, v2EndpointView } from "./endpointView";
import { checkWorkerQuota } from "../account/limits";
import { type V2Context, defineV2Operation } from "./operation";
import { commandChange } from "./command";
import { requireV2Registry } from "./pods";
import { byCreation, paginate } from "./pagination";
import { fieldProblem } from "./problem";
import { newRelease, releaseDiff, releasesResponse, workersResponse } from "./releases";
import { CreateEndpointRequest, type EndpointScaling, ListPageQuery, UpdateEndpointRequest } from "./schemas";

const TAG = "serverless";
/** Container disk of an endpoint whose body and template give none (the /v1 template default). */
const DEFAULT_DISK_GB = 50;

type ContainerBody = Pick<CreateEndpointRequest, "image" | "args" | "cmd" | "entrypoint" | "disk" | "env" | "ports" | "registry">;
type ContainerSettings = Pick<TemplateRecord, "imageName" | "dockerEntrypoint" | "dockerStartCmd" | "args" | "containerDiskInGb" | "env" | "ports" | "containerRegistryAuthId">;

/**
 * Body fields over a base (a template, or settings already derived); `env` merges per key (body
 * wins). Lists and env are copies: the result goes into a record of its own. No base: the defaults.
 * The command (args, cmd, entrypoint) follows the pods' and templates' rules (command.ts): the
 * endpoint is built on the same container config (management-api-v2-today.md 5.1, 5.3).
 */
function overlay(base: ContainerSettings | undefined, body: ContainerBody): ContainerSettings {
  const baseCommand = { entrypoint: [...(base?.dockerEntrypoint ?? [])], cmd: [...(base?.dockerStartCmd ?? [])] };
  const command = commandChange(body, baseCommand) ?? { dockerEntrypoint: baseCommand.entrypoint, dockerStartCmd: baseCommand.cmd, args: base?.args };
  return {
    imageName: body.image ?? base?.imageName ?? "",
    dockerEntrypoint: command.dockerEntrypoint,
    dockerStartCmd: command.dockerStartCmd,
    args: command.args,
    containerDiskInGb: body.disk ?? base?.containerDiskInGb ?? DEFAULT_DISK_GB,
    env: { ...base?.env, ...body.env },
    ports: body.ports ?? [...(base?.ports ?? [])],
    containerRegistryAuthId: body.registry !== undefined ? body.registry : (base?.containerRegistryAuthId ?? null),
  };
}

/** A template's container settings, copied (or the defaults when there is none). */
function settingsOf(template: TemplateRecord | undefined): ContainerSettings {
  return overlay(template, {});
}

/**
 * management-api-v2-today.md 5.3 (SPEC-0922; PLUGINS breaking-changes item 13): "a pod template on an
 * endpoint → 422, unknown id → 404".
 */
function serverlessTemplate(v: V2Context, account: AccountData, id: string): TemplateRecord {
  const template = usableTemplate(v.ctx, account, id);
  if (!template) throw fieldProblem("templateId", `template ${JSON.stringify(id)} does not exist in this account; list them with GET /api/v2/templates`, 404);
  if (!template.isServerless) {
    throw fieldProblem("templateId", `template ${id} is a pod template (serverless: false); use a template created with serverless: true`, 422);
  }
  return template;
}

/**
 * The GPU selection of a create or of a PATCH that sends `pools` (management-api-v2-today.md 5.3,
 * from SPEC-0922): "400 if an entry is not a GPU type of one of the given pools; upstream also
 * refuses excluding every type in the selection". Exclusions arrive trimmed and unique (schemas.ts).
 */
function checkSelection(pools: readonly string[], excluded: readonly string[]): string[] {
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i] as string;
    if (!GPU_POOLS.has(pool)) throw fieldProblem(`gpu.pools[${i}]`, `unknown GPU pool ${JSON.stringify(pool)}; pools are the \`pool\` of GET /api/v2/catalog/gpus: ${[...GPU_POOLS.keys()].join(", ")}`);
  }
  for (let i = 0; i < excluded.length; i++) {
    const id = excluded[i] as string;
    if (!GPU_TYPES.has(id)) throw fieldProblem(`gpu.excludedTypes[${i}]`, `unknown GPU type ${JSON.stringify(id)}; use the \`id\` of GET /api/v2/catalog/gpus`);
    if (!pools.some((pool) => GPU_POOLS.get(pool)?.includes(id))) {
      throw fieldProblem(`gpu.excludedTypes[${i}]`, `${JSON.stringify(id)} is not a GPU type of the selected pools (${pools.join(", ")}); exclude only types of gpu.pools, or add its pool`);
    }
  }
  const types = gpuTypeIdsOf({ pools, excludedTypes: excluded });
  if (types.length === 0) throw fieldProblem("gpu.excludedTypes", "excludes every GPU type of gpu.pools; exclude fewer types or add a pool");
  // Stored in the record: a copy of its own length (an array grown by push keeps room for 16).
  return types.slice();
}

function checkCpus(cpus: ReadonlyArray<{ id: string; vcpuCount: number }>): { ids: string[]; vcpuCount: number } {
  const seen = new Set<string>();
  for (const [i, cpu] of cpus.entries()) {
    if (!ENDPOINT_CPU_IDS.includes(cpu.id)) throw fieldProblem(`cpu[${i}].id`, `unknown serverless CPU flavor ${JSON.stringify(cpu.id)}; one of ${ENDPOINT_CPU_IDS.join(", ")}`);
    if (!isPowerOfTwo(cpu.vcpuCount)) throw fieldProblem(`cpu[${i}].vcpuCount`, `must be a power of two (2, 4, 8, ...), got ${cpu.vcpuCount}`);
    const key = `${cpu.id}/${cpu.vcpuCount}`;
    if (seen.has(key)) throw fieldProblem(`cpu[${i}]`, `duplicate configuration ${key}`);
    seen.add(key);
  }
  const vcpuCount = cpus[0]?.vcpuCount ?? 2;
  const other = cpus.findIndex((cpu) => cpu.vcpuCount !== vcpuCount);
  if (other !== -1) throw fieldProblem(`cpu[${other}].vcpuCount`, `the emulator runs every CPU configuration of an endpoint at one vCPU count (${vcpuCount}); list one count`);
  return { ids: cpus.map((cpu) => cpu.id), vcpuCount };
}

function checkDataCenters(ids: readonly string[] | undefined): void {
  for (const [i, id] of (ids ?? []).entries()) {
    if (!isDataCenter(id)) throw fieldProblem(`dataCenterIds[${i}]`, `unknown data center ${JSON.stringify(id)}; list them with GET /api/v2/catalog/datacenters`);
  }
}

function checkVolumes(account: AccountData, ids: readonly string[] | undefined): void {
  for (const [i, id] of (ids ?? []).entries()) requireNetworkVolume(account, id, `networkVolumes[${i}]`);
}

function checkScaling(type: EndpointRecord["type"], scaling: EndpointScaling["type"], idleTimeout: number | undefined): void {
  if (type === "LOAD_BALANCER" && scaling !== "REQUEST_COUNT") {
    throw fieldProblem("scaling.type", "load-balancing endpoints scale on REQUEST_COUNT; QUEUE_DELAY is for queue endpoints only");
  }
  if (idleTimeout !== undefined && !usesIdleTimeout(type, scaling)) {
    throw fieldProblem("workers.idleTimeout", "does not apply to queue endpoints scaling on REQUEST_COUNT; leave it out");
  }
}

/**
 * CreateEndpointGpuConfig / UpdateEndpointGpuConfig: "Mutually exclusive with a non-empty
 * allowedCudaVersions (400 if both are sent)"; an explicit `[]` / `""` clears one. The emulator
 * checks the endpoint as the PATCH would leave it (an assumption, emulator/README.md): a floor sent
 * while a set is stored is refused unless the same PATCH clears the set with `[]`.
 */
function checkCuda(allowed: readonly string[] | null | undefined, min: string | null | undefined): void {
  if (allowed && allowed.length > 0 && min) {
    throw fieldProblem("gpu.minCudaVersion", "give either a non-empty gpu.allowedCudaVersions or gpu.minCudaVersion, not both");
  }
}

function checkWorkers(min: number, max: number): void {
  if (min > max) throw fieldProblem("workers.min", `must be <= workers.max (${max}), got ${min}`);
}

function injectPlatformEnv(v: V2Context, env: Record<string, string>): void {
  if (!v.ctx.options.quirks.injectServerlessTemplatePorts) return;
  env.PORT ??= "80";
  env.PORT_HEALTH ??= "80";
}

function boundTemplate(v: V2Context, account: AccountData, endpoint: Pick<EndpointRecord, "id" | "name">, settings: ContainerSettings): TemplateRecord {
  // The settings written out, not spread: a literal whose every key is known is built in one step
  // (a spread in the middle of one adds the keys after it one by one, at run time).
  return {
    id: newId("template", (candidate) => account.templates.has(candidate)),
    accountId: account.accountId,
    createdAtMs: v.ctx.clock.now(),
    name: `${endpoint.name} (endpoint ${endpoint.id})`,
    category: "NVIDIA",
    isPublic: false,
    isServerless: true,
    readme: "",
    volumeInGb: 0,
    volumeMountPath: "/workspace",
    imageName: settings.imageName,
    dockerEntrypoint: settings.dockerEntrypoint,
    dockerStartCmd: settings.dockerStartCmd,
    args: settings.args,
    containerDiskInGb: settings.containerDiskInGb,
    env: settings.env,
    ports: settings.ports,
    containerRegistryAuthId: settings.containerRegistryAuthId,
    boundEndpointId: endpoint.id,
  };
}

/** The new endpoint, and the template bound to it (its answer is built from both). */
function createV2Endpoint(v: V2Context, account: AccountData, body: CreateEndpointRequest): { endpoint: EndpointRecord; template: TemplateRecord } {
  const { ctx } = v;
  if ((body.gpu === undefined) === (body.cpu === undefined)) {
    throw fieldProblem(body.gpu ? "cpu" : "gpu", "supply exactly one of gpu (GPU workers) or cpu (CPU workers)");
  }
  checkScaling(body.type, body.scaling.type, body.workers?.idleTimeout);
  const gpuTypeIds = body.gpu ? checkSelection(body.gpu.pools, body.gpu.excludedTypes ?? []) : [];
  checkCuda(body.gpu?.allowedCudaVersions, body.gpu?.minCudaVersion);
  const cpu = body.cpu ? checkCpus(body.cpu) : undefined;
  checkDataCenters(body.dataCenterIds);
  checkVolumes(account, body.networkVolumes);
  if (body.registry) requireV2Registry(account, body.registry);
  const source = body.templateId ? serverlessTemplate(v, account, body.templateId) : undefined;
  if (!body.image && !source) throw fieldProblem("image", "image is required unless templateId names a template that has one");
  const workersMin = body.workers?.min ?? 0;
  const workersMax = body.workers?.max ?? 3;
  checkWorkers(workersMin, workersMax);
  checkWorkerQuota(ctx, account, { id: "", workersMax });

  const now = ctx.clock.now();
  const id = newId("endpoint", (candidate) => account.endpoints.has(candidate));
  const settings = overlay(source, body);
  injectPlatformEnv(v, settings.env);
  const template = boundTemplate(v, account, { id, name: body.name }, settings);
  if (cpu) template.category = "CPU";
  const endpoint: EndpointRecord = {
    id,
    accountId: account.accountId,
    createdAtMs: now,
    lastActivityMs: now,
    name: body.name,
    templateId: template.id,
    computeType: cpu ? "CPU" : "GPU",
    gpuTypeIds,
    gpuCount: body.gpu?.count ?? 1,
    cpuFlavorIds: cpu?.ids ?? [],
    vcpuCount: cpu?.vcpuCount ?? 2,
    // CreateEndpointRequest.dataCenterIds: "Omit or pass an empty array to let the scheduler
    // choose": stored and answered as [] (no preference), never filled in with a list.
    dataCenterIds: [...(body.dataCenterIds ?? [])],
    allowedCudaVersions: body.gpu?.allowedCudaVersions ?? null,
    minCudaVersion: body.gpu?.minCudaVersion ?? null,
    networkVolumeId: null,
    networkVolumeIds: body.networkVolumes ? [...body.networkVolumes] : null,
    executionTimeoutMs: body.timeout,
    flashboot: body.flashboot !== "OFF",
    flashbootPriority: body.flashboot === "PRIORITY_FLASHBOOT",
    idleTimeout: body.workers?.idleTimeout ?? 10,
    scalerType: body.scaling.type,
    scalerValue: body.scaling.type === "QUEUE_DELAY" ? body.scaling.queueDelay : body.scaling.requestCount,
    workersMin,
    workersMax,
    env: {},
    version: 0,
    type: body.type,
    releases: [newRelease(0, now, [])],
  };
  account.templates.set(template.id, template);
  account.endpoints.set(id, endpoint);
  ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint, template));
  return { endpoint, template };
}

const CONTAINER_FIELDS = ["image", "args", "cmd", "entrypoint", "disk", "env", "ports", "registry", "templateId"] as const;

function updateV2Endpoint(v: V2Context, account: AccountData, endpoint: EndpointRecord, body: UpdateEndpointRequest): EndpointRecord {
  const { ctx } = v;
  const before = v2EndpointView(v, account, endpoint);
  if (body.gpu && endpoint.computeType === "CPU") throw fieldProblem("gpu", "this is a CPU endpoint; the compute family is fixed at create (send cpu, or create a GPU endpoint)");
  if (body.cpu && endpoint.computeType === "GPU") throw fieldProblem("cpu", "this is a GPU endpoint; the compute family is fixed at create (send gpu, or create a CPU endpoint)");
  // The schema refuses excludedTypes without pools (422); the live defect rebuilt the selection on every PATCH.
  const rebuilds = ctx.options.quirks.endpointPatchRebuildsSelection;
  if (rebuilds && endpoint.computeType === "CPU") throw fieldProblem("gpu", "gpuId(s) is required for a gpu endpoint");

  const changes: Partial<EndpointRecord> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.workers?.min !== undefined) changes.workersMin = body.workers.min;
  if (body.workers?.max !== undefined) changes.workersMax = body.workers.max;
  if (body.workers?.idleTimeout !== undefined) changes.idleTimeout = body.workers.idleTimeout;
  if (body.scaling) {
    changes.scalerType = body.scaling.type;
    changes.scalerValue = body.scaling.type === "QUEUE_DELAY" ? body.scaling.queueDelay : body.scaling.requestCount;
  }
  checkScaling(endpoint.type, changes.scalerType ?? endpoint.scalerType, body.workers?.idleTimeout);
  checkWorkers(changes.workersMin ?? endpoint.workersMin, changes.workersMax ?? endpoint.workersMax);
  if (changes.workersMax !== undefined && changes.workersMax > endpoint.workersMax) checkWorkerQuota(ctx, account, { id: endpoint.id, workersMax: changes.workersMax });
  if (body.dataCenterIds !== undefined) {
    checkDataCenters(body.dataCenterIds);
    changes.dataCenterIds = [...body.dataCenterIds];
  }
  if (body.networkVolumes !== undefined) {
    checkVolumes(account, body.networkVolumes);
    changes.networkVolumeId = null;
    changes.networkVolumeIds = [...body.networkVolumes];
  }
  if (body.timeout !== undefined) changes.executionTimeoutMs = body.timeout;
  if (body.flashboot !== undefined) {
    changes.flashboot = body.flashboot !== "OFF";
    changes.flashbootPriority = body.flashboot === "PRIORITY_FLASHBOOT";
  }
  // UpdateEndpointGpuConfig (SPEC-0922, management-api-v2-today.md 5.3 and 6.1 #3): `pools` replaces
  // the selection and clears the exclusions it does not restate; no `pools` leaves both untouched.
  if (rebuilds && !body.gpu?.pools) changes.gpuTypeIds = gpuTypeIdsOf({ pools: selectionOf(endpoint.gpuTypeIds).pools, excludedTypes: [] });
  if (body.gpu) {
    if (body.gpu.pools) changes.gpuTypeIds = checkSelection(body.gpu.pools, body.gpu.excludedTypes ?? []);
    if (body.gpu.count !== undefined) changes.gpuCount = body.gpu.count;
    if (body.gpu.allowedCudaVersions !== undefined) changes.allowedCudaVersions = [...body.gpu.allowedCudaVersions];
    if (body.gpu.minCudaVersion !== undefined) changes.minCudaVersion = body.gpu.minCudaVersion === "" ? null : body.gpu.minCudaVersion;
    checkCuda(changes.allowedCudaVersions ?? endpoint.allowedCudaVersions, changes.minCudaVersion === undefined ? endpoint.minCudaVersion : changes.minCudaVersion);
  }
  if (body.cpu) {
    const cpu = checkCpus(body.cpu);
    changes.cpuFlavorIds = cpu.ids;
    changes.vcpuCount = cpu.vcpuCount;
  }
  let settings: ContainerSettings | undefined;
  if (CONTAINER_FIELDS.some((field) => body[field] !== undefined)) {
    if (body.registry) requireV2Registry(account, body.registry);
    const source = body.templateId ? serverlessTemplate(v, account, body.templateId) : undefined;
    const current = settingsOf(endpointTemplate(ctx, account, endpoint));
    // The template's settings apply as if sent in this body; env (template's merged with the body's)
    // then replaces the endpoint's env, as any PATCH of env does.
    const base = source ? { ...settingsOf(source), env: {} } : { ...current, env: body.env !== undefined ? {} : current.env };
    settings = overlay(base, { ...body, env: { ...source?.env, ...body.env } });
    if (body.env !== undefined || source) injectPlatformEnv(v, settings.env);
  }

  // Everything is checked: apply.
  Object.assign(endpoint, changes, { lastActivityMs: ctx.clock.now() });
  if (settings) {
    const own = account.templates.get(endpoint.templateId);
    if (own?.boundEndpointId === endpoint.id) Object.assign(own, settings);
    else {
      const template = boundTemplate(v, account, endpoint, settings);
      account.templates.set(template.id, template);
      endpoint.templateId = template.id;
    }
  }
  const diff = releaseDiff(before, v2EndpointView(v, account, endpoint));
  if (diff.length > 0) {
    endpoint.version += 1;
    endpoint.releases = [...(endpoint.releases ?? []), newRelease(endpoint.version, ctx.clock.now(), diff)];
  }
  ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  return endpoint;
}

export function v2EndpointOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  const target = (accountId: string, id: string | undefined) => {
    const acct = account(accountId);
    return { acct, endpoint: endpointOf(acct, id ?? "") };
  };
  return [
    defineV2Operation({
      method: "GET",
      path: "/serverless",
      operationId: "listEndpoints",
      tag: TAG,
      scope: "serverless:read",
      summary: "List serverless endpoints",
      query: ListPageQuery,
      response: { status: 200, description: "OK", schemaName: "ListEndpointsResponse" },
      errors: [422],
      handle({ accountId, query: { limit, cursor } }) {
        const acct = account(accountId);
        const page = paginate([...acct.endpoints.values()], byCreation, { operationId: "listEndpoints", accountId, bound: {}, limit, cursor, pageSize: ctx.options.pageSize });
        return { status: 200, body: { endpoints: page.items.map((e) => v2EndpointView(v, acct, e)), pagination: page.pagination } };
      },
    }, { queryProblemStatus: 422 }),
    defineV2Operation({
      method: "POST",
      path: "/serverless",
      operationId: "createEndpoint",
      tag: TAG,
      scope: "serverless:write",
      summary: "Create a serverless endpoint",
      body: CreateEndpointRequest,
      bodyName: "CreateEndpointRequest",
      response: { status: 201, description: "Created", schemaName: "Endpoint" },
      errors: [400, 404, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        const { endpoint, template } = createV2Endpoint(v, acct, body);
        return { status: 201, body: v2EndpointView(v, acct, endpoint, template) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/serverless/{id}",
      operationId: "getEndpoint",
      tag: TAG,
      scope: "serverless:read",
      summary: "Get a serverless endpoint",
      response: { status: 200, description: "OK", schemaName: "Endpoint" },
      errors: [404],
      handle({ accountId, params }) {
        const { acct, endpoint } = target(accountId, params.id);
        return { status: 200, body: v2EndpointView(v, acct, endpoint) };
      },
    }),
    defineV2Operation({
      method: "PATCH",
      path: "/serverless/{id}",
      operationId: "updateEndpoint",
      tag: TAG,
      scope: "serverless:write",
      summary: "Update a serverless endpoint",
      body: UpdateEndpointRequest,
      bodyName: "UpdateEndpointRequest",
      response: { status: 200, description: "OK", schemaName: "Endpoint" },
      errors: [400, 404, 422],
      handle({ accountId, params, body }) {
        const { acct, endpoint } = target(accountId, params.id);
        return { status: 200, body: v2EndpointView(v, acct, updateV2Endpoint(v, acct, endpoint, body)) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/serverless/{id}",
      operationId: "deleteEndpoint",
      tag: TAG,
      scope: "serverless:write",
      summary: "Delete a serverless endpoint",
      response: { status: 204, description: "Deleted. Response has no body." },
      errors: [404],
      handle({ accountId, params }) {
        const { acct, endpoint } = target(accountId, params.id);
        // Workers are terminated by the delete itself (v1 asks for workersMin 0 first).
        removeEndpoint(ctx, accountId, acct, endpoint);
        return { status: 204 };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/serverless/{id}/workers",
      operationId: "listEndpointWorkers",
      tag: TAG,
      scope: "serverless:read",
      summary: "List serverless endpoint workers",
      response: { status: 200, description: "OK", schemaName: "ListEndpointWorkersResponse" },
      errors: [404],
      handle({ accountId, params }) {
        const { acct, endpoint } = target(accountId, params.id);
        const image = endpointTemplate(ctx, acct, endpoint)?.imageName ?? null;
        return { status: 200, body: workersResponse(endpoint, ctx.serverless.workers(endpoint.id), image, ctx.clock.now()) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/serverless/{id}/releases",
      operationId: "listEndpointReleases",
      tag: TAG,
      scope: "serverless:read",
      summary: "List serverless endpoint releases",
      query: ListPageQuery,
      response: { status: 200, description: "OK", schemaName: "ListEndpointReleasesResponse" },
      errors: [404, 422],
      handle({ accountId, params, query: { limit, cursor } }) {
        const { endpoint } = target(accountId, params.id);
        const all = releasesResponse(endpoint, ctx.serverless.workers(endpoint.id));
        // The rollout summary is the endpoint's current state on every page (management-api-v2-today.md 1.3).
        const page = paginate(all.releases, (r) => ({ rank: r.version ?? 0, id: r.id }), {
          operationId: "listEndpointReleases", accountId, bound: { id: endpoint.id }, limit, cursor, pageSize: ctx.options.pageSize,
        });
        return { status: 200, body: { ...all, releases: page.items, pagination: page.pagination } };
      },
    }, { queryProblemStatus: 422 }),
  ];
}
