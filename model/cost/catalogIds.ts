// GPU type and CPU flavor ids checked against the service's catalog at preview (v2), as read for
// the price sheet (priceSheet.ts). The static lists in the field tables only warn (ids come and go
// faster than releases); once the catalog was read, an id it does not list cannot work, and the
// create would fail with the service's 400 after other resources were made. When the catalog could
// not be read, the warning stays.

import type { PriceLookup } from "./priceSheet";
import { closest } from "../fields/validation";
import { isUnknown, type Props } from "../fields/values";

/** The arguments holding catalog ids, and where the catalog lists them. */
const CATALOG_FIELDS = [
  { field: "gpuTypeIds", list: "gpus", noun: "GPU type", lookup: "getGpuTypes" },
  { field: "cpuFlavorIds", list: "cpus", noun: "CPU flavor", lookup: "getCpuTypes" },
] as const;

function idsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The catalog fields of `args` whose ids changed since `previous` (unchanged ones were checked then). */
export function catalogFieldsToCheck(args: Props, previous: Props): string[] {
  return CATALOG_FIELDS.filter(
    ({ field }) => idsOf(args[field]).length > 0 && JSON.stringify(args[field]) !== JSON.stringify(previous[field]),
  ).map((f) => f.field);
}

/**
 * Failures for ids the catalog does not list, with the nearest listed id; `read` says whether the
 * catalog was read (the warnings of the static lists are then superseded for these fields).
 */
export function catalogIdFailures(
  args: Props,
  fields: readonly string[],
  prices: PriceLookup,
): { read: boolean; failures: { property: string; reason: string }[] } {
  if (!("sheet" in prices)) return { read: false, failures: [] };
  const failures: { property: string; reason: string }[] = [];
  for (const { field, list, noun, lookup } of CATALOG_FIELDS) {
    if (!fields.includes(field)) continue;
    const known = [...prices.sheet[list].keys()];
    const ids: unknown[] = Array.isArray(args[field]) ? args[field] : [];
    ids.forEach((id, i) => {
      // An id not known yet (preview) is checked once it is.
      if (typeof id !== "string" || isUnknown(id) || known.includes(id)) return;
      const near = closest(id, known);
      failures.push({
        property: `${field}[${i}]`,
        reason: `${JSON.stringify(id)} is not a ${noun} in the service's catalog${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; ${lookup}() lists the ids`,
      });
    });
  }
  return { read: true, failures };
}
