/**
 * One timer for everything the job side waits on (job expiry, execution timeouts, cold starts, idle
 * timeouts, handler delays, long-poll windows, webhook retry gaps).
 *
 * Why: with tens of thousands of retained jobs, a setTimeout per job costs memory and churn. Instead
 * every deadline is an entry in an indexed binary min-heap keyed by service time, and a single
 * unref'd timer is armed for the earliest one. Entries carry their own heap index so a deadline can
 * be moved or cancelled in O(log n) without searching.
 */
import type { Clock, ServiceTimer } from "../clock";

/** Something with a deadline. `idx` is owned by the scheduler (-1 when not scheduled). */
export interface Timed {
  /** Service-time ms at which `fire()` runs. */
  at: number;
  idx: number;
  fire(): void;
}

/** A reusable timed callback, for owners that need several independent deadlines. */
export class Task implements Timed {
  at = 0;
  idx = -1;
  constructor(public fn: () => void) {}
  fire(): void {
    this.fn();
  }
  get scheduled(): boolean {
    return this.idx >= 0;
  }
}

export class Scheduler {
  private readonly heap: Timed[] = [];
  private timer: ServiceTimer | undefined;
  private armedAt = Infinity;
  private closed = false;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `t` at service time `at`, moving it if it was already scheduled. */
  set(t: Timed, at: number): void {
    if (this.closed) return;
    if (t.idx >= 0) {
      const before = t.at;
      t.at = at;
      if (at < before) this.up(t.idx);
      else this.down(t.idx);
    } else {
      t.at = at;
      t.idx = this.heap.length;
      this.heap.push(t);
      this.up(t.idx);
    }
    if (at < this.armedAt) this.arm();
  }

  /** Schedules `t` a service-time duration from now. */
  in(t: Timed, serviceMs: number): void {
    this.set(t, this.clock.now() + serviceMs);
  }

  clear(t: Timed): void {
    const i = t.idx;
    if (i < 0) return;
    const last = this.heap.pop() as Timed;
    t.idx = -1;
    if (i < this.heap.length) {
      this.heap[i] = last;
      last.idx = i;
      this.up(i);
      this.down(last.idx);
    }
    // The armed timer may now be early; it re-arms itself when it finds nothing due.
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
    for (const t of this.heap) t.idx = -1;
    this.heap.length = 0;
  }

  private arm(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const head = this.heap[0];
    if (!head || this.closed) {
      this.armedAt = Infinity;
      return;
    }
    this.armedAt = head.at;
    this.timer = this.clock.after(head.at - this.clock.now(), this.onTimer);
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = this.clock.now();
    for (;;) {
      const head = this.heap[0];
      if (!head || head.at > now || this.closed) break;
      this.clear(head);
      try {
        head.fire();
      } catch (err) {
        // A failing callback must not stop the clock for everything else.
        process.emitWarning(`job scheduler task failed: ${String(err)}`);
      }
    }
    this.arm();
  };

  private up(i: number): void {
    const h = this.heap;
    const t = h[i] as Timed;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Timed;
      if (parent.at <= t.at) break;
      h[i] = parent;
      parent.idx = i;
      i = p;
    }
    h[i] = t;
    t.idx = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const n = h.length;
    const t = h[i] as Timed;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (h[r] as Timed).at < (h[l] as Timed).at) c = r;
      const child = h[c] as Timed;
      if (child.at >= t.at) break;
      h[i] = child;
      child.idx = i;
      i = c;
    }
    h[i] = t;
    t.idx = i;
  }
}
