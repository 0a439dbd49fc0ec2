// When a resource's recorded estimate is out of date, and when two estimates are the same one. An
// unchanged resource keeps its recorded outputs, so without this a newly set `gpucloud:prices` or a
// new catalog price would never reach its estimate (nor the CostReport's sum). Estimates are
// compared by their figures: the words of the basis, or 0.1.0's verbose record of the same figures
// (with its price list and read times), are not a change.

import { deepEqual, isRecord, type Props } from "../fields/values";
import { COST_ESTIMATE } from "../fields/estimateOutput";
import type { CostEstimate } from "./estimate";
import { figuresOf } from "./summary";

const STATUSES: ReadonlySet<unknown> = new Set(["estimated", "pending", "unavailable"]);
const FIGURES = ["perHour", "ceilingPerHour", "perMonth"] as const;

/**
 * A recorded estimate in today's compact shape, or undefined when there is none. 0.1.0 recorded
 * the prices used (with read times), the currency and notes: its figures and reason are kept, its
 * prices and notes become the basis line.
 */
export function recordedEstimate(value: unknown): CostEstimate | undefined {
  if (!isRecord(value) || !STATUSES.has(value["status"])) return undefined;
  const out: CostEstimate = { status: value["status"] as CostEstimate["status"] };
  if (typeof value["reason"] === "string") out.reason = value["reason"];
  for (const key of FIGURES) if (typeof value[key] === "number") out[key] = value[key];
  const basis = typeof value["basis"] === "string" ? value["basis"] : verboseBasis(value);
  if (basis !== undefined) out.basis = basis;
  if (typeof value["ownPrices"] === "string" && value["ownPrices"] !== "none") out.ownPrices = value["ownPrices"];
  return out;
}

/** 0.1.0's price list and notes as one basis line. */
function verboseBasis(value: Props): string | undefined {
  const prices = Array.isArray(value["prices"]) ? value["prices"].filter(isRecord) : [];
  const used = prices.map((p) => `${String(p["item"])} ${String(p["unitPrice"])} USD/${String(p["unit"])} x ${String(p["quantity"])}`);
  const notes = Array.isArray(value["notes"]) ? value["notes"].filter((n): n is string => typeof n === "string") : [];
  const parts = [used.join(" + "), ...notes].filter((p) => p !== "");
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** The same figures (and, without figures, the same reason), priced with the same own prices. */
export function sameEstimate(a: CostEstimate, b: CostEstimate): boolean {
  return deepEqual(figuresOf(a), figuresOf(b)) && (a.ownPrices ?? "none") === (b.ownPrices ?? "none");
}

/**
 * Whether the estimate on the new inputs should replace the one recorded with the resource. Only a
 * new figure counts, and only an available one: a catalog that cannot be read right now keeps the
 * last known figures rather than planning a change.
 */
export function estimateRefreshed(recorded: Props, news: Props): boolean {
  const next = recordedEstimate(news[COST_ESTIMATE]);
  if (next?.status !== "estimated") return false;
  return !deepEqual(figuresOf(recordedEstimate(recorded[COST_ESTIMATE])), figuresOf(next));
}
