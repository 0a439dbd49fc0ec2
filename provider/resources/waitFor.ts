// Readiness waiting: poll the service with a growing interval until the resource is ready or the
// user's deadline passes, reporting progress through the log. No retries of its own: a poll that
// fails has already been retried by the transport, and its error ends the wait.
//
// Polls fall on a beat every wait in the process shares: the next multiple of the current interval
// on the clock (so a wait is at most one interval, sometimes less). Resources waiting at the same
// time then poll at the same moments, and one list call serves them all
// (model/backend/sharedReads.ts); as intervals double, a longer interval's beats fall on a shorter
// one's.

import type { ProviderDeps } from "./deps";

export interface WaitSpec<T> {
  /** Names the resource in messages: `pod "trainer" (id abc123)`. */
  subject: string;
  /** What readiness means, for messages: "RUNNING with a public IP and port mappings". */
  goal: string;
  /** The deadline; 0 reads once and returns without waiting. */
  timeoutSeconds: number;
  poll(): Promise<T>;
  /** undefined when ready; otherwise the current state in a few words. */
  pending(value: T): string | undefined;
  /** A message when the resource can never become ready (the wait ends at once). */
  fatal?(value: T): string | undefined;
}

/** The deadline passed. `last` is the last state read, for the partial-create record. */
export class ReadinessTimeoutError<T = unknown> extends Error {
  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message);
  }
}
Object.defineProperty(ReadinessTimeoutError.prototype, "name", { value: "ReadinessTimeoutError", writable: true, configurable: true });

export async function waitFor<T>(deps: ProviderDeps, spec: WaitSpec<T>): Promise<T> {
  const start = deps.now();
  const deadline = start + spec.timeoutSeconds * 1000;
  let delay = deps.poll.initialMs;
  let lastState: string | undefined;
  let lastReport = start;
  for (let polls = 1; ; polls++) {
    const value = await spec.poll();
    if (spec.timeoutSeconds === 0) return value;
    const fatal = spec.fatal?.(value);
    if (fatal !== undefined) throw new ReadinessTimeoutError(`${spec.subject} cannot become ${spec.goal}: ${fatal}`, value);
    const state = spec.pending(value);
    const now = deps.now();
    const elapsed = seconds(now - start);
    if (state === undefined) {
      if (polls > 1) deps.log.info(`${spec.subject} is ${spec.goal} after ${elapsed}s`);
      return value;
    }
    if (now >= deadline) {
      throw new ReadinessTimeoutError(
        `${spec.subject} is not ${spec.goal} after ${elapsed}s (readyTimeoutSeconds: ${spec.timeoutSeconds}); last state: ${state}. ` +
          "The resource exists and stays in the stack; run `pulumi up` again to keep waiting, or raise readyTimeoutSeconds.",
        value,
      );
    }
    if (state !== lastState || now - lastReport >= deps.poll.progressEveryMs) {
      deps.log.info(`${spec.subject}: waiting until ${spec.goal} (${state}; ${elapsed}s of ${spec.timeoutSeconds}s)`);
      lastState = state;
      lastReport = now;
    }
    await deps.sleep(Math.max(0, Math.min(nextBeat(now, delay) - now, deadline - now)));
    delay = Math.min(delay * deps.poll.factor, deps.poll.maxMs);
  }
}

/** The first multiple of `interval` after `now`. */
export function nextBeat(now: number, interval: number): number {
  return (Math.floor(now / interval) + 1) * interval;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
