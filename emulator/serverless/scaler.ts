/**
 * How many workers an endpoint wants right now (a pure function, so the rules are easy to read and
 * test). Scaling up only; scale-down is each idle worker's idle timeout (never below workersMin).
 *
 *   always:         at least workersMin, at most workersMax
 *   QUEUE_DELAY:    one worker at once when jobs wait and there is no worker at all; otherwise one
 *                   more worker per job that has waited longer than scalerValue seconds and that no
 *                   idle or booting worker is about to take
 *   REQUEST_COUNT:  ceil((queued + running) / scalerValue)
 *
 * Only normal-priority jobs count as queued: lowPriority jobs never trigger a scale-up.
 */
import type { EndpointSpec } from "./contract";
import type { Job } from "./job";

export interface ScaleInput {
  spec: EndpointSpec;
  now: number;
  /** initializing + idle + running workers. */
  live: number;
  idle: number;
  initializing: number;
  /** Jobs in progress (any priority). */
  running: number;
  /** Normal-priority jobs waiting. */
  queued: number;
  /** The oldest normal-priority waiting job (the queue is FIFO by enqueue time). */
  oldestQueued: Job | undefined;
}

export interface ScaleDecision {
  want: number;
  /** When to look again (QUEUE_DELAY: when the next waiting job crosses the delay). */
  recheckAt?: number;
}

export function desiredWorkers(s: ScaleInput): ScaleDecision {
  const { spec } = s;
  const max = Math.max(0, spec.workersMax);
  const min = Math.min(Math.max(0, spec.workersMin), max);
  let want = Math.max(s.live, min);
  const decision: ScaleDecision = { want };
  if (spec.scalerType === "REQUEST_COUNT") {
    const per = spec.scalerValue > 0 ? spec.scalerValue : 1;
    want = Math.max(want, Math.ceil((s.queued + s.running) / per));
  } else if (s.queued > 0) {
    if (s.live === 0) want = Math.max(want, 1);
    const delayMs = Math.max(0, spec.scalerValue) * 1000;
    const threshold = s.now - delayMs;
    // Count overdue jobs from the head, but never more than could ever get a worker.
    let overdue = 0;
    let j = s.oldestQueued;
    while (j && j.enqueuedAt <= threshold && overdue < max) {
      overdue++;
      j = j.next;
    }
    const extra = overdue - s.idle - s.initializing;
    if (extra > 0) want = Math.max(want, s.live + extra);
    if (j && overdue < max) decision.recheckAt = j.enqueuedAt + delayMs;
  }
  decision.want = Math.min(want, max);
  return decision;
}
