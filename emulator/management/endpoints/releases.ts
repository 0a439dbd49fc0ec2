/**
 * Releases. Every change of what an endpoint's workers run is a new endpoint version; the job side
 * replaces workers of older versions as they go idle, so a rollout moves from 0% to 100% on its
 * own over service time. The v2 API lists releases with their diff (GET /serverless/{id}/releases),
 * in its own field names; versions made through /v1, which keeps no history, list an empty diff.
 */
import { isDeepStrictEqual } from "node:util";
import { newId } from "../../ids";
import type { WorkerView } from "../../serverless/contract";
import type { EndpointRecord, EndpointRelease, TemplateRecord } from "../../state/model";
import { CPU_FLAVORS } from "../../vocabulary/catalog";
import { type CommandRecord, commandView } from "../command";
import { selectionOf } from "./selection";
import { workerEnv } from "./spec";

/** What workers run, as the v2 API shows it (and releases record their diffs in). */
export interface WorkerConfig {
  image: string;
  args: string;
  cmd: string[];
  entrypoint: string[];
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  gpu: { pools: string[]; excludedTypes: string[]; count: number; allowedCudaVersions: string[]; minCudaVersion: string | null } | null;
  cpu?: Array<{ id: string; vcpuCount: number; memory: number }>;
  dataCenterIds: string[];
  networkVolumes: string[];
}

/** Fields whose change is a release (their v2 names). */
const RELEASE_FIELDS = ["image", "args", "disk", "env", "ports", "registry", "gpu", "cpu", "dataCenterIds", "networkVolumes"] as const;

/** An endpoint whose template is gone (a /v1 template deleted under it) runs no command. */
const NO_COMMAND: CommandRecord = { dockerEntrypoint: [], dockerStartCmd: [] };

function networkVolumesOf(endpoint: EndpointRecord): string[] {
  const ids = endpoint.networkVolumeId ? [endpoint.networkVolumeId] : [];
  const more = endpoint.networkVolumeIds;
  if (more) for (let i = 0; i < more.length; i++) ids.push(more[i] as string);
  return ids;
}

/** `template`: the endpoint's (undefined: gone). */
export function workerConfig(endpoint: EndpointRecord, template: TemplateRecord | undefined): WorkerConfig {
  const config: WorkerConfig = {
    image: template?.imageName ?? "",
    ...commandView(template ?? NO_COMMAND),
    disk: template?.containerDiskInGb ?? 0,
    env: workerEnv(template, endpoint),
    ports: [...(template?.ports ?? [])],
    registry: template?.containerRegistryAuthId ?? null,
    gpu: null,
    dataCenterIds: [...endpoint.dataCenterIds],
    networkVolumes: networkVolumesOf(endpoint),
  };
  if (endpoint.computeType === "GPU") {
    const { pools, excludedTypes } = selectionOf(endpoint.gpuTypeIds);
    config.gpu = {
      pools,
      excludedTypes,
      count: endpoint.gpuCount,
      allowedCudaVersions: [...(endpoint.allowedCudaVersions ?? [])],
      minCudaVersion: endpoint.minCudaVersion,
    };
  } else {
    config.cpu = endpoint.cpuFlavorIds.map((id) => ({
      id,
      vcpuCount: endpoint.vcpuCount,
      memory: Math.round(endpoint.vcpuCount * (CPU_FLAVORS.get(id)?.ramPerVcpuGb ?? 2)),
    }));
  }
  return config;
}

export function releaseDiff(before: WorkerConfig, after: WorkerConfig): EndpointRelease["diff"] {
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

/** Every version of the endpoint, newest first, with what it changed and how many workers run it. */
export function releasesOf(
  endpoint: EndpointRecord,
  workers: readonly WorkerView[],
): Array<{ id: string; version: number; createdAtMs: number; diff: EndpointRelease["diff"]; workerCount: number }> {
  const recorded = new Map((endpoint.releases ?? []).map((release) => [release.version, release]));
  const releases = [];
  for (let version = endpoint.version; version >= 0; version--) {
    const release = recorded.get(version);
    releases.push({
      id: release?.id ?? `${endpoint.id}-v${version}`,
      version,
      createdAtMs: release?.createdAtMs ?? endpoint.createdAtMs,
      diff: release?.diff ?? [],
      workerCount: workers.filter((w) => w.version === version).length,
    });
  }
  return releases;
}

/** How far the latest version has reached the workers (a rollout in progress while older ones run). */
export function rolloutOf(
  endpoint: EndpointRecord,
  workers: readonly WorkerView[],
): { inProgress: boolean; workersOnLatest: number; workersTotal: number; percentOnLatest: number } {
  const onLatest = workers.filter((w) => w.version === endpoint.version).length;
  return {
    inProgress: workers.some((w) => w.version !== undefined && w.version !== endpoint.version),
    workersOnLatest: onLatest,
    workersTotal: workers.length,
    percentOnLatest: workers.length === 0 ? 0 : Math.floor((100 * onLatest) / workers.length),
  };
}
