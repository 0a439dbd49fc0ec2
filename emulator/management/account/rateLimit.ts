/**
 * The account's request rate limit (management-api-v2-today.md 6.3: "Quotas apply per user over
 * three windows at once — minute, hour, day"), which /api/v2 applies to every authenticated request
 * (`requestAdmission`; REST v1 "sends neither `RateLimit` nor `Retry-After`"): fixed windows, each with
 * a quota. Every authenticated answer carries the live state and the policy as structured-field lists:
 *
 *     RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400
 *     RateLimit: "minute";r=59;t=42, "hour";r=2999;t=1842, "day";r=49999;t=51042
 *
 * and a request over any quota is answered 429 with Retry-After (seconds until the longest
 * exhausted window resets) and a detail naming that window, without running.
 *
 * The default is the reference's example policy (60 a minute, 3000 an hour, 50000 a day; the live
 * quotas are not published, the example is the best figure there is). The windows run in SERVICE
 * time, like every other duration the emulator simulates: under a time scale of 0.01 a minute
 * window lasts 0.6 real seconds, so a test under the default policy is limited as a real run of
 * 100x its length would be. The policy's `w` is the window in service seconds (the documented
 * units); `t` and Retry-After are what the client has to wait, in real seconds (service seconds x
 * time scale, rounded up, at least 1), so a client that honours them is neither early nor stalled.
 */
import { createClock } from "../../clock";
import { Refusal } from "../errors";

export interface RateLimitOptions {
  /** Requests per account per minute (default 60). */
  perMinute?: number;
  /** Requests per account per hour (default 3000). */
  perHour?: number;
  /** Requests per account per day (default 50000). */
  perDay?: number;
}

export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = { perMinute: 60, perHour: 3000, perDay: 50_000 };

interface Window {
  name: "minute" | "hour" | "day";
  quota: number;
  seconds: number;
  lengthMs: number;
  /** `"minute";r=`: the constant start of this window's item in the RateLimit header. */
  stateKey: string;
}

interface Counter {
  windowStartMs: number;
  used: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** The exhausted window that holds the request back longest (refusals only). */
  window?: "minute" | "hour" | "day";
}

export class RateLimiter {
  private readonly windows: readonly Window[];
  private readonly policy: string;
  /** Per account, one counter per window (same order as `windows`). */
  private readonly counters = new Map<string, Counter[]>();

  constructor(
    options: RateLimitOptions = {},
    /** Service-time ms since the epoch (the emulator's clock). */
    private readonly nowMs: () => number = Date.now,
    /** Real ms per service ms (the emulator's time scale): converts the waits the headers state. */
    private readonly timeScale = 1,
  ) {
    const o = { ...DEFAULT_RATE_LIMIT, ...options };
    const window = (name: Window["name"], quota: number, seconds: number): Window => ({
      name,
      quota,
      seconds,
      lengthMs: seconds * 1000,
      stateKey: `"${name}";r=`,
    });
    this.windows = [window("minute", o.perMinute, 60), window("hour", o.perHour, 3600), window("day", o.perDay, 86_400)];
    for (const w of this.windows) {
      if (!Number.isInteger(w.quota) || w.quota < 1)
        throw new RangeError(`rateLimit: per${w.name[0]?.toUpperCase()}${w.name.slice(1)} must be an integer >= 1, got ${String(w.quota)}`);
    }
    this.policy = this.windows.map((w) => `"${w.name}";q=${w.quota};w=${w.seconds}`).join(", ");
  }

  /**
   * Counts one request of the account (a refused one is not counted) and says whether it may run.
   * Runs before every v2 request: plain loops and one string, no per-call closures or arrays.
   */
  take(accountId: string): RateDecision {
    const now = this.nowMs();
    let counters = this.counters.get(accountId);
    if (!counters) {
      counters = this.windows.map(() => ({ windowStartMs: 0, used: 0 }));
      this.counters.set(accountId, counters);
    }
    let blockedFor = 0;
    let blockedBy: Window | undefined;
    for (let i = 0; i < this.windows.length; i++) {
      const w = this.windows[i] as Window;
      const c = counters[i] as Counter;
      const start = Math.floor(now / w.lengthMs) * w.lengthMs;
      if (c.windowStartMs !== start) {
        c.windowStartMs = start;
        c.used = 0;
      }
      if (c.used >= w.quota) {
        const left = this.secondsLeft(c, w, now);
        if (left >= blockedFor) {
          blockedFor = left;
          blockedBy = w;
        }
      }
    }
    const allowed = blockedFor === 0;
    let state = "";
    for (let i = 0; i < this.windows.length; i++) {
      const w = this.windows[i] as Window;
      const c = counters[i] as Counter;
      if (allowed) c.used++;
      state += `${i === 0 ? "" : ", "}${w.stateKey}${Math.max(0, w.quota - c.used)};t=${this.secondsLeft(c, w, now)}`;
    }
    const headers: Record<string, string> = { ratelimit: state, "ratelimit-policy": this.policy };
    if (!allowed) headers["retry-after"] = String(blockedFor);
    return blockedBy ? { allowed, headers, window: blockedBy.name } : { allowed, headers };
  }

  /** Real seconds until the window resets, at least 1 (the headers' integer seconds). */
  private secondsLeft(c: Counter, w: Window, now: number): number {
    return Math.max(1, Math.ceil(((c.windowStartMs + w.lengthMs - now) * this.timeScale) / 1000));
  }
}

/** The options the rate limit is made from (a subset of the emulator's). */
interface RateLimitSettings {
  rateLimit: RateLimitOptions | false;
  /** Test seam: a wall clock the service time is derived from, instead of the emulator's. */
  rateLimitClock: (() => number) | undefined;
  timeScale: number;
}

/**
 * The admission of every authenticated request (the router's `admit`): counts it and returns the
 * rate-limit headers its answer carries, or refuses it 429 with Retry-After and a detail naming
 * the window; undefined when the rate limit is off.
 */
export function requestAdmission(
  options: RateLimitSettings,
  serviceNow: () => number,
): ((accountId: string) => Record<string, string>) | undefined {
  if (options.rateLimit === false) return undefined;
  const seam = options.rateLimitClock;
  const limiter = new RateLimiter(options.rateLimit, seam ? createClock(options.timeScale, seam).now : serviceNow, options.timeScale);
  return (accountId) => {
    const decision = limiter.take(accountId);
    if (decision.allowed) return decision.headers;
    const { headers } = decision;
    const detail = `rate limit exceeded for the ${decision.window ?? "minute"} window; retry after ${headers["retry-after"] ?? "?"} s (quota: ${headers["ratelimit-policy"] ?? ""})`;
    throw new Refusal(429, detail, [], headers);
  };
}
