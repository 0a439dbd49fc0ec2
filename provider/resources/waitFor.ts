// Readiness waiting: poll the service with a growing interval until the resource is ready or the
// user's deadline passes, reporting progress through the log. No retries of its own: a poll that
// fails has already been retried by the transport, and its error ends the wait.

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
    await deps.sleep(Math.max(0, Math.min(delay, deadline - now)));
    delay = Math.min(delay * deps.poll.factor, deps.poll.maxMs);
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
