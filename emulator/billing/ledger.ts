/**
 * Usage accrual: what ran, when, at what price. Pods accrue while RUNNING (one interval per
 * run, closed on stop/delete), network volumes accrue per size held (closed on resize/delete),
 * serverless workers arrive as closed intervals from the job side. Reports (reports.ts) are
 * computed from these intervals, so billing always matches what actually ran.
 */
import type { WorkerUsage } from "../serverless/contract";
import type { AccountData, NetworkVolumeRecord, PodRecord, PodUsageInterval, VolumeUsageInterval } from "../state/model";

export function openPodUsage(account: AccountData, pod: PodRecord, nowMs: number): void {
  closeUsage(account, pod.id, nowMs);
  const interval: PodUsageInterval = {
    podId: pod.id,
    gpuTypeId: pod.gpuTypeId,
    cpuFlavorId: pod.cpuFlavorId,
    dataCenterId: pod.dataCenterId,
    costPerHr: pod.costPerHr,
    diskGb: pod.containerDiskInGb + pod.volumeInGb,
    startMs: nowMs,
    endMs: null,
  };
  if (pod.cluster) interval.clusterId = pod.cluster.id;
  account.ledger.pods.push(interval);
  account.openIntervals.set(pod.id, interval);
}

export function openVolumeUsage(account: AccountData, volume: NetworkVolumeRecord, nowMs: number): void {
  closeUsage(account, volume.id, nowMs);
  const interval: VolumeUsageInterval = {
    volumeId: volume.id,
    dataCenterId: volume.dataCenterId,
    sizeGb: volume.size,
    startMs: nowMs,
    endMs: null,
  };
  account.ledger.volumes.push(interval);
  account.openIntervals.set(volume.id, interval);
}

/** Closes the open interval of a pod or volume, if any. */
export function closeUsage(account: AccountData, resourceId: string, nowMs: number): void {
  const open = account.openIntervals.get(resourceId);
  if (!open) return;
  open.endMs = Math.max(open.startMs, nowMs);
  account.openIntervals.delete(resourceId);
}

export function recordWorkerUsage(account: AccountData, usage: WorkerUsage): void {
  if (!(usage.endMs >= usage.startMs) || !Number.isFinite(usage.costPerHr)) return;
  account.ledger.workers.push({
    endpointId: usage.endpointId,
    workerId: usage.workerId,
    templateId: usage.templateId,
    imageName: usage.imageName,
    gpuTypeId: usage.gpuTypeId,
    dataCenterId: usage.dataCenterId,
    costPerHr: usage.costPerHr,
    startMs: usage.startMs,
    endMs: usage.endMs,
  });
}

/** Rebuilds the open-interval index after a load (the index itself is not persisted). */
export function indexOpenIntervals(account: AccountData): void {
  account.openIntervals.clear();
  for (const interval of account.ledger.pods) if (interval.endMs === null) account.openIntervals.set(interval.podId, interval);
  for (const interval of account.ledger.volumes) if (interval.endMs === null) account.openIntervals.set(interval.volumeId, interval);
}
