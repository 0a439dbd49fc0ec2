/**
 * An endpoint's workers as the current API reports them: the job API URLs callers reach them at,
 * their states (fresh or stale against the endpoint's version, uptime, the summary by status) and
 * the releases they run, with the rollout (releases.ts).
 */
import type { z } from "zod";
import type { WorkerView } from "../../serverless/contract";
import type { EndpointRecord } from "../../state/model";
import type { Endpoint, ListEndpointWorkersResponse, Worker } from "../../vocabulary/schemas/v2/wire";
import { type ManagementContext, isoTime } from "../context";
import { endpointTemplate } from "./container";
import { releasesOf, rolloutOf } from "./releases";

/** `serverlessUrl`: the job API base (…/v2), known once the server listens. */
export function requestUrlsOf(
  serverlessUrl: string,
  endpoint: EndpointRecord,
  env: Readonly<Record<string, string>>,
): Endpoint["requestUrls"] {
  // The live service serves load-balancing endpoints on a per-endpoint host (https://<id>.<host>/<path>);
  // the emulator keeps them on the job API's path form: {origin}/v2/<id>/<path>.
  const base = `${serverlessUrl}/${endpoint.id}`;
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

const STATUS: Readonly<Record<WorkerView["status"], Worker["status"]>> = {
  initializing: "INITIALIZING",
  idle: "IDLE",
  running: "RUNNING",
  unhealthy: "UNHEALTHY",
};

export function workersOf(ctx: ManagementContext, endpoint: EndpointRecord): z.infer<typeof ListEndpointWorkersResponse> {
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

/** Every release, newest first (a list answers a page of them), and the rollout summary. */
export function releaseListOf(endpoint: EndpointRecord, workers: readonly WorkerView[]) {
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
