/**
 * The account's limits (`GET /api/v2/account/limits`): the hourly spend cap, checked whenever a pod
 * or serverless worker starts, and the serverless worker quota, the largest sum of `workersMax` over
 * the account's endpoints. The reference documents what each limit means and the $80/hour default
 * cap; how a refusal is answered is the emulator's assumption (emulator README, "Account limits").
 */
import type { AccountData, EndpointRecord } from "../../state/model";
import type { ManagementContext } from "../context";
import { Refusal } from "../errors";

type LimitsContext = Pick<ManagementContext, "store" | "serverless" | "options">;

/** Status of a start refused by the spend cap: 402 (see the README for why not 400 or 429). */
export const SPEND_CAP_STATUS = 402;

/** USD per hour of everything of the account that runs now: RUNNING pods and live workers. */
export function runningCostPerHour(ctx: LimitsContext, account: AccountData): number {
  let total = 0;
  for (const pod of account.pods.values()) if (pod.desiredStatus === "RUNNING") total += pod.costPerHr;
  for (const endpoint of account.endpoints.values()) {
    for (const worker of ctx.serverless.workers(endpoint.id)) if (worker.status !== "unhealthy") total += worker.costPerHr;
  }
  return roundCents(total);
}

/**
 * Why `what` (costing `perHour`) may not start now, or undefined when it may: the hourly cost of
 * everything running plus the newcomer must not exceed the cap.
 */
export function spendCapRefusal(ctx: LimitsContext, account: AccountData, perHour: number, what: string): string | undefined {
  const cap = ctx.options.spendCapPerHour;
  const running = runningCostPerHour(ctx, account);
  if (running + perHour <= cap + 1e-9) return undefined;
  return (
    `spend cap exceeded: starting ${what} (${usd(perHour)}/hour) would take the account's running cost from ${usd(running)}/hour ` +
    `to ${usd(roundCents(running + perHour))}/hour, over its spend cap of ${usd(cap)}/hour (spendRate, GET /api/v2/account/limits); ` +
    "stop or delete something that runs, or ask for a higher cap"
  );
}

/** Refuses a pod start (create that starts, start, restart) over the spend cap. */
export function checkSpendCap(ctx: LimitsContext, account: AccountData, perHour: number, what: string): void {
  const refusal = spendCapRefusal(ctx, account, perHour, what);
  if (refusal !== undefined) throw new Refusal(SPEND_CAP_STATUS, refusal);
}

/**
 * Sum of workersMax over each account's endpoints, kept up to date by the only code that adds,
 * changes or removes endpoints (endpoints/records.ts), so that a quota check costs no walk over
 * thousands of endpoints. Counted from the records on first use (e.g. after a restore).
 */
const workersMaxTotals = new WeakMap<AccountData, number>();

export function workersMaxTotal(account: AccountData): number {
  let total = workersMaxTotals.get(account);
  if (total === undefined) {
    total = 0;
    for (const endpoint of account.endpoints.values()) total += endpoint.workersMax;
    workersMaxTotals.set(account, total);
  }
  return total;
}

/** An endpoint's workersMax went from `before` to `after` (0 for an endpoint added or removed). */
export function workersMaxChanged(account: AccountData, before: number, after: number): void {
  const total = workersMaxTotals.get(account);
  if (total !== undefined) workersMaxTotals.set(account, total - before + after);
}

/** Sum of workersMax over the account's endpoints, with `changed` standing for its stored version (or added). */
export function workersMaxSum(account: AccountData, changed: { id: string; workersMax: number }): number {
  return workersMaxTotal(account) - (account.endpoints.get(changed.id)?.workersMax ?? 0) + changed.workersMax;
}

/** A 400 when an endpoint create or update would take the sum of workersMax over the quota. */
export function checkWorkerQuota(ctx: LimitsContext, account: AccountData, changed: Pick<EndpointRecord, "id" | "workersMax">): void {
  const quota = ctx.options.serverlessWorkerQuota;
  const sum = workersMaxSum(account, changed);
  if (sum <= quota) return;
  const detail =
    `the serverless worker quota is exceeded: the sum of workers.max over the account's endpoints would be ${sum} ` +
    `(this endpoint ${changed.workersMax}), over the quota of ${quota} (serverlessWorkers, GET /api/v2/account/limits); ` +
    "lower workers.max here or on another endpoint, or ask for a higher quota";
  throw new Refusal(400, detail, [`invalid workers.max: ${changed.workersMax} takes the sum to ${sum}, over the quota of ${quota}`]);
}

/** The `GET /api/v2/account/limits` body (inner fields are the emulator's assumption, see the README). */
export function limitsView(
  ctx: LimitsContext,
  account: AccountData,
): {
  spendRate: { limit: number; current: number };
  serverlessWorkers: { limit: number; current: number };
} {
  return {
    spendRate: { limit: ctx.options.spendCapPerHour, current: runningCostPerHour(ctx, account) },
    serverlessWorkers: { limit: ctx.options.serverlessWorkerQuota, current: workersMaxTotal(account) },
  };
}

function roundCents(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}
