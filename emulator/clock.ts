/**
 * The emulator's sense of time. Every duration the emulator simulates or enforces (boot delays,
 * cold starts, TTLs, retention, webhook retry gaps, idle timeouts) is expressed in the service's own
 * units and passed through `scaled()`, so a test can run the service 100x faster while the API keeps
 * its documented units (a TTL is still given in ms, an idleTimeout in s).
 *
 * Time as the API reports it (timestamps, delayTime, executionTime, billing) is "service time":
 * real elapsed time divided by the scale, so figures stay consistent with the durations requested.
 */
export interface Clock {
  /** Multiplier applied to simulated durations: 0.01 makes a 10 s boot take 100 ms of real time. */
  readonly timeScale: number;
  /** Service-time milliseconds since the epoch (advances 1/timeScale as fast as real time). */
  now(): number;
  /** Real milliseconds to wait for a duration given in service milliseconds. */
  scaled(serviceMs: number): number;
  /**
   * Calls `fn` once `now()` has advanced by at least `serviceMs` (never earlier, and always
   * asynchronously); the wait never keeps the process alive.
   */
  after(serviceMs: number, fn: () => void): ServiceTimer;
  /** Resolves once `now()` has advanced by at least `serviceMs`. */
  sleep(serviceMs: number): Promise<void>;
}

/** A pending `Clock.after`; `cancel` is idempotent and harmless after the call. */
export interface ServiceTimer {
  cancel(): void;
}

export function createClock(timeScale = 1, realNow: () => number = Date.now): Clock {
  if (!Number.isFinite(timeScale) || timeScale <= 0) {
    throw new RangeError(`timeScale must be a positive number, got ${String(timeScale)}`);
  }
  const origin = realNow();
  const clock: Clock = {
    timeScale,
    now: () => origin + (realNow() - origin) / timeScale,
    scaled: (serviceMs) => Math.max(0, serviceMs * timeScale),
    after(serviceMs, fn) {
      // Why a target and a re-arm instead of one setTimeout: Node's timers run on a monotonic clock
      // of their own and may fire up to about a real millisecond before Date.now() has moved that
      // far; at timeScale 0.001 that millisecond is a whole service second, so a sleeper would
      // wake with now() short of what it asked for. Each firing checks the clock it answers to.
      const target = clock.now() + Math.max(0, serviceMs);
      let timer: NodeJS.Timeout | undefined;
      const arm = (realMs: number): void => {
        timer = setTimeout(check, realMs);
        timer.unref();
      };
      const check = (): void => {
        const remaining = target - clock.now();
        if (remaining > 0) {
          // At least 1 real ms: the clock cannot advance in less.
          arm(Math.max(1, Math.ceil(clock.scaled(remaining))));
          return;
        }
        timer = undefined;
        fn();
      };
      arm(Math.ceil(clock.scaled(Math.max(0, serviceMs))));
      return {
        cancel() {
          if (timer) clearTimeout(timer);
          timer = undefined;
        },
      };
    },
    sleep: (serviceMs) => new Promise((resolve) => clock.after(serviceMs, resolve)),
  };
  return clock;
}
