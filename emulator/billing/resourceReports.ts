/**
 * The per-resource billing reports of the service's current API (/api/v2/billing/pods, /serverless,
 * /network-volumes): `{records, metadata}` computed from the same usage ledger as the /v1 reports
 * (reports.ts), so the totals agree; one record per resource per bucket with usage. The window snaps
 * to bucket boundaries: startTime down, endTime up; `lastN` is the last N buckets ending with the
 * current one. Open intervals count up to now (service time).
 */
import { badRequest } from "../http/errors";
import type { AccountData, WorkerUsageInterval } from "../state/model";
import { HOURS_PER_BILLING_MONTH, NETWORK_VOLUME_PRICE_PER_GB_MONTH, roundMoney } from "../vocabulary/catalog";
import type { BucketSize } from "../vocabulary/schemas/billing";
import type { BillingQuery, NetworkVolumeBillingQuery, PodBillingQuery, ServerlessBillingQuery } from "../vocabulary/schemas/v2/requests";
import { bucketStart, bucketsAfter, forEachBucket, isoSeconds, nextBucket } from "./buckets";

const HOUR_MS = 3_600_000;
const DEFAULT_WINDOW_MS = 30 * 86_400_000;
/** 0000-01-01T00:00:00Z: the earliest start RFC 3339 can write, as `startTime` (4-digit years) can give it. */
const EARLIEST_MS = Date.parse("0000-01-01T00:00:00Z");

/**
 * `lastN` buckets reaching back before the year 0: the window's start could not be written in the
 * answer's `metadata.query` (assumption: the reference sets no maximum; emulator/README.md).
 */
function lastNTooFar(lastN: number, size: BucketSize, current: number): Error {
  let most = 1;
  // The largest N that still starts in the year 0 or later: a binary search over the buckets.
  for (let step = 2 ** 52; step >= 1; step /= 2) if (bucketsAfter(current, size, 1 - (most + step)) >= EARLIEST_MS) most += step;
  return badRequest(
    `invalid query parameter lastN: ${lastN} ${size} buckets would start before 0000-01-01T00:00:00Z; ` +
      `give at most ${most}, or a startTime`,
  );
}

export interface Window {
  startMs: number;
  endMs: number;
  bucketSize: BucketSize;
  nowMs: number;
}

export function resolveWindow(query: BillingQuery, nowMs: number): Window {
  const size = query.bucketSize;
  if (query.lastN !== undefined) {
    if (query.startTime !== undefined || query.endTime !== undefined)
      throw badRequest("invalid query parameter lastN: give either lastN or startTime/endTime, not both");
    const current = bucketStart(nowMs, size);
    const startMs = bucketsAfter(current, size, 1 - query.lastN);
    if (!(startMs >= EARLIEST_MS)) throw lastNTooFar(query.lastN, size, current);
    return { startMs, endMs: nextBucket(current, size), bucketSize: size, nowMs };
  }
  const rawEnd = query.endTime ?? nowMs;
  const rawStart = query.startTime ?? rawEnd - DEFAULT_WINDOW_MS;
  if (rawStart > rawEnd)
    throw badRequest(`invalid query parameter startTime: ${isoSeconds(rawStart)} is after endTime ${isoSeconds(rawEnd)}`);
  const endBucket = bucketStart(rawEnd, size);
  return {
    startMs: bucketStart(rawStart, size),
    endMs: endBucket === rawEnd ? rawEnd : nextBucket(endBucket, size),
    bucketSize: size,
    nowMs,
  };
}

export interface Usage<P extends string> {
  id: string;
  part: P;
  perHour: number;
  startMs: number;
  endMs: number | null;
}

export interface Cell<P extends string> {
  bucket: number;
  id: string;
  parts: Partial<Record<P, number>>;
}

/** Splits each interval over the window's buckets and sums per (bucket, resource, part). */
export function accumulate<P extends string>(window: Window, usages: Iterable<Usage<P>>): Array<Cell<P>> {
  const cells = new Map<string, Cell<P>>();
  for (const u of usages) {
    const from = Math.max(u.startMs, window.startMs);
    const to = Math.min(u.endMs ?? window.nowMs, window.endMs, window.nowMs);
    if (!(to > from)) continue;
    forEachBucket(from, to, window.bucketSize, (bucket, overlapMs) => {
      const key = `${bucket}\u0000${u.id}`;
      let cell = cells.get(key);
      if (!cell) {
        cell = { bucket, id: u.id, parts: {} };
        cells.set(key, cell);
      }
      cell.parts[u.part] = (cell.parts[u.part] ?? 0) + (u.perHour * overlapMs) / HOUR_MS;
    });
  }
  return [...cells.values()].sort((a, b) => a.bucket - b.bucket || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Records and totals of `cells`, each record naming its resource in `idField` (none: one record per bucket). */
export function report<P extends string>(
  window: Window,
  cells: Array<Cell<P>>,
  idField: string | undefined,
  parts: Record<string, P | null>,
) {
  const totals: Record<string, number> = { totalAmount: 0 };
  for (const name of Object.keys(parts)) totals[name] = 0;
  const records = cells.map((cell) => {
    const amounts: Record<string, number> = {};
    let total = 0;
    for (const [name, part] of Object.entries(parts)) {
      const value = part === null ? 0 : roundMoney(cell.parts[part] ?? 0);
      amounts[name] = value;
      total += value;
      totals[name] = (totals[name] ?? 0) + value;
    }
    totals.totalAmount = (totals.totalAmount ?? 0) + total;
    return {
      startTime: isoSeconds(cell.bucket),
      endTime: isoSeconds(nextBucket(cell.bucket, window.bucketSize)),
      ...(idField === undefined ? {} : { [idField]: cell.id }),
      totalAmount: roundMoney(total),
      ...amounts,
    };
  });
  for (const key of Object.keys(totals)) totals[key] = roundMoney(totals[key] ?? 0);
  return { records, totals, unique: new Set(cells.map((cell) => cell.id)).size };
}

export function queryEcho(window: Window) {
  return { startTime: isoSeconds(window.startMs), endTime: isoSeconds(window.endMs), bucketSize: window.bucketSize };
}

export function* podUsage(account: AccountData, podId: string | undefined): Iterable<Usage<"gpu" | "cpu">> {
  for (const u of account.ledger.pods) {
    // A cluster's members are billed as the cluster's (clusterReport.ts), not as pods.
    if (u.clusterId !== undefined || (podId !== undefined && u.podId !== podId)) continue;
    yield { id: u.podId, part: u.gpuTypeId !== null ? "gpu" : "cpu", perHour: u.costPerHr, startMs: u.startMs, endMs: u.endMs };
  }
}

export function* workerUsage(usage: Iterable<WorkerUsageInterval>, serverlessId: string | undefined): Iterable<Usage<"gpu" | "cpu">> {
  for (const u of usage) {
    if (serverlessId !== undefined && u.endpointId !== serverlessId) continue;
    yield { id: u.endpointId, part: u.gpuTypeId !== null ? "gpu" : "cpu", perHour: u.costPerHr, startMs: u.startMs, endMs: u.endMs };
  }
}

export function* volumeUsage(account: AccountData, volumeId: string | undefined): Iterable<Usage<"standard" | "highPerformance">> {
  const perGbHour = NETWORK_VOLUME_PRICE_PER_GB_MONTH / HOURS_PER_BILLING_MONTH;
  for (const u of account.ledger.volumes) {
    if (volumeId !== undefined && u.volumeId !== volumeId) continue;
    const tier = account.networkVolumes.get(u.volumeId)?.type === "HIGH_PERFORMANCE" ? "highPerformance" : "standard";
    yield { id: u.volumeId, part: tier, perHour: u.sizeGb * perGbHour, startMs: u.startMs, endMs: u.endMs };
  }
}

export function podReport(account: AccountData, query: PodBillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate(window, podUsage(account, query.podId)), "podId", {
    gpuAmount: "gpu",
    cpuAmount: "cpu",
    diskAmount: null,
  });
  const metadata = {
    query: { ...queryEcho(window), podId: query.podId ?? null },
    recordCount: r.records.length,
    uniquePodCount: r.unique,
    totals: r.totals,
  };
  return { records: r.records, metadata };
}

/** `usage`: every worker interval of the account, the ones of workers still up counted to now. */
export function serverlessReport(usage: Iterable<WorkerUsageInterval>, query: ServerlessBillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate(window, workerUsage(usage, query.serverlessId)), "serverlessId", {
    gpuAmount: "gpu",
    cpuAmount: "cpu",
    diskAmount: null,
    feeAmount: null,
  });
  const metadata = {
    query: { ...queryEcho(window), serverlessId: query.serverlessId ?? null },
    recordCount: r.records.length,
    uniqueServerlessCount: r.unique,
    totals: r.totals,
  };
  return { records: r.records, metadata };
}

export function networkVolumeReport(account: AccountData, query: NetworkVolumeBillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate(window, volumeUsage(account, query.networkVolumeId)), "networkVolumeId", {
    standardAmount: "standard",
    highPerformanceAmount: "highPerformance",
  });
  const metadata = {
    query: { ...queryEcho(window), networkVolumeId: query.networkVolumeId ?? null },
    recordCount: r.records.length,
    uniqueNetworkVolumeCount: r.unique,
    totals: r.totals,
  };
  return { records: r.records, metadata };
}
