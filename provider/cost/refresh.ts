// When a resource's recorded estimate is out of date. An unchanged resource keeps its recorded
// outputs, so without this a newly set `gpucloud:prices` or a new catalog price would never reach
// its estimate (nor the CostReport's sum).

import { deepEqual, type Props } from "../resources/values";
import { COST_ESTIMATE } from "./attach";
import type { CostEstimate } from "./estimate";
import { figuresOf } from "./summary";

/**
 * Whether the estimate on the new inputs should replace the one recorded with the resource. Only a
 * new figure counts (read times differ on every run), and only an available one: a catalog that
 * cannot be read right now keeps the last known figures rather than planning a change.
 */
export function estimateRefreshed(recorded: Props, news: Props): boolean {
  const next = news[COST_ESTIMATE] as CostEstimate | undefined;
  if (next?.status !== "estimated") return false;
  const last = recorded[COST_ESTIMATE] as CostEstimate | undefined;
  return !deepEqual(figuresOf(last), figuresOf(next));
}
