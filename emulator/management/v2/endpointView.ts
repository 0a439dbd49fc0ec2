/**
 * An endpoint record in the v2 shape: what its workers run (endpoints/releases.ts workerConfig:
 * container settings from its template, `gpu.pools` and `gpu.excludedTypes` from its GPU types),
 * its `requestUrls`, scaling and workers; and its worker and release lists.
 */
import type { z } from "zod";
import type { WorkerView } from "../../serverless/contract";
import type { EndpointRecord, TemplateRecord } from "../../state/model";
import type { Endpoint, ListEndpointWorkersResponse, Worker } from "../../vocabulary/schemas/v2/wire";
import { type ManagementContext, isoTime } from "../context";
import { endpointTemplate } from "../endpoints/container";
import { releasesOf, rolloutOf, workerConfig } from "../endpoints/releases";
import { usesIdleTimeout } from "../endpoints/rules";
import type { V2Context } from "./operation";

function requestUrlsOf(v: V2Context, endpoint: EndpointRecord, env: Readonly<Record<string, string>>): Endpoint["requestUrls"] {
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

/** `template`: the endpoint's template, when the caller holds it already (a create). */
export function v2EndpointView(
  v: V2Context,
  endpoint: EndpointRecord,
  template: TemplateRecord | undefined = endpointTemplate(v.ctx, endpoint),
): Endpoint {
  // What workers run is already in v2's words: the container settings, gpu or cpu, data centers and volumes.
  const { gpu, cpu, dataCenterIds, networkVolumes, ...container } = workerConfig(endpoint, template);
  const view: Endpoint = {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    requestUrls: requestUrlsOf(v, endpoint, container.env),
    ...container,
    workers: usesIdleTimeout(endpoint.type, endpoint.scalerType)
      ? { min: endpoint.workersMin, max: endpoint.workersMax, idleTimeout: endpoint.idleTimeout }
      : { min: endpoint.workersMin, max: endpoint.workersMax },
    scaling:
      endpoint.scalerType === "QUEUE_DELAY"
        ? { type: "QUEUE_DELAY", queueDelay: endpoint.scalerValue }
        : { type: "REQUEST_COUNT", requestCount: endpoint.scalerValue },
    dataCenterIds,
    networkVolumes,
    timeout: endpoint.executionTimeoutMs,
    flashboot: endpoint.flashbootPriority ? "PRIORITY_FLASHBOOT" : endpoint.flashboot ? "FLASHBOOT" : "OFF",
    createdAt: isoTime(endpoint.createdAtMs),
  };
  view.gpu = gpu;
  if (cpu) view.cpu = cpu;
  return view;
}

const STATUS: Readonly<Record<WorkerView["status"], Worker["status"]>> = {
  initializing: "INITIALIZING",
  idle: "IDLE",
  running: "RUNNING",
  unhealthy: "UNHEALTHY",
};

export function workersView(ctx: ManagementContext, endpoint: EndpointRecord): z.infer<typeof ListEndpointWorkersResponse> {
  const image = endpointTemplate(ctx, endpoint)?.imageName ?? null;
  const nowMs = ctx.clock.now();
  const views: Worker[] = ctx.serverless.workers(endpoint.id).map((w) => {
    const started = w.status !== "initializing";
    return {
      id: w.id,
      status: STATUS[w.status],
      isStale: w.version !== undefined && w.version !== endpoint.version,
      version: w.version ?? null,
      gpuCount: endpoint.computeType === "GPU" ? endpoint.gpuCount : 0,
      image,
      uptimeSeconds: started ? Math.max(0, Math.floor((nowMs - w.createdAtMs) / 1000)) : null,
      gpuTypeId: w.gpuTypeId,
      dataCenterId: w.dataCenterId,
      startedAt: started ? isoTime(w.createdAtMs) : null,
    };
  });
  const count = (status: Worker["status"]) => views.filter((w) => w.status === status).length;
  return {
    workers: views,
    summary: {
      running: count("RUNNING"),
      idle: count("IDLE"),
      initializing: count("INITIALIZING"),
      throttled: count("THROTTLED"),
      unhealthy: count("UNHEALTHY"),
      total: views.length,
    },
    endpointVersion: endpoint.version,
  };
}

/** Every release, newest first (the route cuts the page), and the rollout summary. */
export function releasesView(endpoint: EndpointRecord, workers: readonly WorkerView[]) {
  return {
    endpointVersion: endpoint.version,
    rollout: rolloutOf(endpoint, workers),
    releases: releasesOf(endpoint, workers).map((r) => ({
      id: r.id,
      version: r.version,
      source: "MANUAL" as const,
      buildId: null,
      createdByUserId: endpoint.accountId,
      workerCount: r.workerCount,
      createdAt: isoTime(r.createdAtMs),
      diff: r.diff,
    })),
  };
}
