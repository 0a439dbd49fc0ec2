/**
 * The external workers of one endpoint: real processes that pull its jobs over HTTP (job-take,
 * job-done, job-stream, ping, job-stop). The endpoint is served externally from the first request of
 * such a worker until none has been heard from for `workerPresenceMs` (service time, at least
 * PRESENCE_REAL_MIN_MS real), or for good when its image is declared external. While it is, the
 * endpoint hands its queue to parked job-takes instead of simulated workers.
 *
 * A worker holding jobs that is not heard from (no request, no ping, nothing parked) for
 * `workerLostMs` (at least LOST_REAL_MIN_MS real) is counted unhealthy and its jobs FAIL (a retry
 * runs them again); the job is not requeued because a worker that went silent may still be running it.
 */
import type { Clock } from "../../clock";
import type { EndpointSpec, WorkerView } from "../contract";
import type { Job } from "../job";
import type { ResolvedOptions } from "../options";
import type { LogRing } from "../../logs/logRing";
import { Task, type Scheduler } from "../scheduler";
import { ExternalRun, ExternalWorker } from "./externalWorker";
import { holdRealMs, LOST_REAL_MIN_MS, PRESENCE_REAL_MIN_MS, withRealFloor } from "./timing";

/** What the pool needs from its endpoint. */
export interface ExternalHost {
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  readonly spec: EndpointSpec;
  /** The next waiting job (normal priority first), already removed from its queue. */
  nextJob(): Job | undefined;
  jobStarted(job: Job, worker: { readonly id: string }, now: number): void;
  jobChunk(job: Job, chunk: unknown): void;
  jobEnded(job: Job, status: "COMPLETED" | "FAILED" | "TIMED_OUT", output: unknown, error: string | undefined): void;
  /** Dispatch and rescale soon (the serving state changed). */
  kick(): void;
  /** A worker's log (workerLogBook.ts). */
  logOf(workerId: string): LogRing;
  /** The worker is gone: `line` (if any) ends its log, which is kept a while. */
  logStopped(workerId: string, line?: string): void;
}

/** A job as job-take hands it to a worker. */
export interface TakenJob {
  id: string;
  input: Record<string, unknown>;
  s3Config?: unknown;
}

/** What a worker posted to job-done, already validated. */
export interface DonePost {
  output?: unknown;
  error?: unknown;
  status?: string | undefined;
  stopPod?: boolean | undefined;
}

/** Something that ends when its HTTP client goes away. */
export interface Closable {
  on(event: "close", fn: () => void): unknown;
  off(event: "close", fn: () => void): unknown;
}

interface Taker {
  worker: ExternalWorker;
  max: number;
  give(jobs: TakenJob[]): void;
}

export class ExternalWorkers {
  private readonly workers = new Map<string, ExternalWorker>();
  private readonly takers: Taker[] = [];
  private lastSeen = -Infinity;
  private readonly sweepTask = new Task(() => this.sweep());
  private closed = false;

  constructor(
    private readonly host: ExternalHost,
    /** The endpoint's image is declared external: jobs wait for a worker even before the first one. */
    public declared: boolean,
  ) {}

  /** True while the endpoint's jobs go to external workers only. */
  get serving(): boolean {
    if (this.declared || this.takers.length > 0) return true;
    return this.host.clock.now() - this.lastSeen < this.presenceMs();
  }

  /** Booted external workers (idle + running), for the dynamic rate-limit rule. */
  get ready(): number {
    let n = 0;
    for (const w of this.workers.values()) if (w.lostAt === 0) n++;
    return n;
  }

  private presenceMs(): number {
    return withRealFloor(this.host.clock, this.host.opts.workerPresenceMs, PRESENCE_REAL_MIN_MS);
  }

  private lostMs(): number {
    return withRealFloor(this.host.clock, this.host.opts.workerLostMs, LOST_REAL_MIN_MS);
  }

  /** Records a request from worker `id` (creating it on first sight) and returns it. */
  seen(id: string): ExternalWorker {
    const now = this.host.clock.now();
    const wasServing = this.serving;
    let w = this.workers.get(id);
    if (!w) {
      w = new ExternalWorker(id, now);
      this.workers.set(id, w);
      this.host.logOf(id).write("system", `worker ${id} connected: its first request to the job API`);
    }
    // A worker counted lost that speaks again is back (its old jobs have already failed).
    w.lostAt = 0;
    w.lastSeen = now;
    this.lastSeen = now;
    if (!this.sweepTask.scheduled) this.host.sched.in(this.sweepTask, this.sweepEveryMs());
    if (!wasServing) this.host.kick();
    return w;
  }

  /** job-take: up to `max` jobs now, or parks until one arrives or the hold passes (then none). */
  take(w: ExternalWorker, max: number, res: Closable): Promise<TakenJob[]> {
    const now = this.pull(w, max);
    if (now.length > 0 || this.closed) return Promise.resolve(now);
    return new Promise<TakenJob[]>((resolve) => {
      let done = false;
      const finish = (jobs: TakenJob[]): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        res.off("close", onClose);
        const i = this.takers.indexOf(taker);
        if (i >= 0) this.takers.splice(i, 1);
        this.unpark(w);
        resolve(jobs);
      };
      const onClose = (): void => finish([]);
      const taker: Taker = { worker: w, max, give: finish };
      const timer = setTimeout(onClose, holdRealMs(this.host.clock, this.host.opts.workerPollWaitMs));
      timer.unref();
      res.on("close", onClose);
      w.parked++;
      this.takers.push(taker);
    });
  }

  /** Hands waiting jobs to parked job-takes, oldest request first. */
  dispatch(): void {
    while (this.takers.length > 0) {
      const t = this.takers[0] as Taker;
      const jobs = this.pull(t.worker, t.max);
      if (jobs.length === 0) break;
      t.give(jobs);
    }
  }

  /** job-stop: the ids to stop now, or parks until there are some or the hold passes (then none). */
  stopPoll(w: ExternalWorker, res: Closable): Promise<string[]> {
    if (w.stops.length > 0 || this.closed) return Promise.resolve(this.drainStops(w));
    // One parked job-stop per worker: an older one answers empty.
    w.stopWaiter?.();
    return new Promise<string[]>((resolve) => {
      let done = false;
      const finish = (drain: boolean): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        res.off("close", onClose);
        if (w.stopWaiter === onWake) w.stopWaiter = undefined;
        this.unpark(w);
        // A client that went away gets nothing, so the ids wait for its next job-stop.
        resolve(drain ? this.drainStops(w) : []);
      };
      const onClose = (): void => finish(false);
      const onWake = (): void => finish(true);
      const timer = setTimeout(onWake, holdRealMs(this.host.clock, this.host.opts.workerPollWaitMs));
      timer.unref();
      res.on("close", onClose);
      w.parked++;
      w.stopWaiter = onWake;
    });
  }

  /** job-done: a progress update or the job's result. A post for a job the worker no longer holds is ignored. */
  done(w: ExternalWorker, jobId: string, post: DonePost, isStream: boolean): void {
    if (post.stopPod === true) w.retire = true;
    const run = w.runs.get(jobId);
    if (!run || run.job.gone || run.job.status !== "IN_PROGRESS") return;
    const job = run.job;
    if (post.error === undefined && post.status === "IN_PROGRESS") {
      // Partial output, shown by /status until the result arrives.
      job.output = post.output;
      job.notify();
      return;
    }
    this.end(run);
    if (post.error !== undefined) {
      const error = typeof post.error === "string" ? post.error : JSON.stringify(post.error);
      this.host.jobEnded(job, "FAILED", undefined, error);
      return;
    }
    let output = post.output;
    // A generator's final post carries [] (or nothing): the job's output is then the chunks it streamed.
    const empty = output === undefined || (Array.isArray(output) && output.length === 0);
    if (isStream && empty && run.chunks.length > 0) output = run.chunks;
    this.host.jobEnded(job, "COMPLETED", output, undefined);
  }

  /** job-stream: one chunk of a job the worker holds (ignored otherwise). */
  chunk(w: ExternalWorker, jobId: string, output: unknown): void {
    const run = w.runs.get(jobId);
    if (!run || run.job.gone || run.job.status !== "IN_PROGRESS") return;
    run.chunks.push(output);
    this.host.jobChunk(run.job, output);
  }

  /**
   * The job ended from outside (cancel, TTL) while an external worker held it: the worker is told
   * through job-stop. False when no external worker holds it.
   */
  release(job: Job): boolean {
    const w = job.workerId === undefined ? undefined : this.workers.get(job.workerId);
    const run = w?.runs.get(job.id);
    if (!w || !run) return false;
    this.end(run);
    w.stop(job.id);
    return true;
  }

  counts(): { idle: number; running: number; unhealthy: number } {
    const c = { idle: 0, running: 0, unhealthy: 0 };
    for (const w of this.workers.values()) c[w.status]++;
    return c;
  }

  views(): WorkerView[] {
    const spec = this.host.spec;
    return [...this.workers.values()].map((w) => ({
      id: w.id,
      status: w.status,
      gpuTypeId: spec.computeType === "GPU" ? (spec.gpuTypeIds[0] ?? null) : null,
      dataCenterId: spec.dataCenterIds[0] ?? "local",
      // Not a machine of the service: it costs nothing.
      costPerHr: 0,
      createdAtMs: w.createdAt,
      version: spec.version,
    }));
  }

  /** The worker as last heard from, if it is known. */
  get(id: string): ExternalWorker | undefined {
    return this.workers.get(id);
  }

  /**
   * The worker is gone (its process exited): jobs it held fail with `why` and it is listed unhealthy
   * for a while; a worker that held nothing is simply forgotten.
   */
  gone(id: string, why: string): void {
    const w = this.workers.get(id);
    if (!w || w.lostAt > 0) return;
    // Its process's end is in its log already (processes.ts).
    if (w.runs.size === 0) this.forget(w);
    else this.lose(w, why);
  }

  /** Answers every parked request (empty) and stops the clock work. */
  shutdown(): void {
    this.closed = true;
    this.declared = false;
    this.host.sched.clear(this.sweepTask);
    for (const t of [...this.takers]) t.give([]);
    for (const w of this.workers.values()) {
      for (const run of w.runs.values()) this.host.sched.clear(run);
      w.stopWaiter?.();
    }
  }

  // --- internals -----------------------------------------------------------------------------

  private pull(w: ExternalWorker, max: number): TakenJob[] {
    const out: TakenJob[] = [];
    while (out.length < max) {
      const job = this.host.nextJob();
      if (!job) break;
      out.push(this.start(w, job));
    }
    return out;
  }

  private start(w: ExternalWorker, job: Job): TakenJob {
    const now = this.host.clock.now();
    const run = new ExternalRun(job, w, this.timedOut);
    w.runs.set(job.id, run);
    this.host.jobStarted(job, w, now);
    this.host.sched.set(run, now + job.executionTimeoutMs);
    const taken: TakenJob = { id: job.id, input: job.input };
    if (job.s3Config !== undefined) taken.s3Config = job.s3Config;
    return taken;
  }

  private readonly timedOut = (run: ExternalRun): void => {
    const job = run.job;
    this.end(run);
    if (job.gone || job.status !== "IN_PROGRESS") return;
    this.host.jobEnded(job, "TIMED_OUT", undefined, `job exceeded its executionTimeout of ${job.executionTimeoutMs} ms`);
    run.worker.stop(job.id);
  };

  private end(run: ExternalRun): void {
    this.host.sched.clear(run);
    run.worker.runs.delete(run.job.id);
    if (run.worker.runs.size === 0) run.worker.idleSince = this.host.clock.now();
  }

  /** The worker is no longer listed; its log is kept among the endpoint's stopped ones. */
  private forget(w: ExternalWorker, line?: string): void {
    this.workers.delete(w.id);
    this.host.logStopped(w.id, line);
  }

  private lose(w: ExternalWorker, why: string): void {
    w.lostAt = this.host.clock.now();
    this.host.logOf(w.id).write("system", `worker ${w.id} counted lost: ${why}`);
    for (const run of [...w.runs.values()]) {
      this.end(run);
      this.host.jobEnded(run.job, "FAILED", undefined, why);
    }
  }

  private drainStops(w: ExternalWorker): string[] {
    const ids = w.stops;
    w.stops = [];
    for (const id of ids) w.told.add(id);
    return ids;
  }

  private unpark(w: ExternalWorker): void {
    w.parked--;
    const now = this.host.clock.now();
    w.lastSeen = now;
    this.lastSeen = now;
  }

  private sweepEveryMs(): number {
    return Math.min(this.lostMs(), this.presenceMs()) / 3;
  }

  /** Counts silent workers lost (failing their jobs), forgets departed ones, ends the serving window. */
  private sweep(): void {
    if (this.closed) return;
    const now = this.host.clock.now();
    const lostMs = this.lostMs();
    for (const w of [...this.workers.values()]) {
      if (w.lostAt > 0) {
        if (now - w.lostAt >= this.host.opts.unhealthyLingerMs) this.forget(w);
        continue;
      }
      if (w.parked > 0 || now - w.lastSeen < lostMs) continue;
      if (w.runs.size === 0) {
        this.forget(w, `worker ${w.id} left: no request or ping for ${Math.round(now - w.lastSeen)} ms (service time)`);
        continue;
      }
      const silent = Math.round(now - w.lastSeen);
      this.lose(w, `worker ${w.id} stopped answering while it held the job: no request or ping for ${silent} ms (service time)`);
    }
    // Once the window has passed, simulated workers take over the queue.
    if (!this.serving) this.host.kick();
    if (this.workers.size > 0 || now - this.lastSeen < this.presenceMs()) {
      this.host.sched.in(this.sweepTask, this.sweepEveryMs());
    }
  }
}
