/**
 * An endpoint record in the v2 shape. The record is shared with /v1: GPU types are kept as v1's
 * ordered `gpuTypeIds`, from which v2's `gpu.pools` (the pools those types belong to) and
 * `gpu.excludedTypes` (the rest of those pools) are derived, and back (pools minus excluded).
 * Container settings live in the endpoint's template: v2 gives each endpoint its own ("bound")
 * template, so later edits of the template it was made from do not reach it.
 */
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { CPU_FLAVORS } from "../../vocabulary/catalog";
import { type ManagementContext, isoTime } from "../context";
import { workerEnv } from "../endpointSpec";
import { usableTemplate } from "../lookup";
import { GPU_POOLS, poolOf } from "./catalog";
import type { V2Context } from "./operation";
import { type CommandRecord, commandView } from "./command";
import type { Endpoint } from "./wire";

export interface GpuSelection {
  pools: readonly string[];
  excludedTypes: readonly string[];
}

// Both directions run on every create and every answer: plain loops over the (small) catalog
// arrays, with no intermediate arrays, closures or iterators.

/** v1's ordered type list as v2 pools and exclusions (no types listed: every pool). */
export function selectionOf(gpuTypeIds: readonly string[]): { pools: string[]; excludedTypes: string[] } {
  if (gpuTypeIds.length === 0) return { pools: [...GPU_POOLS.keys()], excludedTypes: [] };
  const pools: string[] = [];
  for (let i = 0; i < gpuTypeIds.length; i++) {
    const pool = poolOf(gpuTypeIds[i] as string);
    if (pool !== null && !pools.includes(pool)) pools.push(pool);
  }
  return { pools, excludedTypes: typesOfPoolsExcept(pools, gpuTypeIds) };
}

/** v2 pools minus exclusions as v1's ordered type list (pool order, then the pool's own order). */
export function gpuTypeIdsOf(selection: GpuSelection): string[] {
  return typesOfPoolsExcept(selection.pools, selection.excludedTypes);
}

/** The types of `pools` (pool order, then each pool's own order) that `except` does not list. */
function typesOfPoolsExcept(pools: readonly string[], except: readonly string[]): string[] {
  const types: string[] = [];
  for (let p = 0; p < pools.length; p++) {
    const members = GPU_POOLS.get(pools[p] as string) ?? [];
    for (let i = 0; i < members.length; i++) {
      const id = members[i] as string;
      if (!except.includes(id)) types.push(id);
    }
  }
  return types;
}

export function flashbootOf(endpoint: EndpointRecord): Endpoint["flashboot"] {
  return endpoint.flashbootPriority ? "PRIORITY_FLASHBOOT" : endpoint.flashboot ? "FLASHBOOT" : "OFF";
}

export function networkVolumesOf(endpoint: EndpointRecord): string[] {
  const ids = endpoint.networkVolumeId ? [endpoint.networkVolumeId] : [];
  const more = endpoint.networkVolumeIds;
  if (more) for (let i = 0; i < more.length; i++) ids.push(more[i] as string);
  return ids;
}

/** idleTimeout does not apply to queue endpoints scaling on request count: omitted there. */
export function usesIdleTimeout(type: EndpointRecord["type"], scalerType: EndpointRecord["scalerType"]): boolean {
  return !(type === "QUEUE" && scalerType === "REQUEST_COUNT");
}

export function endpointTemplate(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord): TemplateRecord | undefined {
  return usableTemplate(ctx, account, endpoint.templateId);
}

export function requestUrlsOf(v: V2Context, endpoint: EndpointRecord, env: Readonly<Record<string, string>>): Endpoint["requestUrls"] {
  // The live service serves load-balancing endpoints on a per-endpoint host (https://<id>.<host>/<path>);
  // the emulator keeps them on the job API's path form: {origin}/v2/<id>/<path>.
  const base = `${v.serverlessUrl()}/${endpoint.id}`;
  if (endpoint.type === "LOAD_BALANCER") return { base, health: `${base}${env.HEALTH_CHECK_PATH ?? "/ping"}` };
  return {
    run: `${base}/run`,
    runSync: `${base}/runsync`,
    status: `${base}/status`,
    stream: `${base}/stream`,
    cancel: `${base}/cancel`,
    retry: `${base}/retry`,
    purgeQueue: `${base}/purge-queue`,
    health: `${base}/health`,
  };
}

/** An endpoint whose template is gone (a /v1 template deleted under it) answers no command. */
const NO_COMMAND: CommandRecord = { dockerEntrypoint: [], dockerStartCmd: [] };

/** `template`: the endpoint's template, when the caller holds it already (a create). */
export function v2EndpointView(
  v: V2Context,
  account: AccountData,
  endpoint: EndpointRecord,
  template: TemplateRecord | undefined = endpointTemplate(v.ctx, account, endpoint),
): Endpoint {
  const env = workerEnv(template, endpoint);
  const view: Endpoint = {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    requestUrls: requestUrlsOf(v, endpoint, env),
    image: template?.imageName ?? "",
    ...commandView(template ?? NO_COMMAND),
    disk: template?.containerDiskInGb ?? 0,
    env,
    ports: [...(template?.ports ?? [])],
    registry: template?.containerRegistryAuthId ?? null,
    workers: usesIdleTimeout(endpoint.type, endpoint.scalerType)
      ? { min: endpoint.workersMin, max: endpoint.workersMax, idleTimeout: endpoint.idleTimeout }
      : { min: endpoint.workersMin, max: endpoint.workersMax },
    scaling:
      endpoint.scalerType === "QUEUE_DELAY"
        ? { type: "QUEUE_DELAY", queueDelay: endpoint.scalerValue }
        : { type: "REQUEST_COUNT", requestCount: endpoint.scalerValue },
    dataCenterIds: [...endpoint.dataCenterIds],
    networkVolumes: networkVolumesOf(endpoint),
    timeout: endpoint.executionTimeoutMs,
    flashboot: flashbootOf(endpoint),
    createdAt: isoTime(endpoint.createdAtMs),
  };
  if (endpoint.computeType === "GPU") {
    const { pools, excludedTypes } = selectionOf(endpoint.gpuTypeIds);
    view.gpu = {
      pools,
      excludedTypes,
      count: endpoint.gpuCount,
      allowedCudaVersions: [...(endpoint.allowedCudaVersions ?? [])],
      minCudaVersion: endpoint.minCudaVersion,
    };
  } else {
    view.gpu = null;
    view.cpu = endpoint.cpuFlavorIds.map((id) => ({
      id,
      vcpuCount: endpoint.vcpuCount,
      memory: Math.round(endpoint.vcpuCount * (CPU_FLAVORS.get(id)?.ramPerVcpuGb ?? 2)),
    }));
  }
  return view;
}
