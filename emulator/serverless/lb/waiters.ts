/**
 * Requests waiting for a healthy worker of a load-balancing endpoint (none is healthy yet: cold
 * start, all unhealthy, or throttled). Each wait is bounded by a scheduler deadline; a caller that
 * hangs up stops waiting. Woken when a worker turns healthy, failed all at once when the endpoint
 * cannot start workers, is deleted or the service shuts down.
 */
import type { ServerResponse } from "node:http";
import { HttpError } from "../../http/errors";
import { Task, type Scheduler } from "../scheduler";
import type { LbWorker } from "./lbWorker";

class Waiter extends Task {
  onClose: () => void = () => undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly ok: (w: LbWorker) => void,
    private readonly ko: (err: HttpError) => void,
  ) {
    super(() => undefined);
  }

  resolve(w: LbWorker): void {
    this.res.off("close", this.onClose);
    this.ok(w);
  }

  reject(err: HttpError): void {
    this.res.off("close", this.onClose);
    this.ko(err);
  }
}

export class WorkerWaiters {
  private readonly waiting = new Set<Waiter>();

  constructor(private readonly sched: Scheduler) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Resolves with a worker, or rejects with `onTimeout()` after `serviceMs`. */
  wait(serviceMs: number, onTimeout: () => HttpError, res: ServerResponse): Promise<LbWorker> {
    return new Promise<LbWorker>((resolve, reject) => {
      const w = new Waiter(res, resolve, reject);
      w.onClose = () => this.settle(w, new HttpError(499, "the caller closed the connection while waiting for a worker"));
      w.fn = () => this.settle(w, onTimeout());
      res.once("close", w.onClose);
      this.waiting.add(w);
      this.sched.in(w, serviceMs);
    });
  }

  /** Hands a worker to every waiter (`pick` chooses per waiter, so load spreads). */
  wake(pick: () => LbWorker | undefined): void {
    for (const w of [...this.waiting]) {
      const worker = pick();
      if (!worker) return;
      this.waiting.delete(w);
      this.sched.clear(w);
      w.resolve(worker);
    }
  }

  failAll(err: HttpError): void {
    for (const w of [...this.waiting]) this.settle(w, err);
  }

  private settle(w: Waiter, err: HttpError): void {
    if (!this.waiting.delete(w)) return;
    this.sched.clear(w);
    w.reject(err);
  }
}
