/**
 * Webhook delivery: one POST of the finished job's record plus its `input` to the URL the job gave.
 * Sent for every final state (COMPLETED, FAILED, TIMED_OUT, CANCELLED), not for a job deleted by its
 * TTL. Anything but HTTP 200 (or a connection failure) is retried, up to `webhookAttempts` POSTs in
 * all, `webhookRetryGapMs` apart (service time). Only that URL is ever contacted.
 */
import type { Clock } from "../clock";
import { jsonText } from "../http/respond";
import type { ResolvedOptions } from "./options";
import { Task, type Scheduler } from "./scheduler";

/** Below this a local HTTP round trip is not reliably possible, whatever the time scale. */
const MIN_REAL_TIMEOUT_MS = 1000;

export class WebhookSender {
  private readonly pending = new Set<Task>();
  private readonly inflight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly sched: Scheduler,
    private readonly opts: ResolvedOptions,
  ) {}

  send(url: string, body: unknown): void {
    if (this.closed) return;
    this.attempt(url, jsonText(body), 1);
  }

  private attempt(url: string, payload: string, n: number): void {
    const ctl = new AbortController();
    this.inflight.add(ctl);
    const timeout = Math.max(MIN_REAL_TIMEOUT_MS, this.clock.scaled(this.opts.webhookTimeoutMs));
    const timer = setTimeout(() => ctl.abort(), timeout);
    timer.unref();
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payload,
      signal: ctl.signal,
      redirect: "manual",
    })
      .then(async (res) => {
        await res.body?.cancel().catch(() => undefined);
        return res.status === 200;
      })
      .catch(() => false)
      .then((ok) => {
        clearTimeout(timer);
        this.inflight.delete(ctl);
        if (ok || this.closed || n >= this.opts.webhookAttempts) return;
        const task = new Task(() => {
          this.pending.delete(task);
          this.attempt(url, payload, n + 1);
        });
        this.pending.add(task);
        this.sched.in(task, this.opts.webhookRetryGapMs);
      });
  }

  close(): void {
    this.closed = true;
    for (const t of this.pending) this.sched.clear(t);
    this.pending.clear();
    for (const c of this.inflight) c.abort();
    this.inflight.clear();
  }
}
