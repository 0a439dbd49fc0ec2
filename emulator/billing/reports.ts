/**
 * The three billing reports, computed from the usage ledger: each interval is clipped to the
 * requested window, split over UTC buckets and summed per (bucket, group). Only buckets with
 * usage are returned, oldest first.
 */
import { badRequest } from "../http/errors";
import type { Ledger, WorkerUsageInterval } from "../state/model";
import { HOURS_PER_BILLING_MONTH, NETWORK_VOLUME_PRICE_PER_GB_MONTH, roundMoney } from "../vocabulary/catalog";
import type { BucketSize } from "../vocabulary/schemas/billing";
import { forEachBucket, isoSeconds } from "./buckets";

const HOUR_MS = 3_600_000;

export interface BillingWindow {
  startMs: number;
  endMs: number;
  bucketSize: BucketSize;
  /** Open intervals are counted up to this service time. */
  nowMs: number;
}

/** Default window when startTime is not given: the 30 days before endTime. */
const DEFAULT_WINDOW_MS = 30 * 86_400_000;

/** The window a /v1 report query asks for: its start and end (default: the 30 days up to now), 400 when they are reversed. */
export function windowOf(
  query: { startTime?: number | undefined; endTime?: number | undefined; bucketSize: BucketSize },
  nowMs: number,
): BillingWindow {
  const endMs = query.endTime ?? nowMs;
  const startMs = query.startTime ?? endMs - DEFAULT_WINDOW_MS;
  if (startMs > endMs) {
    throw badRequest(`invalid query parameter startTime: startTime (${isoSeconds(startMs)}) is after endTime (${isoSeconds(endMs)})`);
  }
  return { startMs, endMs, bucketSize: query.bucketSize, nowMs };
}

export type PodGrouping = "podId" | "gpuTypeId";
export type EndpointGrouping = "endpointId" | "podId" | "gpuTypeId";

export interface PodBillingQuery extends BillingWindow {
  grouping: PodGrouping;
  podId?: string | undefined;
  gpuTypeId?: string | undefined;
}

export interface EndpointBillingQuery extends BillingWindow {
  grouping: EndpointGrouping;
  endpointId?: string | undefined;
  gpuTypeIds?: string[] | undefined;
  dataCenterIds?: string[] | undefined;
  imageName?: string | undefined;
  templateId?: string | undefined;
}

export interface BillingRecord {
  amount: number;
  diskSpaceBilledGb: number;
  endpointId?: string;
  gpuTypeId?: string;
  podId?: string;
  time: string;
  timeBilledMs: number;
}

export interface NetworkVolumeBillingRecord {
  amount: number;
  diskSpaceBilledGb: number;
  highPerformanceStorageAmount: number;
  highPerformanceStorageDiskSpaceBilledGb: number;
  time: string;
}

interface Cell {
  bucket: number;
  group: string;
  amount: number;
  ms: number;
  /** Largest disk size seen per resource in this bucket. */
  disk: Map<string, number>;
}

class Accumulator {
  private readonly cells = new Map<string, Cell>();

  constructor(private readonly window: BillingWindow) {}

  /** Adds an interval charged at `perHour` credits per hour. */
  add(group: string, resourceId: string, diskGb: number, startMs: number, endMs: number | null, perHour: number): void {
    const from = Math.max(startMs, this.window.startMs);
    const to = Math.min(endMs ?? this.window.nowMs, this.window.endMs);
    if (!(to > from)) return;
    forEachBucket(from, to, this.window.bucketSize, (bucket, overlapMs) => {
      const key = `${bucket}\u0000${group}`;
      let cell = this.cells.get(key);
      if (!cell) {
        cell = { bucket, group, amount: 0, ms: 0, disk: new Map() };
        this.cells.set(key, cell);
      }
      cell.amount += (perHour * overlapMs) / HOUR_MS;
      cell.ms += overlapMs;
      cell.disk.set(resourceId, Math.max(cell.disk.get(resourceId) ?? 0, diskGb));
    });
  }

  sorted(): Cell[] {
    return [...this.cells.values()].sort((a, b) => a.bucket - b.bucket || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  }
}

function diskTotal(cell: Cell): number {
  let total = 0;
  for (const gb of cell.disk.values()) total += gb;
  return Math.round(total);
}

function record(cell: Cell, groupField: "podId" | "gpuTypeId" | "endpointId"): BillingRecord {
  return {
    amount: roundMoney(cell.amount),
    diskSpaceBilledGb: diskTotal(cell),
    [groupField]: cell.group,
    time: isoSeconds(cell.bucket),
    timeBilledMs: Math.round(cell.ms),
  };
}

/** CPU pods and workers are grouped under their CPU flavor (or "CPU") when grouping by GPU type. */
function gpuGroup(gpuTypeId: string | null, cpuFlavorId: string | null): string {
  return gpuTypeId ?? cpuFlavorId ?? "CPU";
}

export function podBilling(ledger: Ledger, query: PodBillingQuery): BillingRecord[] {
  const acc = new Accumulator(query);
  for (const usage of ledger.pods) {
    if (query.podId !== undefined && usage.podId !== query.podId) continue;
    if (query.gpuTypeId !== undefined && usage.gpuTypeId !== query.gpuTypeId) continue;
    const group = query.grouping === "podId" ? usage.podId : gpuGroup(usage.gpuTypeId, usage.cpuFlavorId);
    acc.add(group, usage.podId, usage.diskGb, usage.startMs, usage.endMs, usage.costPerHr);
  }
  return acc.sorted().map((cell) => record(cell, query.grouping));
}

/** `workers`: every worker interval of the account, the ones of workers still up counted to now. */
export function endpointBilling(workers: Iterable<WorkerUsageInterval>, query: EndpointBillingQuery): BillingRecord[] {
  const acc = new Accumulator(query);
  for (const usage of workers) {
    if (query.endpointId !== undefined && usage.endpointId !== query.endpointId) continue;
    if (query.imageName !== undefined && usage.imageName !== query.imageName) continue;
    if (query.templateId !== undefined && usage.templateId !== query.templateId) continue;
    if (query.gpuTypeIds && !query.gpuTypeIds.includes(usage.gpuTypeId ?? "")) continue;
    if (query.dataCenterIds && !query.dataCenterIds.includes(usage.dataCenterId)) continue;
    const group =
      query.grouping === "endpointId" ? usage.endpointId : query.grouping === "podId" ? usage.workerId : gpuGroup(usage.gpuTypeId, null);
    acc.add(group, usage.workerId, 0, usage.startMs, usage.endMs, usage.costPerHr);
  }
  return acc.sorted().map((cell) => record(cell, query.grouping));
}

export function networkVolumeBilling(ledger: Ledger, query: BillingWindow): NetworkVolumeBillingRecord[] {
  const acc = new Accumulator(query);
  const perGbHour = NETWORK_VOLUME_PRICE_PER_GB_MONTH / HOURS_PER_BILLING_MONTH;
  for (const usage of ledger.volumes) {
    acc.add("", usage.volumeId, usage.sizeGb, usage.startMs, usage.endMs, usage.sizeGb * perGbHour);
  }
  return acc.sorted().map((cell) => ({
    amount: roundMoney(cell.amount),
    diskSpaceBilledGb: diskTotal(cell),
    highPerformanceStorageAmount: 0,
    highPerformanceStorageDiskSpaceBilledGb: 0,
    time: isoSeconds(cell.bucket),
  }));
}
