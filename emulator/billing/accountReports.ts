/**
 * The account-wide billing reports of the service's current API: GET /api/v2/billing (listBilling,
 * "time-bucketed total spend across all billable [...] resources", one record per bucket with every
 * family's components) and GET /api/v2/billing/endpoints (listEndpointBilling, public endpoint
 * spend). Both are computed from the same usage as the per-resource reports (resourceReports.ts),
 * with the same window rules, so the aggregate's pod, serverless and storage components equal the
 * per-resource totals over the same window (to the micro-dollar both round to), and so are its
 * cluster components those of /billing/clusters (clusterReport.ts). Only buckets with usage are returned, oldest first, and
 * the work is bounded by the usage recorded, not by the window asked for.
 *
 * What the emulator bills nothing for (emulator README, "v2 operations added: assumptions"): pod and
 * serverless disk and the serverless fee (as the per-resource reports; the fee is "deprecated,
 * always 0", management-api-v2-today.md 5.5), public endpoints (it hosts none), and a cluster's
 * disk and networking (as /billing/clusters), so those components are 0.
 */
import type { AccountData, WorkerUsageInterval } from "../state/model";
import type { BillingQuery } from "../vocabulary/schemas/v2/requests";
import { BILLING_AMOUNT_FIELDS, type BillingAmountField } from "../vocabulary/schemas/v2/wire";
import { clusterUsage } from "./clusterReport";
import { type Usage, accumulate, podUsage, queryEcho, report, resolveWindow, volumeUsage, workerUsage } from "./resourceReports";

type Component = Exclude<BillingAmountField, "totalAmount">;

/** Every usage of the account as one group per bucket, each charged to its aggregate component. */
function* accountUsage(account: AccountData, workers: Iterable<WorkerUsageInterval>): Iterable<Usage<Component>> {
  for (const u of podUsage(account, undefined)) yield { ...u, id: "", part: u.part === "gpu" ? "podGpuAmount" : "podCpuAmount" };
  for (const u of workerUsage(workers, undefined))
    yield { ...u, id: "", part: u.part === "gpu" ? "serverlessGpuAmount" : "serverlessCpuAmount" };
  for (const u of volumeUsage(account, undefined))
    yield { ...u, id: "", part: u.part === "standard" ? "storageStandardAmount" : "storageHighPerformanceAmount" };
  for (const u of clusterUsage(account, undefined)) yield { ...u, id: "", part: "clusterGpuAmount" };
}

const COMPONENTS = Object.fromEntries(
  BILLING_AMOUNT_FIELDS.filter((field): field is Component => field !== "totalAmount").map((field) => [field, field]),
) as Record<Component, Component>;

/** listBilling: `workers` is every worker interval of the account, the ones of workers still up counted to now. */
export function accountReport(account: AccountData, workers: Iterable<WorkerUsageInterval>, query: BillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate(window, accountUsage(account, workers)), undefined, COMPONENTS);
  return { records: r.records, metadata: { query: queryEcho(window), recordCount: r.records.length, totals: r.totals } };
}

/** listEndpointBilling: the emulator hosts no public endpoints, so no bucket has usage; the window is still checked and echoed. */
export function publicEndpointReport(query: BillingQuery, nowMs: number) {
  const window = resolveWindow(query, nowMs);
  const r = report(window, accumulate<never>(window, []), undefined, {});
  return { records: r.records, metadata: { query: queryEcho(window), recordCount: r.records.length, totals: r.totals } };
}
