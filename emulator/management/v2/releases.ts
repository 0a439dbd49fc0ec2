/**
 * Releases and rollouts. Every change of what workers run (container settings, GPUs/CPUs, data
 * centers, volumes) is a new endpoint version; the job side replaces workers of older versions as
 * they go idle, so the rollout summary moves from 0% to 100% on its own over service time.
 * Versions made through /v1 (which keeps no history) are listed with an empty diff.
 */
import { isDeepStrictEqual } from "node:util";
import type { WorkerView } from "../../serverless/contract";
import type { EndpointRecord, EndpointRelease } from "../../state/model";
import { isoTime } from "../context";
import { newId } from "../../ids";
import type { Endpoint, Worker } from "./wire";
import type { z } from "zod";
import type { ListEndpointReleasesResponse, ListEndpointWorkersResponse } from "./wire";

/** Endpoint fields (v2 names) whose change is a release. */
export const RELEASE_FIELDS = ["image", "args", "disk", "env", "ports", "registry", "gpu", "cpu", "dataCenterIds", "networkVolumes"] as const;

export function releaseDiff(before: Endpoint, after: Endpoint): EndpointRelease["diff"] {
  const diff: EndpointRelease["diff"] = [];
  for (const field of RELEASE_FIELDS) {
    const old = before[field] ?? null;
    const next = after[field] ?? null;
    if (!isDeepStrictEqual(old, next)) diff.push({ field, old, new: next });
  }
  return diff;
}

export function newRelease(version: number, nowMs: number, diff: EndpointRelease["diff"]): EndpointRelease {
  return { id: newId("endpoint", () => false), version, createdAtMs: nowMs, diff };
}

const STATUS: Readonly<Record<WorkerView["status"], Worker["status"]>> = {
  initializing: "INITIALIZING",
  idle: "IDLE",
  running: "RUNNING",
  unhealthy: "UNHEALTHY",
};

export function workersResponse(
  endpoint: EndpointRecord,
  workers: readonly WorkerView[],
  image: string | null,
  nowMs: number,
): z.infer<typeof ListEndpointWorkersResponse> {
  const views: Worker[] = workers.map((w) => {
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

/** Every release of the endpoint, newest first, and the rollout summary; the route cuts the page. */
export function releasesResponse(endpoint: EndpointRecord, workers: readonly WorkerView[]): Omit<z.infer<typeof ListEndpointReleasesResponse>, "pagination"> {
  const recorded = new Map((endpoint.releases ?? []).map((release) => [release.version, release]));
  const releases = [];
  for (let version = endpoint.version; version >= 0; version--) {
    const release = recorded.get(version);
    releases.push({
      id: release?.id ?? `${endpoint.id}-v${version}`,
      version,
      source: "MANUAL" as const,
      buildId: null,
      createdByUserId: endpoint.accountId,
      workerCount: workers.filter((w) => w.version === version).length,
      createdAt: isoTime(release?.createdAtMs ?? endpoint.createdAtMs),
      diff: release?.diff ?? [],
    });
  }
  const onLatest = workers.filter((w) => w.version === endpoint.version).length;
  return {
    endpointVersion: endpoint.version,
    rollout: {
      inProgress: workers.some((w) => w.version !== undefined && w.version !== endpoint.version),
      workersOnLatest: onLatest,
      workersTotal: workers.length,
      percentOnLatest: workers.length === 0 ? 0 : Math.floor((100 * onLatest) / workers.length),
    },
    releases,
  };
}
