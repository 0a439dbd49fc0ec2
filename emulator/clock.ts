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
  /** setTimeout for a service-time duration; the timer never keeps the process alive. */
  after(serviceMs: number, fn: () => void): NodeJS.Timeout;
  /** Resolves after a service-time duration. */
  sleep(serviceMs: number): Promise<void>;
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
      const timer = setTimeout(fn, clock.scaled(serviceMs));
      timer.unref();
      return timer;
    },
    sleep: (serviceMs) => new Promise((resolve) => clock.after(serviceMs, resolve)),
  };
  return clock;
}
