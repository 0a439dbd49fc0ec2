// Puts a kind's cost estimate on its checked inputs, under the one output name all kinds share.
// The field tables read COST_ESTIMATE while they load: keep this module's value imports to leaf
// modules (values.ts), or a table may load first and record its row under "undefined".

import type { ProviderDeps } from "../resources/deps";
import { messageOf, type Props } from "../resources/values";
import type { PriceLookup } from "./priceSheet";
import { ownPricesDigest } from "./ownPrices";
import type { Estimator } from "./estimate";

/** The output (and checked input) every priced resource records its estimate under. */
export const COST_ESTIMATE = "costEstimate";

/**
 * The checked inputs with the estimate. The user's own prices are read first: a bad
 * `gpucloud:prices` value fails check with its message (it is the user's to fix, unlike a catalog
 * that cannot be reached).
 */
export async function withEstimate(estimate: Estimator, args: Props, deps: Pick<ProviderDeps, "prices" | "ownPrices">): Promise<Props> {
  const own = deps.ownPrices?.();
  return { ...args, [COST_ESTIMATE]: { ...estimate(args, { catalog: await pricesFrom(deps), own }), ownPrices: ownPricesDigest(own) } };
}

/** The prices, or why there are none; an estimate never makes check fail (e.g. before an API key is set). */
async function pricesFrom(deps: Pick<ProviderDeps, "prices">): Promise<PriceLookup> {
  if (!deps.prices) return { unavailable: "no price catalog is configured" };
  try {
    return await deps.prices();
  } catch (error) {
    return { unavailable: `the price catalog could not be reached: ${messageOf(error)}` };
  }
}
