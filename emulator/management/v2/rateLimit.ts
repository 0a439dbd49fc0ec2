/**
 * The v2 per-account rate limit: fixed windows (minute, hour, day), each with a quota. Every
 * authenticated answer carries the live state and the policy as structured-field lists:
 *
 *     RateLimit-Policy: "minute";q=600;w=60, "hour";q=10000;w=3600, "day";q=100000;w=86400
 *     RateLimit: "minute";r=599;t=42, "hour";r=9999;t=1842, "day";r=99999;t=51042
 *
 * and a request over any quota is answered 429 with Retry-After (seconds until that window
 * resets) without running. Windows run in real time, not service time: the limit is about how
 * fast a client sends, and clients read Retry-After in real seconds.
 *
 * The default allows 10 requests per second on average over a minute: a careful client (creates,
 * then readiness polls with backoff) stays under it even for 100 resources, a client that polls
 * every resource in a tight loop does not.
 */

export interface RateLimitOptions {
  /** Requests per account per minute (default 600). */
  perMinute?: number;
  /** Requests per account per hour (default 10000). */
  perHour?: number;
  /** Requests per account per day (default 100000). */
  perDay?: number;
}

export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = { perMinute: 600, perHour: 10_000, perDay: 100_000 };

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
}

export class RateLimiter {
  private readonly windows: readonly Window[];
  private readonly policy: string;
  /** Per account, one counter per window (same order as `windows`). */
  private readonly counters = new Map<string, Counter[]>();

  constructor(
    options: RateLimitOptions = {},
    private readonly nowMs: () => number = Date.now,
  ) {
    const o = { ...DEFAULT_RATE_LIMIT, ...options };
    const window = (name: Window["name"], quota: number, seconds: number): Window => ({ name, quota, seconds, lengthMs: seconds * 1000, stateKey: `"${name}";r=` });
    this.windows = [window("minute", o.perMinute, 60), window("hour", o.perHour, 3600), window("day", o.perDay, 86_400)];
    for (const w of this.windows) {
      if (!Number.isInteger(w.quota) || w.quota < 1) throw new RangeError(`rateLimit: per${w.name[0]?.toUpperCase()}${w.name.slice(1)} must be an integer >= 1, got ${String(w.quota)}`);
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
    for (let i = 0; i < this.windows.length; i++) {
      const w = this.windows[i] as Window;
      const c = counters[i] as Counter;
      const start = Math.floor(now / w.lengthMs) * w.lengthMs;
      if (c.windowStartMs !== start) {
        c.windowStartMs = start;
        c.used = 0;
      }
      if (c.used >= w.quota) blockedFor = Math.max(blockedFor, secondsLeft(c, w, now));
    }
    const allowed = blockedFor === 0;
    let state = "";
    for (let i = 0; i < this.windows.length; i++) {
      const w = this.windows[i] as Window;
      const c = counters[i] as Counter;
      if (allowed) c.used++;
      state += `${i === 0 ? "" : ", "}${w.stateKey}${Math.max(0, w.quota - c.used)};t=${secondsLeft(c, w, now)}`;
    }
    const headers: Record<string, string> = { ratelimit: state, "ratelimit-policy": this.policy };
    if (!allowed) headers["retry-after"] = String(blockedFor);
    return { allowed, headers };
  }
}

function secondsLeft(c: Counter, w: Window, now: number): number {
  return Math.max(1, Math.ceil((c.windowStartMs + w.lengthMs - now) / 1000));
}
