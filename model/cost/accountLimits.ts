// The stack against the account's limits (management-api-v2-today.md section 3), before anything
// is created: the sum of workersMax over the stack's endpoints plus the account's other endpoints
// against the serverless worker quota, and the stack's always-on rate against the hourly spend cap.
// Over a cap is a failure naming the cap, the figure and what uses most; within 10% of it, a
// warning. Pure: the provider reads the limits and the account's endpoints
// (provider/cost/summaryProvider.ts).

import { roundUsd } from "./usd";
import type { CostSummary } from "./summary";

/** A warning starts at this share of a cap. */
export const NEAR_CAP_SHARE = 0.9;

/** workersMax the service assumes for an endpoint that declares none (v2). */
export const DEFAULT_WORKERS_MAX = 3;

/** One of the stack's endpoints as the report sees it: `id` undefined until it exists. */
export interface StackEndpoint {
  name: string;
  id: string | undefined;
  /** undefined: not declared (the service's default applies). */
  workersMax: number | undefined;
}

/** The caps the account reports (either may be absent: the answer's inner fields are unverified). */
export interface AccountCaps {
  spendPerHour: number | undefined;
  serverlessWorkers: number | undefined;
}

/** An endpoint of the account: id and workersMax. */
export interface AccountEndpoint {
  id: string;
  name?: string | undefined;
  workersMax?: number | undefined;
}

export interface LimitFindings {
  failures: string[];
  warnings: string[];
}

const SOURCE = "GET /v2/account/limits";

export function checkAccountLimits(input: {
  summary: CostSummary;
  stackEndpoints: readonly StackEndpoint[];
  accountEndpoints: readonly AccountEndpoint[];
  caps: AccountCaps;
}): LimitFindings {
  const findings: LimitFindings = { failures: [], warnings: [] };
  workerQuota(findings, input.stackEndpoints, input.accountEndpoints, input.caps.serverlessWorkers);
  spendCap(findings, input.summary, input.caps.spendPerHour);
  return findings;
}

function workerQuota(
  findings: LimitFindings,
  stack: readonly StackEndpoint[],
  account: readonly AccountEndpoint[],
  quota: number | undefined,
): void {
  if (quota === undefined) return;
  const own = new Set(stack.map((e) => e.id).filter((id): id is string => id !== undefined));
  const others = account.filter((e) => !own.has(e.id));
  const othersSum = others.reduce((sum, e) => sum + (e.workersMax ?? 0), 0);
  const ranked = stack.map((e) => ({ name: e.name, workers: e.workersMax ?? DEFAULT_WORKERS_MAX })).sort((a, b) => b.workers - a.workers);
  const stackSum = ranked.reduce((sum, e) => sum + e.workers, 0);
  const total = stackSum + othersSum;
  const figure =
    `the sum of workersMax over the account's endpoints would be ${total} (this stack's ${stack.length} endpoint(s): ${stackSum}; ` +
    `the account's ${others.length} other endpoint(s): ${othersSum})`;
  const most = [
    ...ranked.slice(0, 3).map((e) => `${e.name} (${e.workers})`),
    ...(othersSum > 0 ? [`the other endpoints of the account (${othersSum})`] : []),
  ];
  if (total > quota) {
    findings.failures.push(
      `over the account's serverless worker quota: ${figure}, over its quota of ${quota} (serverlessWorkers, ${SOURCE}). ` +
        `Using most: ${most.join(", ")}. Lower workersMax, delete endpoints the account no longer needs, or ask the service for a higher quota.`,
    );
  } else if (total >= quota * NEAR_CAP_SHARE && total > 0) {
    findings.warnings.push(
      `near the account's serverless worker quota: ${figure}, within 10% of its quota of ${quota} (serverlessWorkers, ${SOURCE}). Using most: ${most.join(", ")}.`,
    );
  }
}

function spendCap(findings: LimitFindings, summary: CostSummary, cap: number | undefined): void {
  if (cap === undefined) return;
  const figure = summary.perHour;
  const dearest = [...summary.ranked]
    .filter((r) => r.perHour > 0)
    .sort((a, b) => b.perHour - a.perHour)
    .slice(0, 3)
    .map((r) => `${r.name} (${r.perHour} USD/hour)`);
  const unpriced = summary.unpriced.length > 0 ? ` Not priced, so not counted: ${summary.unpriced.join("; ")}.` : "";
  const what = `this stack's always-on estimate is ${figure} USD/hour (running pods and endpoints' workersMin workers)`;
  if (figure > cap) {
    findings.failures.push(
      `over the account's hourly spend cap: ${what}, over its cap of ${roundUsd(cap)} USD/hour (spendRate, ${SOURCE}), which the service enforces ` +
        `whenever a pod or worker starts, counting everything of the account that runs. Costing most: ${dearest.join(", ")}.${unpriced} ` +
        "Reduce these (fewer or smaller pods, lower workersMin), stop what else runs in the account, or ask the service for a higher cap.",
    );
  } else if (figure >= cap * NEAR_CAP_SHARE && figure > 0) {
    findings.warnings.push(
      `near the account's hourly spend cap: ${what}, within 10% of its cap of ${roundUsd(cap)} USD/hour (spendRate, ${SOURCE}); ` +
        `anything else running in the account counts against it too. Costing most: ${dearest.join(", ")}.${unpriced}`,
    );
  }
}
