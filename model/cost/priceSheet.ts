// The list prices an estimate uses: the v2 catalog's GpuType.price and CpuType.price, read once per
// provider process (per connection) and kept with the time they were read, so every estimate of a
// deployment uses the same figures and says which.

import { z } from "zod";

/** One GPU type's list prices, USD per GPU per hour (`serverless` absent outside a serverless pool). */
export interface GpuPrices {
  secure: number;
  community: number;
  serverless?: number | undefined;
}

/** One CPU flavor's list prices, USD per vCPU per hour. */
export interface CpuPrices {
  securePerVcpu: number;
  serverlessPerVcpu: number;
}

export interface PriceSheet {
  gpus: ReadonlyMap<string, GpuPrices>;
  cpus: ReadonlyMap<string, CpuPrices>;
  /** ISO 8601 time the catalog was read. */
  readAt: string;
}

/** The sheet, or why there is none (v1 backend, catalog unreachable or without prices). */
export type PriceLookup = { sheet: PriceSheet } | { unavailable: string };

/**
 * Why the catalog was not read: an estimator that returns exactly this as its reason needs the
 * catalog's prices, so the caller reads the catalog and estimates again (attach.ts). Every other
 * outcome (pending, unavailable for a reason of the arguments, priced from own prices only) was
 * decided without it: no call.
 */
export const CATALOG_NOT_READ = "the price catalog was not read yet";

const price = z.number().finite().nonnegative();
const GpuPriceRow = z.object({ id: z.string(), price: z.object({ secure: price, community: price, serverless: price.optional() }) });
const CpuPriceRow = z.object({ id: z.string(), price: z.object({ securePerVcpu: price, serverlessPerVcpu: price }) });

/** The catalog lists as the service returns them (items kept loose: prices are checked here). */
export interface CatalogLists {
  gpus: readonly unknown[];
  cpus: readonly unknown[];
}

/** The prices of each catalog item by id, or the first item whose prices are missing or invalid. */
function pricesById<P>(items: readonly unknown[], row: z.ZodType<{ id: string; price: P }>, what: string): Map<string, P> | string {
  const out = new Map<string, P>();
  for (const item of items) {
    const parsed = row.safeParse(item);
    if (!parsed.success) {
      const id = z.object({ id: z.string() }).safeParse(item);
      const issue = parsed.error.issues[0];
      return `the catalog's ${what} ${id.success ? JSON.stringify(id.data.id) : "entry"} carries no valid price (${issue?.path.join(".") ?? "price"}: ${issue?.message ?? "invalid"})`;
    }
    out.set(parsed.data.id, parsed.data.price);
  }
  return out;
}

/** Builds the sheet from catalog lists; an item without valid prices makes the whole sheet unavailable. */
export function priceSheetOf(lists: CatalogLists, readAt: Date): PriceLookup {
  const gpus = pricesById<GpuPrices>(lists.gpus, GpuPriceRow as z.ZodType<{ id: string; price: GpuPrices }>, "GPU type");
  if (typeof gpus === "string") return { unavailable: gpus };
  const cpus = pricesById<CpuPrices>(lists.cpus, CpuPriceRow, "CPU flavor");
  if (typeof cpus === "string") return { unavailable: cpus };
  return { sheet: { gpus, cpus, readAt: readAt.toISOString() } };
}

/** Where the catalog lists come from: absent on a backend without a catalog (v1). */
export interface CatalogSource {
  catalogLists?(): Promise<CatalogLists>;
}

const sheets = new WeakMap<CatalogSource, Promise<PriceLookup>>();

/**
 * The price sheet of this connection, read at most once per provider process. A failed read is
 * reported as unavailable (an estimate never blocks a deployment) and is not kept, so the next
 * resource's check tries again.
 */
export function pricesOf(source: CatalogSource, now: () => number = Date.now): Promise<PriceLookup> {
  const load = source.catalogLists?.bind(source);
  if (!load)
    return Promise.resolve({
      unavailable: "the v1 management API has no price catalog; set gpucloud:apiUrl to the v2 API (ending in /v2) for estimates",
    });
  let pending = sheets.get(source);
  if (!pending) {
    pending = load().then(
      (lists) => priceSheetOf(lists, new Date(now())),
      (error: unknown) => {
        sheets.delete(source);
        return { unavailable: `the price catalog could not be read: ${error instanceof Error ? error.message : String(error)}` };
      },
    );
    sheets.set(source, pending);
  }
  return pending;
}
