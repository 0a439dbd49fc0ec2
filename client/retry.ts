// The retry policy: which failures are retried, and how long to wait. Pure functions only, so the
// rules can be tested as a table without any server or timer.

/**
 * How a request failed when there is no HTTP status to go by.
 * - "connect": the connection could not be set up (refused, DNS, connect timeout). Nothing was
 *   sent, so the service cannot have acted: safe to retry any call.
 * - "connection": the connection broke after the request may have been sent (reset, closed).
 * - "timeout": no complete answer within the per-request timeout. The service may have acted.
 * - "invalid_response": a 2xx whose body is not JSON or does not match the schema. Retrying would
 *   read the same body again, and the call has already taken effect.
 */
export type FailureKind = "connect" | "connection" | "timeout" | "invalid_response";

export interface RetryDecisionInput {
  /** HTTP status of the answer, absent when there was none. */
  status?: number | undefined;
  /** Set when there was no usable answer. */
  errorKind?: FailureKind | undefined;
  /**
   * True when repeating the call cannot do more than doing it once: GET, PUT, DELETE, PATCH, and
   * POSTs that set a state rather than create something (start, stop, cancel, ...).
   */
  idempotent: boolean;
}

/** Whether a failed attempt should be tried again (attempt limits are the transport's business). */
export function shouldRetry(input: RetryDecisionInput): boolean {
  const { status, errorKind, idempotent } = input;
  if (errorKind === "invalid_response") return false;
  // Nothing left this machine: even a create cannot have happened.
  if (errorKind === "connect") return true;
  // The request may have been acted on; repeating is harmless only for idempotent calls.
  if (errorKind === "connection" || errorKind === "timeout") return idempotent;
  if (status === undefined) return false;
  // 429 means the service refused before acting (rate limiting happens in front of the handler),
  // so even a non-idempotent POST such as a create or /run cannot be duplicated by a retry.
  if (status === 429) return true;
  // 408 and 5xx leave it open whether the service acted: only idempotent calls are repeated.
  // A create that fails this way is resolved by looking the resource up (see createOnce.ts).
  if (status === 408 || (status >= 500 && status <= 599)) return idempotent;
  return false;
}

/** First retry waits around 0.5 s (before jitter), doubling per attempt, never above 8 s. */
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/**
 * A Retry-After on anything but a 429 beyond this is not trusted (a proxy's maintenance window):
 * the backoff applies instead. A 429's is honoured at any length (see backoffDelayMs).
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The longest wait for a rate-limit window (pacing or Retry-After) a call takes unless its own
 * deadline says otherwise: beyond it, the call fails at once with a RateLimitError naming the window
 * and its reset, rather than stall a `pulumi up` silently for up to a day.
 */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;

/**
 * Parses Retry-After: delta-seconds ("3", "1.5") or an HTTP-date. Returns milliseconds from now,
 * or undefined when absent or unreadable. A date in the past gives 0.
 */
export function parseRetryAfterMs(header: string | readonly string[] | undefined | null, nowMs: number = Date.now()): number | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (typeof raw !== "string") return undefined;
  const value = raw.trim();
  if (value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // Only treat it as a date if it looks like one; Date.parse accepts odd inputs such as "1".
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Delay before retry number `attempt` (0 for the first retry).
 *
 * Without a usable Retry-After: capped exponential backoff `min(0.5 * 2^attempt, 8)` seconds with
 * EQUAL jitter, i.e. a uniform pick in [cap/2, cap]. Equal rather than full jitter because full
 * jitter can pick ~0 ms, which hammers a service that has just said it is overloaded; the upper
 * half still spreads concurrent clients (a Pulumi run retries many resources at once).
 *
 * A Retry-After up to `maxRetryAfterMs` wins as given (the service knows best when it can take the
 * call). For a 429 the transport passes no bound: the live service sends the time to the reset of
 * the exceeded window, up to a day, and whether a wait that long is acceptable is the transport's
 * decision (its rate-limit wait budget). For other statuses the bound is MAX_RETRY_AFTER_MS. A
 * negative, unreadable or too long one is ignored and the backoff applies.
 */
export function backoffDelayMs(
  attempt: number,
  retryAfterHeader: string | readonly string[] | undefined,
  random: () => number = Math.random,
  nowMs: number = Date.now(),
  maxRetryAfterMs: number = Number.POSITIVE_INFINITY,
): number {
  const retryAfter = parseRetryAfterMs(retryAfterHeader, nowMs);
  if (retryAfter !== undefined && retryAfter >= 0 && retryAfter <= maxRetryAfterMs) return retryAfter;
  const n = Math.max(0, Math.floor(attempt));
  const cap = Math.min(BASE_DELAY_MS * 2 ** n, MAX_DELAY_MS);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(cap / 2 + r * (cap / 2));
}

/** The HTTP methods that are idempotent by definition (RFC 9110), plus PATCH for this service. */
export function isIdempotentMethod(method: string): boolean {
  // PATCH is not idempotent in general, but the service's PATCH bodies set fields to values
  // (no increments or appends), so applying one twice leaves the same state.
  return ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"].includes(method.toUpperCase());
}

// ---- pacing by the service's rate-limit headers (RateLimit / RateLimit-Policy) -----------------

/** One window of `RateLimit` (`"minute";r=599;t=42`) joined with its `RateLimit-Policy` quota. */
export interface RateLimitWindow {
  name: string;
  /** Requests left in the window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** The window's quota, when the policy header gave it. */
  quota?: number | undefined;
}

/** Parses a structured-field list `"minute";r=599;t=42, "hour";r=9999;t=1842` into its members' parameters. */
function parseMembers(header: string | undefined): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  if (!header) return out;
  for (const member of header.split(",")) {
    const [rawName, ...params] = member.split(";").map((p) => p.trim());
    if (!rawName) continue;
    const values: Record<string, number> = {};
    for (const param of params) {
      const [key, value] = param.split("=");
      if (key && value !== undefined && Number.isFinite(Number(value))) values[key.trim()] = Number(value);
    }
    out.set(rawName.replace(/^"|"$/g, ""), values);
  }
  return out;
}

export function parseRateLimit(rateLimit: string | undefined, policy: string | undefined): RateLimitWindow[] {
  const quotas = parseMembers(policy);
  const windows: RateLimitWindow[] = [];
  for (const [name, params] of parseMembers(rateLimit)) {
    if (params["r"] === undefined || params["t"] === undefined) continue;
    windows.push({ name, remaining: params["r"], resetSeconds: params["t"], quota: quotas.get(name)?.["q"] });
  }
  return windows;
}

/** The window a 429's detail names ("rate limit exceeded for the hour window"), if it names one. */
export function windowNamedIn(detail: string | undefined): string | undefined {
  return /for the (\w+) window/.exec(detail ?? "")?.[1];
}
