/**
 * zod schemas for what callers send (job request bodies, query parameters) and the translation of
 * zod issues into one clear message that names the field, the rule and the value received.
 */
import { z } from "zod";
import type { Assert, Equals } from "../sameType";
import type { S3Config } from "./s3Config";
import { HttpError, describeValue } from "../http/errors";

export const SEC = 1000;
export const DAY = 24 * 3600 * SEC;

function intBetween(field: string, min: number, max: number, unit: string) {
  const error = `${field} must be an integer between ${min} and ${max} (${unit})`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const S3ConfigSchema = z.strictObject({
  accessId: z.string({ error: "s3Config.accessId must be a non-empty string" }).min(1, {
    error: "s3Config.accessId must be a non-empty string",
  }),
  accessSecret: z.string({ error: "s3Config.accessSecret must be a non-empty string" }).min(1, {
    error: "s3Config.accessSecret must be a non-empty string",
  }),
  bucketName: z.string({ error: "s3Config.bucketName must be a non-empty string" }).min(1, {
    error: "s3Config.bucketName must be a non-empty string",
  }),
  endpointUrl: z.url({ protocol: /^https?$/, error: "s3Config.endpointUrl must be an http(s) URL" }),
});
export type { S3Config } from "./s3Config";
type _S3ConfigMatches = Assert<Equals<z.infer<typeof S3ConfigSchema>, S3Config>>;

export const PolicySchema = z.strictObject({
  executionTimeout: intBetween("policy.executionTimeout", 5 * SEC, 7 * DAY, "ms").optional(),
  lowPriority: z.boolean({ error: "policy.lowPriority must be true or false" }).optional(),
  ttl: intBetween("policy.ttl", 10 * SEC, 7 * DAY, "ms").optional(),
});

export const JobRequestSchema = z.strictObject({
  input: z.custom<Record<string, unknown>>(isPlainObject, {
    error: "input is required and must be a JSON object",
  }),
  webhook: z.url({ protocol: /^https?$/, error: "webhook must be an http(s) URL" }).optional(),
  policy: PolicySchema.optional(),
  s3Config: S3ConfigSchema.optional(),
});
export type JobRequest = z.infer<typeof JobRequestSchema>;

/** A non-negative integer given as a query string, e.g. `?wait=5000`. */
function queryInt(error: string, min: number, max: number) {
  return z.string().regex(/^\d+$/, { error }).transform(Number).pipe(z.number().min(min, { error }).max(max, { error }));
}

/** The service's exact wording for a bad `wait` (clients match on it). */
export const WAIT_ERROR = "wait is invalid; must be between 1000 and 300000";
export const WaitQuery = queryInt(WAIT_ERROR, 1000, 300_000);
export const TtlQuery = queryInt(`ttl must be an integer between ${10 * SEC} and ${7 * DAY} (ms)`, 10 * SEC, 7 * DAY);
export const LimitQuery = queryInt("limit must be an integer between 1 and 1000", 1, 1000);

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (!isPlainObject(v)) return undefined;
    v = v[String(k)];
  }
  return v;
}

/** One message for a failed parse: the first issue, with the value that was received. */
export function describeIssues(error: z.ZodError, root: unknown, what: string): string {
  const issue = error.issues[0];
  if (!issue) return `${what} is invalid`;
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length ? `${issue.path.join(".")}` : what;
    const keys =
      issue.keys.slice(0, 10).map(describeValue).join(", ") + (issue.keys.length > 10 ? `, ... (${issue.keys.length} in all)` : "");
    return `${where} has unknown field${issue.keys.length > 1 ? "s" : ""} ${keys}`;
  }
  return `${issue.message}; got ${describeValue(valueAt(root, issue.path))}`;
}

/** Query parameters by name, each a schema of the raw string; every one is optional. */
export type JobQueryShape = Readonly<Record<string, z.ZodType<unknown, string>>>;

/** The parsed query: each parameter's value, undefined when absent. */
export type JobQuery<S extends JobQueryShape> = { [K in keyof S]: z.output<S[K]> | undefined };

/**
 * Parses the query parameters `shape` names, each from its first value; absent ones are undefined.
 * A bad value is a 400 that says what was expected and what was received (for `wait`, the
 * service's own wording alone: clients match on it).
 */
export function parseJobQuery<S extends JobQueryShape>(shape: S, params: URLSearchParams | undefined): JobQuery<S> {
  const out: Record<string, unknown> = {};
  for (const name in shape) {
    const raw = params?.get(name);
    if (raw === null || raw === undefined) continue;
    const r = (shape[name] as z.ZodType<unknown, string>).safeParse(raw);
    if (!r.success) {
      const message = r.error.issues[0]?.message ?? `invalid query parameter ${name}`;
      throw new HttpError(400, message === WAIT_ERROR ? WAIT_ERROR : `${message}; got ${JSON.stringify(raw)}`);
    }
    out[name] = r.data;
  }
  return out as JobQuery<S>;
}
