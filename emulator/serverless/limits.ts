/**
 * Per account, per endpoint, per route limits: a request rate over a fixed window and a number of
 * requests in flight. Dynamic rule: the effective limit is max(base, readyWorkers x allowance), so a
 * busy endpoint with many workers accepts more traffic. Beyond a limit: 429 with Retry-After (seconds,
 * in service time like every other duration of the emulator).
 */
import type { Clock } from "../clock";
import { HttpError } from "../http/errors";
import type { LimitedRoute, ResolvedOptions, RouteLimit } from "./options";

interface Bucket {
  windowStart: number;
  count: number;
  inflight: number;
}

export const ROUTE_PATHS: Record<LimitedRoute, string> = {
  run: "/run",
  runsync: "/runsync",
  status: "/status",
  stream: "/stream",
  cancel: "/cancel",
  retry: "/retry",
  purgeQueue: "/purge-queue",
  openai: "/openai/*",
  requests: "/requests",
  health: "/health",
  lb: "load-balancing endpoint requests",
};

function effective(base: number | null, perWorker: number | null | undefined, workers: number): number {
  if (base === null) return Infinity;
  if (perWorker === null || perWorker === undefined) return base;
  return Math.max(base, workers * perWorker);
}

/** A runtime whose requests are limited: its limiter, and the workers the dynamic rule counts. */
export interface LimitedRuntime {
  readonly limiter: Limiter;
  readonly readyWorkers: number;
}

/** A token for one admitted request; `release()` once it is answered. */
export interface Admission {
  release(): void;
}

const NOOP: Admission = { release: () => undefined };

export class Limiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly opts: ResolvedOptions,
  ) {}

  /** Admits one request or throws a 429 HttpError. */
  admit(accountId: string, route: LimitedRoute, readyWorkers: number): Admission {
    const base: RouteLimit = this.opts.limits[route];
    if (base.rate === null && base.concurrency === null) return NOOP;
    const extra = this.opts.allowance[route];
    const key = `${route}\u0000${accountId}`;
    let b = this.buckets.get(key);
    const now = this.clock.now();
    const window = this.opts.rateWindowMs;
    if (!b) {
      b = { windowStart: now, count: 0, inflight: 0 };
      this.buckets.set(key, b);
    } else if (now - b.windowStart >= window) {
      b.windowStart = now;
      b.count = 0;
    }
    const rate = effective(base.rate, extra?.rate, readyWorkers);
    if (b.count >= rate) {
      const retryAfter = Math.max(1, Math.ceil((b.windowStart + window - now) / 1000));
      throw new HttpError(
        429,
        `rate limit exceeded for ${ROUTE_PATHS[route]}: at most ${rate} requests per ${window / 1000} s per account on this endpoint; retry after ${retryAfter} s`,
        { "retry-after": String(retryAfter) },
      );
    }
    const conc = effective(base.concurrency, extra?.concurrency, readyWorkers);
    if (b.inflight >= conc) {
      throw new HttpError(
        429,
        `concurrency limit exceeded for ${ROUTE_PATHS[route]}: at most ${conc} requests in flight per account on this endpoint; retry after 1 s`,
        { "retry-after": "1" },
      );
    }
    b.count++;
    b.inflight++;
    const bucket = b;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        bucket.inflight--;
      },
    };
  }
}
