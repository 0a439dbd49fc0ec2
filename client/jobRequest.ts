/**
 * What the job API accepts in a job request, checked before anything is sent, so a bad policy or an
 * oversized payload fails at once with the field, the value and the fix instead of as a 400 or 413
 * after an upload. Bounds are the service's: executionTimeout 5 s..7 d, ttl 10 s..7 d; /run bodies
 * at most 10 MB, /runsync bodies at most 20 MB.
 */
import { z } from "zod";
import { JobRequestError } from "./jobRequestError";
import type { JobInput } from "./jobInput";
import type { Assert, Equals } from "./sameType";

export type { JobInput } from "./jobInput";

const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;
// Decimal megabytes (1 MB = 1,000,000 bytes), as the service states its limits: the stricter
// reading, so what passes here passes the service under either meaning. The emulator agrees.
export const RUN_PAYLOAD_LIMIT_BYTES = 10_000_000;
export const RUNSYNC_PAYLOAD_LIMIT_BYTES = 20_000_000;

const millis = (what: string, min: number, max: number) =>
  z
    .number({ error: (i) => `${what} must be a number of milliseconds (got ${JSON.stringify(i.input)})` })
    .int(`${what} must be a whole number of milliseconds`)
    .min(min, `${what} must be at least ${min} ms (${min / 1000} s)`)
    .max(max, `${what} must be at most ${max} ms (7 days)`);

export const jobPolicySchema = z
  .object({
    /** Milliseconds a job may run before it is TIMED_OUT; 5 s..7 d; default the endpoint's (600000). */
    executionTimeout: millis("policy.executionTimeout", 5_000, SEVEN_DAYS_MS).optional(),
    /** A low-priority job does not make the endpoint scale up. */
    lowPriority: z.boolean().optional(),
    /** Milliseconds the job lives from submission, queue and execution included; 10 s..7 d; default 24 h. */
    ttl: millis("policy.ttl", 10_000, SEVEN_DAYS_MS).optional(),
  })
  .strict();

export const s3ConfigSchema = z
  .object({
    accessId: z.string().min(1, "s3Config.accessId must not be empty"),
    accessSecret: z.string().min(1, "s3Config.accessSecret must not be empty"),
    bucketName: z.string().min(1, "s3Config.bucketName must not be empty"),
    endpointUrl: z.url({ error: "s3Config.endpointUrl must be an absolute URL" }),
  })
  .strict();

export const jobRequestSchema = z
  .object({
    /** The handler's input (required). */
    input: z.record(z.string(), z.unknown(), { error: 'input must be an object: the job\'s input, e.g. { prompt: "..." }' }),
    /** URL that receives one POST with the final record (and the input) when the job finishes, FAILED included. */
    webhook: z.url({ protocol: /^https?$/, error: "webhook must be an absolute http(s) URL" }).optional(),
    policy: jobPolicySchema.optional(),
    /** Object storage the handler may use for large inputs and outputs. */
    s3Config: s3ConfigSchema.optional(),
  })
  .strict();

type _JobInputMatches = Assert<Equals<z.input<typeof jobRequestSchema>, JobInput>>;

/** The keys each object of a request takes, for "unknown key" messages. */
const KNOWN_KEYS: Record<string, string> = {
  "": "input, webhook, policy and s3Config",
  policy: "executionTimeout, lowPriority and ttl",
  s3Config: "accessId, accessSecret, bucketName and endpointUrl",
};

export type ValidJobRequest = z.infer<typeof jobRequestSchema>;

export { JobRequestError } from "./jobRequestError";

/** Parses a request, or throws a JobRequestError naming the first problem. */
/** The `ttl` a /status call may set: the same range as a job's `policy.ttl`, 10 s..7 d. */
const statusTtlSchema = millis("ttl", 10_000, SEVEN_DAYS_MS);

/** Refuses a /status `ttl` the job API would refuse, naming the value and the range. */
export function validateStatusTtl(ttlMs: number | undefined): void {
  if (ttlMs === undefined) return;
  const parsed = statusTtlSchema.safeParse(ttlMs);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]?.message ?? "invalid";
    const got = issue.includes("(got ") ? "" : ` (got ${preview(ttlMs)})`;
    throw new JobRequestError("ttl", `invalid status ttl: ${issue}${got}; use 10000..604800000 ms`);
  }
}

export function validateJobRequest(request: unknown, route: "run" | "runsync"): ValidJobRequest {
  const parsed = jobRequestSchema.safeParse(request, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).join(".");
    let detail = issue?.message ?? "invalid";
    if (issue?.code === "unrecognized_keys") {
      const where = path === "" ? "a job request" : path;
      detail = `unknown key(s) ${issue.keys.join(", ")}; ${where} has ${KNOWN_KEYS[path] ?? "no other keys"}`;
    } else if (issue && "input" in issue && issue.input !== undefined && !detail.includes("(got ")) {
      detail += ` (got ${preview(issue.input)})`;
    }
    throw new JobRequestError(path, `invalid job request${path ? ` at ${path}` : ""}: ${detail}`);
  }
  const limit = route === "run" ? RUN_PAYLOAD_LIMIT_BYTES : RUNSYNC_PAYLOAD_LIMIT_BYTES;
  const size = Buffer.byteLength(JSON.stringify(parsed.data));
  if (size > limit) {
    throw new JobRequestError(
      "input",
      `job request is ${size} bytes, over the ${limit / 1_000_000} MB limit of /${route}` +
        (route === "run"
          ? "; use runSync (20 MB) or pass large data by reference (e.g. s3Config and an object key)"
          : "; pass large data by reference (e.g. s3Config and an object key)"),
    );
  }
  return parsed.data;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

const BaseUrlSchema = z.url({ protocol: /^https?$/ });

/** requestUrls.base, checked: an http(s) URL, without a trailing slash. */
export function checkedBaseUrl(base: string): string {
  const parsed = BaseUrlSchema.safeParse(base);
  if (!parsed.success) {
    throw new JobRequestError(
      "requestUrls.base",
      `job API: requestUrls.base must be an http(s) URL (got ${JSON.stringify(base)}); pass the endpoint's requestUrls as the management API returned them, or only its id to use <serverlessUrl>/<id>`,
    );
  }
  return parsed.data.replace(/\/+$/, "");
}
