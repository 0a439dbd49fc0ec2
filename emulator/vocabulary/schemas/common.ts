/** Field schemas shared by several request bodies and queries. */
import { z } from "zod";
import { CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPE_IDS } from "../catalog";

export const nameField = z.string().max(191);
export const requiredName = z.string().min(1).max(191);

/** Env values are strings, as in a container's environment. */
export const envField = z.record(z.string().min(1), z.string());

export const stringList = z.array(z.string());

/** "8888/http", "22/tcp" (also accepted: one comma-separated string, as the documented default is written). */
const portEntry = z
  .string()
  .regex(/^\d{1,5}\/(http|tcp|udp)$/, 'must look like "8888/http" or "22/tcp"')
  .refine((port) => {
    const number = Number(port.split("/")[0]);
    return number >= 1 && number <= 65535;
  }, "port number must be between 1 and 65535");
export const portsField = z.preprocess(commaList, z.array(portEntry));

export const gpuTypeIdsField = z.array(z.enum(GPU_TYPE_IDS));
export const cudaVersion = z.enum(CUDA_VERSIONS);
/** Arrays, or (as the service may echo them) one comma-separated string. */
export const dataCenterIdsField = z.preprocess(commaList, z.array(z.enum(DATA_CENTER_IDS)));

/** Optional reference to another resource; null is accepted as "none". */
export const refField = z.string().min(1).nullish();

function commaList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

// ---- query parameters (every value arrives as a string, or an array when repeated) ----

function lastValue(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function toBoolean(value: unknown): unknown {
  const last = lastValue(value);
  if (typeof last !== "string") return last;
  const lower = last.toLowerCase();
  if (lower === "true" || lower === "1" || lower === "") return true;
  if (lower === "false" || lower === "0") return false;
  return last;
}

/** A boolean flag, default false: `true|false|1|0` (a bare `?flag` counts as true). */
export const queryFlag = () => z.preprocess(toBoolean, z.boolean().default(false));

export const queryString = () => z.preprocess(lastValue, z.string().min(1).optional());

export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T) => z.preprocess(lastValue, z.enum(values).optional());

export const queryEnumWithDefault = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(lastValue, z.enum(values).default(fallback as never));

/** Repeated (`?a=x&a=y`) and comma-separated (`?a=x,y`) both give ["x", "y"]. */
export const queryList = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess((value) => {
    const parts = Array.isArray(value) ? value : [value];
    return parts.flatMap((part) => (typeof part === "string" ? part.split(",").filter((p) => p !== "") : [part]));
  }, z.array(item).optional());

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date-time (or date), parsed to epoch ms. */
export const queryDateTime = () =>
  z.preprocess(
    lastValue,
    z
      .string()
      .regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time such as "2023-01-31T23:59:59Z"')
      .refine((text) => !Number.isNaN(Date.parse(text)), "is not a real date")
      // A time without a zone is read as UTC (billing is in UTC), not as the host's local time.
      .transform((text) => Date.parse(/T|\s/i.test(text) && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? `${text}Z` : text))
      .optional()
      .meta({ format: "date-time" }),
  );
