// Puts a kind's cost estimate on its checked inputs, under the one output name all kinds share.
// The field tables read COST_ESTIMATE while they load: keep this module's value imports to leaf
// modules (values.ts), or a table may load first and record its row under "undefined".
//
// Why the estimate rides on the inputs as well as the outputs: the engine answers a preview of a
// create or update of a dynamic resource with its checked inputs as its outputs, so the CostReport
// can sum (and hold to a budget) at preview only what check put there. It is compact (figures and a
// one-line basis) because it is carried twice.

import type { ProviderDeps } from "../resources/deps";
import { messageOf, type Props } from "../../model/fields/values";
import { CATALOG_NOT_READ, type PriceLookup } from "./priceSheet";
import { ownPricesDigest } from "./ownPrices";
import type { CostEstimate, Estimator } from "./estimate";

/** The output (and checked input) every priced resource records its estimate under. */
export const COST_ESTIMATE = "costEstimate";

/**
 * The checked inputs with the estimate. The user's own prices are read first: a bad
 * `gpucloud:prices` value fails check with its message (it is the user's to fix, unlike a catalog
 * that cannot be reached). The catalog is read only when the arguments leave the figure to its
 * prices: an estimate the arguments already decide (pending, no GPU type given, storage priced
 * from own prices) costs no call.
 */
export async function withEstimate(estimate: Estimator, args: Props, deps: Pick<ProviderDeps, "prices" | "ownPrices">): Promise<Props> {
  const own = deps.ownPrices?.();
  let made = estimate(args, { catalog: { unavailable: CATALOG_NOT_READ }, own });
  if (made.status === "unavailable" && made.reason === CATALOG_NOT_READ) made = estimate(args, { catalog: await pricesFrom(deps), own });
  return { ...args, [COST_ESTIMATE]: withDigest(made, ownPricesDigest(own)) };
}

/** The estimate with the digest of the own prices in force; none set records nothing. */
function withDigest(estimate: CostEstimate, digest: string): CostEstimate {
  return digest === "none" ? estimate : { ...estimate, ownPrices: digest };
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
