// A stack's cost summary from its resources' estimates, and the budget check on it. Pure, so the
// same sums are tested without an engine.

import type { CostEstimate } from "./estimate";
import { roundUsd } from "./usd";

/** The figures of an estimate a summary sums (no prices, so no read times: they are the same every run). */
export type EstimateFigures = Pick<CostEstimate, "status" | "reason" | "perHour" | "ceilingPerHour" | "perMonth">;

const ESTIMATE_STATUSES: readonly string[] = ["estimated", "pending", "unavailable"] satisfies CostEstimate["status"][];

/**
 * An estimate's figures; a resource without an estimate (state from an older version) is unpriced.
 * The status is a plain string where the estimate comes from the typed classes over the plugin
 * (their generated types do not carry the union); one this version does not know is unavailable.
 */
export function figuresOf(estimate: (Omit<CostEstimate, "status"> & { status: string }) | undefined): EstimateFigures {
  if (estimate === undefined) return { status: "unavailable", reason: "no estimate" };
  const { status, reason, perHour, ceilingPerHour, perMonth } = estimate;
  if (!ESTIMATE_STATUSES.includes(status)) return { status: "unavailable", reason: `unknown estimate status ${JSON.stringify(status)}` };
  const figures: EstimateFigures = { status: status as CostEstimate["status"] };
  if (reason !== undefined) figures.reason = reason;
  if (perHour !== undefined) figures.perHour = perHour;
  if (ceilingPerHour !== undefined) figures.ceilingPerHour = ceilingPerHour;
  if (perMonth !== undefined) figures.perMonth = perMonth;
  return figures;
}

/**
 * The keys a report's estimates are held under: each resource's name, and for a name declared
 * again (a Pod and an Endpoint may share one) the name with its occurrence, `name#2`. Stable for
 * the same names in the same order, so an unchanged stack records the same keys.
 */
export function estimateKeys(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}#${count}`;
  });
}

/** One resource's estimate, named as the report prints it. */
export interface NamedEstimate {
  name: string;
  estimate: EstimateFigures | undefined;
  /** Priced per month only (a network volume's storage): it has no hourly figure to miss. */
  storage?: boolean | undefined;
}

export interface CostSummary {
  /** USD per hour of everything always on: running pods and endpoints' workersMin workers. */
  perHour: number;
  /** USD per hour with every endpoint at workersMax workers (pods count at their rate). */
  ceilingPerHour: number;
  /** USD per month of storage. */
  perMonth: number;
  /** Resources left out of the sums, with the reason. */
  unpriced: string[];
  /** Of `unpriced`, those whose estimate only waits for values known at apply (checked again then). */
  pendingUntilApply: string[];
  /** Of `unpriced`, the storage (NamedEstimate.storage): only a monthly budget needs their price. */
  unpricedStorage: string[];
  /** Priced resources, dearest first (by ceiling). */
  ranked: Array<{ name: string; perHour: number; ceilingPerHour: number }>;
}

export function summarize(entries: readonly NamedEstimate[]): CostSummary {
  const summary: CostSummary = {
    perHour: 0,
    ceilingPerHour: 0,
    perMonth: 0,
    unpriced: [],
    pendingUntilApply: [],
    unpricedStorage: [],
    ranked: [],
  };
  for (const { name, estimate, storage } of entries) {
    if (estimate?.status !== "estimated") {
      summary.unpriced.push(`${name}: ${estimate?.reason ?? "no estimate"}`);
      if (storage === true) summary.unpricedStorage.push(`${name}: ${estimate?.reason ?? "no estimate"}`);
      if (estimate?.status === "pending") summary.pendingUntilApply.push(`${name}: ${estimate.reason ?? "not known until apply"}`);
      continue;
    }
    summary.perMonth += estimate.perMonth ?? 0;
    if (estimate.perHour === undefined) continue;
    const ceiling = estimate.ceilingPerHour ?? estimate.perHour;
    summary.perHour += estimate.perHour;
    summary.ceilingPerHour += ceiling;
    summary.ranked.push({ name, perHour: estimate.perHour, ceilingPerHour: ceiling });
  }
  summary.perHour = roundUsd(summary.perHour);
  summary.ceilingPerHour = roundUsd(summary.ceilingPerHour);
  summary.perMonth = roundUsd(summary.perMonth);
  summary.ranked.sort((a, b) => b.ceilingPerHour - a.ceilingPerHour || b.perHour - a.perHour);
  return summary;
}

/** The stack's budget; any limit may be absent (then that figure is shown, not limited). */
export interface CostBudget {
  /** Most the always-on rate may be, USD per hour (running pods plus endpoints' workersMin workers). */
  perHour?: number | undefined;
  /** Most the ceiling may be, USD per hour (every endpoint at workersMax). */
  ceilingPerHour?: number | undefined;
  /** Most the storage may cost, USD per month (network volumes). Without it storage is shown, not limited. */
  perMonth?: number | undefined;
}

type Limit = keyof CostBudget;

/** Stack config keys of the budget (`pulumi config set gpucloud:budgetPerHour 5`). */
export const BUDGET_KEYS = { perHour: "budgetPerHour", ceilingPerHour: "budgetCeilingPerHour", perMonth: "budgetPerMonth" } as const;

const UNITS: Record<Limit, string> = { perHour: "USD per hour", ceilingPerHour: "USD per hour", perMonth: "USD per month" };

/**
 * The budget from config values as strings; a bad value is an error naming the key and the fix.
 * A plain check rather than a schema: CostReport reads the budget while the program loads, which
 * otherwise needs no validator library (a number as text, finite and above 0).
 */
export function budgetFromConfig(get: (key: string) => string | undefined): CostBudget {
  const budget: CostBudget = {};
  for (const [field, key] of Object.entries(BUDGET_KEYS) as Array<[Limit, string]>) {
    const raw = get(key);
    if (raw === undefined || raw === "") continue;
    const limit = Number(raw);
    if (!Number.isFinite(limit) || limit <= 0)
      throw new Error(
        `gpucloud:${key} must be a positive number of ${UNITS[field]} (got ${JSON.stringify(raw)}); set it with \`pulumi config set gpucloud:${key} 10\` or remove it`,
      );
    budget[field] = limit;
  }
  return budget;
}

/** Where a limit in force came from: the CostReport's `budget` argument or stack config. */
export type BudgetSource = "argument" | "config";

/** The budget in force, where each limit came from, and the conflicts between the two. */
export interface ResolvedBudget {
  budget: CostBudget;
  sources: Partial<Record<Limit, BudgetSource | undefined>>;
  /** One line per limit both set to different values, naming both and which applies. */
  conflicts: string[];
}

/**
 * Which budget applies, stated once: limit by limit, the CostReport's `budget` argument wins over
 * stack config (the program says what it wants; config fills in the limits it leaves unset). A
 * limit both set to different values is a conflict, reported so that config is never ignored
 * silently.
 */
export function resolveBudget(argument: CostBudget | undefined, config: CostBudget): ResolvedBudget {
  const resolved: ResolvedBudget = { budget: {}, sources: {}, conflicts: [] };
  for (const field of Object.keys(BUDGET_KEYS) as Limit[]) {
    const fromArgument = argument?.[field];
    const fromConfig = config[field];
    if (fromArgument !== undefined) {
      resolved.budget[field] = fromArgument;
      resolved.sources[field] = "argument";
      if (fromConfig !== undefined && fromConfig !== fromArgument)
        resolved.conflicts.push(
          `the budget argument's ${field} (${fromArgument}) and stack config gpucloud:${BUDGET_KEYS[field]} (${fromConfig}) differ: ` +
            `the argument's applies. Remove one of them (\`pulumi config rm gpucloud:${BUDGET_KEYS[field]}\`, or ${field} from the budget argument) so that one value is stated.`,
        );
    } else if (fromConfig !== undefined) {
      resolved.budget[field] = fromConfig;
      resolved.sources[field] = "config";
    }
  }
  return resolved;
}

/** How a limit is named in messages: the config key, or the argument where the program set it. */
function limitName(field: Limit, sources: ResolvedBudget["sources"]): string {
  return sources[field] === "argument" ? `the CostReport's budget.${field}` : `gpucloud:${BUDGET_KEYS[field]}`;
}

/**
 * Why the summary exceeds the budget, naming the dearest resources; undefined within budget.
 * `sources` says where each limit came from (default: config), so the message names what to change.
 */
export function budgetExcess(
  summary: CostSummary,
  budget: CostBudget,
  sources: ResolvedBudget["sources"] = {},
  top = 3,
): string | undefined {
  // A budget never passes on what it cannot price: an unpriced resource counted as 0 would let any
  // stack through. Estimates waiting for values known at apply are checked again then. Storage has
  // no hourly figure: it holds up a monthly budget only.
  const unknown = summary.unpriced.filter((entry) => !summary.pendingUntilApply.includes(entry));
  const unpricedFor = (field: Limit): string[] =>
    unknown.filter((entry) => summary.unpricedStorage.includes(entry) === (field === "perMonth"));
  const held = (Object.keys(BUDGET_KEYS) as Limit[]).filter((field) => budget[field] !== undefined && unpricedFor(field).length > 0);
  if (held.length > 0) {
    const missing = [...new Set(held.flatMap(unpricedFor))];
    return (
      `the stack's cost cannot be held to ${held.map((field) => limitName(field, sources)).join(" and ")}: ${missing.length === 1 ? "a resource is" : `${missing.length} resources are`} not priced ` +
      `(${missing.join("; ")}). Price them as each reason says (the v2 API's catalog, or your own prices in gpucloud:prices), or remove the budget.`
    );
  }
  const over: string[] = [];
  if (budget.perHour !== undefined && summary.perHour > budget.perHour)
    over.push(`always-on ${summary.perHour} USD/hour exceeds ${limitName("perHour", sources)} ${budget.perHour}`);
  if (budget.ceilingPerHour !== undefined && summary.ceilingPerHour > budget.ceilingPerHour)
    over.push(`ceiling ${summary.ceilingPerHour} USD/hour exceeds ${limitName("ceilingPerHour", sources)} ${budget.ceilingPerHour}`);
  if (budget.perMonth !== undefined && summary.perMonth > budget.perMonth)
    over.push(`storage ${summary.perMonth} USD/month exceeds ${limitName("perMonth", sources)} ${budget.perMonth}`);
  if (over.length === 0) return undefined;
  const dearest = summary.ranked.slice(0, top).map((r) => `${r.name} (${r.perHour} USD/hour always-on, ${r.ceilingPerHour} ceiling)`);
  const costing = dearest.length > 0 ? ` Costing most: ${dearest.join(", ")}.` : "";
  return `the stack's estimated cost is over budget: ${over.join("; ")}.${costing} Reduce these or raise the budget.`;
}

/** The summed figures, in the order and words the summary line prints them. */
const FIGURES = [
  { key: "perHour", unit: "USD/hour", label: "always-on" },
  { key: "ceilingPerHour", unit: "USD/hour", label: "ceiling" },
  { key: "perMonth", unit: "USD/month", label: "storage" },
] as const;

/** What changed against the last up's summary: `+0.43 USD/hour always-on vs the last up: 0.86`. */
export function changeAgainst(last: CostSummary | undefined, now: CostSummary): string {
  if (last === undefined) return "no earlier up to compare with";
  const changes = FIGURES.filter((f) => now[f.key] !== last[f.key]).map((f) => {
    const delta = roundUsd(now[f.key] - last[f.key]);
    return `${delta > 0 ? "+" : ""}${delta} ${f.unit} ${f.label} vs the last up: ${last[f.key]}`;
  });
  return changes.length > 0 ? changes.join("; ") : "no change since the last up";
}

/** The report's one-line summary for the preview's output, with the change (changeAgainst) in parentheses. */
export function summaryLine(summary: CostSummary, change?: string): string {
  // Nothing priced is "not priced", never "0 USD/hour": a zero would read as free.
  if (summary.ranked.length === 0 && summary.perMonth === 0 && summary.unpriced.length > 0) {
    return `estimated cost: not priced${change === undefined ? "" : ` (${change})`}: ${summary.unpriced.join("; ")}`;
  }
  const figures = FIGURES.map((f) => `${summary[f.key]} ${f.unit} ${f.label}`).join(", ");
  const unpriced = summary.unpriced.length > 0 ? `; not priced: ${summary.unpriced.join("; ")}` : "";
  return `estimated cost: ${figures}${change === undefined ? "" : ` (${change})`}${unpriced}`;
}
