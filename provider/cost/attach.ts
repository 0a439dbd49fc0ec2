// Puts a kind's cost estimate on its checked inputs, under the one output name all kinds share.

import type { ProviderDeps } from "../resources/deps";
import type { Props } from "../resources/values";
import type { Estimator } from "./estimate";

/** The output (and checked input) every priced resource records its estimate under. */
export const COST_ESTIMATE = "costEstimate";

export async function withEstimate(estimate: Estimator, args: Props, deps: Pick<ProviderDeps, "prices">): Promise<Props> {
  const prices = deps.prices ? await deps.prices() : { unavailable: "no price catalog is configured" };
  return { ...args, [COST_ESTIMATE]: estimate(args, prices) };
}
