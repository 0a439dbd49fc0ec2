// The account's rate-limit windows as the client knows them, shared by every request of a process
// to one API base URL with one key: a request goes while each window has quota left, counting the
// requests still in flight, and otherwise waits for the reset of the window that holds it longest.
//
// Why count: the service's RateLimit header tells what was left when it answered, but a Pulumi run
// sends many requests at once; those sent after that answer, and those in flight when it came, are
// not in it. Each request sent takes one from the estimate; each answer can only lower it within
// its window (`r` minus the other requests in flight), never raise it, since answers can arrive out
// of order. A request waits only when the estimate is spent, and then only until the reset: no
// spreading of the last calls of a window, which would leave quota unused at the end of a run.
//
// A new process starts from what the previous process of the same account and base URL knew (the
// previous `pulumi` operation's provider: rateLimitMemory.ts): a window it left spent holds the first
// request until its reset, so that request is not refused. What it left may be out of date (other
// clients of the account, a window that rolled over since), so until the first answer comes, one
// request goes at a time.
//
// The reset: `t` is whole seconds, rounded up, so each answer bounds the reset from above (answer
// time + t); the earliest such bound of a window is kept, the closest to the true reset. Past it
// the window is surely over: the estimate is the quota again, less the requests in flight (they
// may be counted in the new window), until answers to requests sent since tell the new state.

import { createHash } from "node:crypto";
import { WindowMemory, type RememberedWindow } from "./rateLimitMemory";
import type { RateLimitWindow } from "./retry";

/** Two answers whose resets differ by more than this are of different windows (rounding of `t` and latency stay below it). */
export const SAME_WINDOW_SLACK_MS = 2_000;

/** What the gate knows of one window. */
interface WindowState {
  name: string;
  quota: number | undefined;
  /** Requests the window can still take, less those sent and not yet seen in an answer. */
  remaining: number;
  /** The earliest upper bound on the reset seen; Infinity while a new window has had no answer. */
  resetAtMs: number;
  /** Answers to requests sent before this are of an earlier window (or unknown): ignored. */
  startedAtMs: number;
}

/** A request counted by `take`, given back to `settle` with its answer's windows. */
export interface GateTicket {
  sentAtMs: number;
  settled: boolean;
}

export type GateDecision =
  | { go: true; ticket: GateTicket }
  | {
      go: false;
      /** How long to wait before asking again. */
      waitMs: number;
      /** The spent window that holds the request longest, as the transport reports it (none while nothing is known yet). */
      window?: RateLimitWindow | undefined;
      /** True when the reset is not known yet (a new window spent by requests in flight): ask again on the next answer. */
      untilAnswer: boolean;
    };

/** How long to wait, at most, for an answer that tells a new window's state. */
export const UNKNOWN_RESET_RECHECK_MS = 1_000;

export class RateLimitGate {
  readonly #windows = new Map<string, WindowState>();
  #inFlight = 0;
  /** Whether an answer has come (with the windows, or without: then there are none). */
  #answered = false;
  #answerWaiters: (() => void)[] = [];
  readonly #memory: WindowMemory | undefined;

  /** With `memory`, starts from the windows it remembers that have not reset by `now`, and keeps it up to date. */
  constructor(memory?: WindowMemory, now = 0) {
    this.#memory = memory;
    for (const w of memory?.load(now) ?? []) this.#windows.set(w.name, { ...w, startedAtMs: now });
  }

  /** Counts a request that goes now, or says how long it must wait. */
  take(now: number): GateDecision {
    if (!this.#answered && this.#inFlight > 0) return { go: false, waitMs: UNKNOWN_RESET_RECHECK_MS, untilAnswer: true };
    const holding = this.#holdingState(now);
    if (holding) {
      const untilAnswer = holding.resetAtMs === Number.POSITIVE_INFINITY;
      const waitMs = untilAnswer ? UNKNOWN_RESET_RECHECK_MS : Math.max(1, holding.resetAtMs - now);
      return {
        go: false,
        waitMs,
        untilAnswer,
        window: { name: holding.name, remaining: 0, resetSeconds: waitMs / 1000, quota: holding.quota },
      };
    }
    for (const w of this.#windows.values()) w.remaining--;
    this.#inFlight++;
    this.#remember(now);
    return { go: true, ticket: { sentAtMs: now, settled: false } };
  }

  /** The spent window that holds requests back longest now, if any. */
  holding(now: number): RateLimitWindow | undefined {
    const w = this.#holdingState(now);
    return w && { name: w.name, remaining: 0, resetSeconds: Math.max(0, w.resetAtMs - now) / 1000, quota: w.quota };
  }

  #holdingState(now: number): WindowState | undefined {
    let holding: WindowState | undefined;
    for (const w of this.#windows.values()) {
      if (now >= w.resetAtMs) this.#rollOver(w, now);
      // A new window spent by requests that all failed without an answer: one goes, to learn its state.
      if (w.resetAtMs === Number.POSITIVE_INFINITY && this.#inFlight === 0) w.remaining = Math.max(w.remaining, 1);
      if (w.remaining <= 0 && (!holding || w.resetAtMs > holding.resetAtMs)) holding = w;
    }
    return holding;
  }

  /**
   * The request's answer came (its windows, empty without RateLimit headers), or (`answered` false)
   * it failed without one; `unsent`: it never reached the service (the connection could not be made),
   * so the windows it was counted in get its count back.
   */
  settle(ticket: GateTicket, now: number, windows: readonly RateLimitWindow[], answered = true, unsent = false): void {
    if (ticket.settled) return;
    ticket.settled = true;
    this.#inFlight--;
    if (unsent) {
      for (const w of this.#windows.values()) if (ticket.sentAtMs >= w.startedAtMs) w.remaining++;
      this.#remember(now);
    }
    if (answered) this.#answered = true;
    for (const seen of windows) this.#observe(seen, ticket, now);
    if (windows.length > 0) this.#remember(now);
    const waiters = this.#answerWaiters;
    this.#answerWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves on the next settled request (a spent new window's state may then be known). */
  nextAnswer(): Promise<void> {
    return new Promise((resolve) => this.#answerWaiters.push(resolve));
  }

  #observe(seen: RateLimitWindow, ticket: GateTicket, now: number): void {
    const upper = now + Math.max(0, seen.resetSeconds) * 1000;
    // This answer's count, less the other requests in flight, which it may not include yet.
    const left = seen.remaining - this.#inFlight;
    const known = this.#windows.get(seen.name);
    if (!known || (known.resetAtMs !== Number.POSITIVE_INFINITY && upper > known.resetAtMs + SAME_WINDOW_SLACK_MS)) {
      // The first answer, or one of a later window than the one known (it reset before the bound).
      this.#windows.set(seen.name, { name: seen.name, quota: seen.quota, remaining: left, resetAtMs: upper, startedAtMs: ticket.sentAtMs });
      return;
    }
    if (ticket.sentAtMs < known.startedAtMs) return;
    // An answer of an earlier window than the one known (a new window's first answer sets its reset).
    if (known.resetAtMs !== Number.POSITIVE_INFINITY && upper < known.resetAtMs - SAME_WINDOW_SLACK_MS) return;
    known.quota = seen.quota ?? known.quota;
    known.remaining = Math.min(known.remaining, left);
    known.resetAtMs = Math.min(known.resetAtMs, upper);
  }

  /** Hands the windows whose reset is known to the memory (a new window's is not, until its first answer). */
  #remember(now: number): void {
    if (!this.#memory) return;
    const known: RememberedWindow[] = [];
    for (const w of this.#windows.values())
      if (w.resetAtMs !== Number.POSITIVE_INFINITY)
        known.push({ name: w.name, quota: w.quota, remaining: w.remaining, resetAtMs: w.resetAtMs });
    // Nothing known (an API that sends no RateLimit headers, or only new windows): a record left
    // earlier is past its reset, or still true.
    if (known.length > 0) this.#memory.save(known, now);
  }

  /** The window is surely over: its quota again, less what is in flight, until an answer says more. */
  #rollOver(w: WindowState, now: number): void {
    w.remaining = (w.quota ?? Number.POSITIVE_INFINITY) - this.#inFlight;
    w.resetAtMs = Number.POSITIVE_INFINITY;
    w.startedAtMs = now;
  }
}

/**
 * One gate per account and API base URL in the process: every transport with the same key and base
 * URL (the provider's clients, a lookup's) spends the same quota; another API on the same host (the
 * job API beside the management API) has its own. Keyed by the clock too, so a test's fake clock
 * never shares a gate with real time. On the real clock (Date.now) the gate starts from, and keeps,
 * the record of the account and base URL that outlives the process (rateLimitMemory.ts); the key and
 * the record are named by a hash of the base URL and the API key, never the key.
 */
const gates = new WeakMap<() => number, Map<string, RateLimitGate>>();

export function sharedGate(clock: () => number, baseUrl: string, apiKey: string): RateLimitGate {
  const key = createHash("sha256").update(`${baseUrl}\n${apiKey}`).digest("hex").slice(0, 32);
  let byKey = gates.get(clock);
  if (!byKey) {
    byKey = new Map();
    gates.set(clock, byKey);
  }
  let gate = byKey.get(key);
  if (!gate) {
    gate = clock === Date.now ? new RateLimitGate(new WindowMemory(key), clock()) : new RateLimitGate();
    byKey.set(key, gate);
  }
  return gate;
}
