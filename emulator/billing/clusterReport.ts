/**
 * /api/v2/billing/clusters (listClusterBilling): "records are emitted per cluster per bucket. Each
 * record includes GPU compute, disk, inter-node networking, and total amounts. Clusters are
 * GPU-only, so no CPU cost component is returned." Computed from the same pod intervals as the pod
 * report (resourceReports.ts), those of member pods (`clusterId` set when the member's interval
 * opened), so every member pod is billed, and billed once: the pod report leaves them out.
 * Disk and networking are 0: the emulator bills neither (emulator README, "Clusters: assumptions").
 */
import type { AccountData } from "../state/model";
import type { ClusterBillingQuery } from "../vocabulary/schemas/v2/clusters";
import { accumulate, queryEcho, report, resolveWindow, type Usage } from "./resourceReports";

/** The member pods' intervals of one cluster, or (undefined) of every cluster, each under its cluster's id. */
export function* clusterUsage(account: AccountData, clusterId: string | undefined): Iterable<Usage<"gpu">> {
  for (const u of account.ledger.pods) {
    if (u.clusterId === undefined || (clusterId !== undefined && u.clusterId !== clusterId)) continue;
    yield { id: u.clusterId, part: "gpu", perHour: u.costPerHr, startMs: u.startMs, endMs: u.endMs };
  }
}

export function clusterReport(account: AccountData, query: ClusterBillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate(window, clusterUsage(account, query.clusterId)), "clusterId", {
    gpuAmount: "gpu",
    diskAmount: null,
    networkingAmount: null,
  });
  const metadata = {
    query: { ...queryEcho(window), clusterId: query.clusterId ?? null },
    recordCount: r.records.length,
    uniqueClusterCount: r.unique,
    totals: r.totals,
  };
  return { records: r.records, metadata };
}
