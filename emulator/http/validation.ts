/**
 * zod at the edge: parse a request body or query with a schema and turn what does not fit into an
 * error that names the field, says what was expected and echoes the value received: the first
 * problem as a 400 (`parseWith`, /v1), or every problem at once (`parseListingEvery`, /api/v2).
 */
import { z } from "zod";
import { HttpError, describeValue } from "./errors";

export interface ValidationOptions {
  where: "request body" | "query parameter";
  /** Status for keys the schema does not accept (400; the live service was seen answering 422). */
  unknownFieldStatus: number;
  /** Extra advice per rejected key, e.g. "gpuTypeIds can only be set at create". */
  unknownFieldHints?: Readonly<Record<string, string>> | undefined;
}

/** Each request schema's compiled form, made on its first request (see safeParseCompiled). */
const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * `schema.safeParse(raw)` through zod's ahead-of-time compiled parser: one generated function per
 * schema instead of a walk that allocates a result per field (a nested create body is ~5x faster).
 * A valid value comes out the same; an invalid one falls back to the regular parser, so issues and
 * messages are the same too. Compiled on first use and kept per schema: startup compiles nothing,
 * and every emulator in a process shares the work. A schema zod cannot compile parses as before.
 */
export function safeParseCompiled<T>(schema: z.ZodType<T>, raw: unknown): z.ZodSafeParseResult<T> {
  let compiled = compiledSchemas.get(schema) as z.ZodType<T> | undefined;
  if (!compiled) {
    compiled = z.compile(schema);
    compiledSchemas.set(schema, compiled);
  }
  return compiled.safeParse(raw);
}

export function parseWith<T>(schema: z.ZodType<T>, raw: unknown, options: ValidationOptions): T {
  const result = safeParseCompiled(schema, raw);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const unknown = issues.find((issue) => issue.code === "unrecognized_keys");
  if (unknown && unknown.code === "unrecognized_keys") {
    throw new HttpError(options.unknownFieldStatus, unknownKeysMessage(unknown.keys, schema, options));
  }
  const first = issues[0];
  throw new HttpError(400, first ? issueMessage(first, raw, options.where) : `invalid ${options.where}`);
}

/**
 * Every field at fault, not only the first: an HttpError with `status` whose `errors` has one
 * entry per problem (problem+json lists them), each naming the field, what was expected and the
 * value sent; unknown fields are named, not explained.
 */
export function parseListingEvery<T>(schema: z.ZodType<T>, raw: unknown, where: ValidationOptions["where"], status: number): T {
  const result = safeParseCompiled(schema, raw);
  if (result.success) return result.data;
  // A hostile body may hold thousands of faults: the first MAX_LISTED, each bounded, and the count.
  const issues = result.error.issues;
  const errors = issues.slice(0, MAX_LISTED).map((issue) => {
    if (issue.code !== "unrecognized_keys") return issueMessage(issue, raw, where);
    const prefix = issue.path.length > 0 ? `${issue.path.join(".")}.` : "";
    const names = issue.keys.slice(0, MAX_LISTED).map((k) => describeValue(`${prefix}${k}`));
    const more = issue.keys.length > MAX_LISTED ? `, ... (${issue.keys.length} in all)` : "";
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${names.join(", ")}${more} in ${where}`;
  });
  const listed =
    issues.length > MAX_LISTED
      ? `${issues.length} problems in the ${where}, the first ${MAX_LISTED}`
      : `${issues.length} problems in the ${where}`;
  const message = errors.length === 1 && issues.length === 1 ? (errors[0] ?? "") : `${listed}: ${errors.join("; ")}`;
  throw new HttpError(status, message, {}, errors);
}

/** The most faults (and unknown keys) an answer lists. */
const MAX_LISTED = 10;

function unknownKeysMessage(keys: readonly string[], schema: z.ZodType, options: ValidationOptions): string {
  const hints = keys.map((key) => options.unknownFieldHints?.[key]).filter((hint): hint is string => hint !== undefined);
  // A body may carry thousands of unknown keys: name the first few, each bounded.
  const names = keys.slice(0, MAX_LISTED).map(describeValue).join(", ") + (keys.length > MAX_LISTED ? `, ... (${keys.length} in all)` : "");
  const head = `unknown field${keys.length > 1 ? "s" : ""} ${names} in ${options.where}`;
  if (hints.length > 0) return `${head}: ${hints.join("; ")}`;
  const accepted = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  return accepted.length > 0 ? `${head}; accepted fields: ${accepted.join(", ")}` : head;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

const EXPECTED: Readonly<Record<string, string>> = {
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "a boolean (true or false)",
  array: "an array",
  object: "an object",
  record: "an object",
};

function problem(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return value === undefined ? "is required" : `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case "too_small": {
      const min = String(issue.minimum);
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${min} characters long`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at least ${min} item${issue.minimum === 1 ? "" : "s"}`;
      return `must be ${issue.inclusive ? ">=" : ">"} ${min}`;
    }
    case "too_big": {
      const max = String(issue.maximum);
      if (issue.origin === "string") return `must be at most ${max} characters long`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at most ${max} items`;
      return `must be ${issue.inclusive ? "<=" : "<"} ${max}`;
    }
    case "invalid_value": {
      const shown = issue.values.slice(0, 12).map((v) => JSON.stringify(v));
      return `must be one of ${shown.join(", ")}${issue.values.length > 12 ? `, ... (${issue.values.length} values)` : ""}`;
    }
    case "invalid_format":
      return issue.format === "regex" ? issue.message : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}

export function issueMessage(issue: z.core.$ZodIssue, raw: unknown, where: ValidationOptions["where"]): string {
  // Query values were reshaped (split on commas, repeated keys gathered): name and echo the parameter as sent.
  const path = where === "query parameter" ? formatPath(issue.path.slice(0, 1)) : formatPath(issue.path);
  const value = valueAt(raw, where === "query parameter" ? issue.path.slice(0, 1) : issue.path);
  const subject = path === "" ? where : where === "query parameter" ? `query parameter ${path}` : path;
  const got = value === undefined ? "" : `, got ${describeValue(value)}`;
  return `invalid ${subject}: ${problem(issue, value)}${got}`;
}
