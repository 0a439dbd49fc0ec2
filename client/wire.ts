// Tolerant zod building blocks for reading the service's answers. The live service has been seen
// to quote numbers ("0.74"), send comma-separated strings for lists ("EU-RO-1,US-TX-3"), send null
// for absent values and add fields the description does not list. A read must survive all of that:
// a refresh that fails on a quoted number is worse than useless. Inputs are validated elsewhere
// (in the resources' check); these schemas only normalise what comes back.

import { z } from "zod";

/** A number, or a string holding one ("0.74", " 20 "). */
export const wireNumber = z.preprocess((value: unknown) => {
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  return value;
}, z.number());

/** A boolean, or the strings "true"/"false". */
export const wireBoolean = z.preprocess((value: unknown) => {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}, z.boolean());

/** Splits "a, b,c" into ["a", "b", "c"]; "" gives []. */
export function splitCommaList(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/** A list of strings, or one comma-separated string (`dataCenterIds: "EU-RO-1,US-TX-3"`). */
export const wireStringList = z.preprocess(
  (value: unknown) => (typeof value === "string" ? splitCommaList(value) : value),
  z.array(z.string()),
);

/**
 * An argv-like list (dockerEntrypoint, dockerStartCmd). Never split on commas: a command may
 * contain them. A lone string is taken as a one-element list.
 */
export const wireArgv = z.preprocess(
  (value: unknown) => (typeof value === "string" ? (value === "" ? [] : [value]) : value),
  z.array(z.string()),
);

/**
 * An enum the service may extend: typed with the known values for editors, but any string is
 * accepted so that a new status does not break every read.
 */
export function looseEnum<const T extends readonly [string, ...string[]]>(_known: T): z.ZodType<T[number] | (string & {})> {
  return z.string() as z.ZodType<T[number] | (string & {})>;
}

/**
 * Environment map. Accepts `{"K": "v"}` (values that are numbers or booleans become strings, null
 * values are dropped) and the list form `[{"key": "K", "value": "v"}]` some APIs use.
 */
export const wireEnv = z.preprocess(
  (value: unknown) => {
    if (Array.isArray(value)) {
      const out: Record<string, string> = {};
      for (const item of value) {
        if (isRecord(item) && typeof item["key"] === "string" && item["value"] != null) {
          out[item["key"]] = String(item["value"]);
        }
      }
      return out;
    }
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (v == null) continue;
        out[k] = typeof v === "number" || typeof v === "boolean" ? String(v) : v;
      }
      return out;
    }
    return value;
  },
  z.record(z.string(), z.string()),
);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Copy of a plain object without its null-valued keys: `publicIp: null` reads as absent. */
export function dropNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = v;
  return out;
}

/**
 * A wire object: nulls dropped, an optional normaliser applied (e.g. image -> imageName), known
 * fields typed, unknown fields passed through untyped (so a newer service's extra fields are not
 * lost, and a missing one is not an error).
 */
export function wireObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  normalise?: (value: Record<string, unknown>) => Record<string, unknown>,
) {
  return z.preprocess((value: unknown) => {
    if (!isRecord(value)) return value;
    const cleaned = dropNulls(value);
    return normalise ? normalise(cleaned) : cleaned;
  }, z.looseObject(shape));
}

/** A list answer; null reads as an empty list. */
export function wireList<T extends z.ZodType>(item: T) {
  return z.preprocess((value: unknown) => (value === null ? [] : value), z.array(item));
}
