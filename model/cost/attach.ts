// Puts a kind's cost estimate on its checked inputs, under the one output name all kinds share
// (fields/estimateOutput.ts).
//
// Why the estimate rides on the inputs as well as the outputs: the engine answers a preview of a
// create or update of a dynamic resource with its checked inputs as its outputs, so the CostReport
// can sum (and hold to a budget) at preview only what check put there. It is compact (figures and a
// one-line basis) because it is carried twice.

import { messageOf, type Props } from "../fields/values";
import { CATALOG_NOT_READ, type PriceLookup } from "./priceSheet";
import { ownPricesDigest, type OwnPrices } from "./ownPrices";
import type { CostEstimate, Estimator } from "./estimate";
import { COST_ESTIMATE } from "../fields/estimateOutput";

/** Where an estimate's prices come from (the provider's dependencies carry both). */
export interface PriceSources {
  /** The list prices for cost estimates (absent: estimates say they are unavailable). */
  prices?(): Promise<PriceLookup>;
  /** The user's prices for what the catalog does not quote (`gpucloud:prices`); throws on a bad value. */
  ownPrices?(): OwnPrices | undefined;
}

/**
 * The checked inputs with the estimate. The user's own prices are read first: a bad
 * `gpucloud:prices` value fails check with its message (it is the user's to fix, unlike a catalog
 * that cannot be reached). The catalog is read only when the arguments leave the figure to its
 * prices: an estimate the arguments already decide (pending, no GPU type given, storage priced
 * from own prices) costs no call.
 */
export async function withEstimate(estimate: Estimator, args: Props, sources: PriceSources): Promise<Props> {
  const own = sources.ownPrices?.();
  let made = estimate(args, { catalog: { unavailable: CATALOG_NOT_READ }, own });
  if (made.status === "unavailable" && made.reason === CATALOG_NOT_READ) made = estimate(args, { catalog: await pricesFrom(sources), own });
  return { ...args, [COST_ESTIMATE]: withDigest(made, ownPricesDigest(own)) };
}

/** The estimate with the digest of the own prices in force; none set records nothing. */
function withDigest(estimate: CostEstimate, digest: string): CostEstimate {
  return digest === "none" ? estimate : { ...estimate, ownPrices: digest };
}

/** The prices, or why there are none; an estimate never makes check fail (e.g. before an API key is set). */
async function pricesFrom(sources: PriceSources): Promise<PriceLookup> {
  if (!sources.prices) return { unavailable: "no price catalog is configured" };
  try {
    return await sources.prices();
  } catch (error) {
    return { unavailable: `the price catalog could not be reached: ${messageOf(error)}` };
  }
}
