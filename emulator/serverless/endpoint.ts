/**
 * The job side of one endpoint: its jobs, its two waiting queues (normal and low priority), its
 * workers and the counters /health reports. Every job transition goes through here so counters,
 * queues, expiry deadlines, long-poll wake-ups and webhooks stay consistent.
 *
 * Costs per operation are O(1) (map lookups, intrusive queue links, counters) or O(log n) (the expiry
 * deadline in the shared scheduler heap); nothing scans all jobs except purge and endpoint deletion.
 */
import { randomUUID } from "node:crypto";
import type { EndpointSpec, WorkerView } from "./contract";
import type { JobFault } from "../faults";
import type { JobHandler } from "./handlers/types";
import { ExternalWorkers, type ExternalHost } from "./external/pool";
import { SpawnedWorkers, type SpawnHost } from "./external/processes";
import { RETENTION_REAL_MIN_MS, withRealFloor } from "./external/timing";
import { HttpError } from "../http/errors";
import { isFinal, Job, toRecord, type JobOrigin, type JobOwner, type JobStatus } from "./job";
import { Limiter, type LimitedRuntime } from "./limits";
import { JobQueue } from "./queue";
import { RequestsLog } from "./requestsLog";
import { desiredWorkers } from "./scaler";
import { Task } from "./scheduler";
import type { JobRequest } from "./schemas";
import type { ServiceEnv } from "./serviceEnv";
import type { LogRing } from "../logs/logRing";
import { splitOutput } from "./streamChunks";
import { Worker, type WorkerHost, type WorkerStatus } from "./workers";

export interface HealthBody {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: { idle: number; initializing: number; ready: number; running: number; throttled: number; unhealthy: number };
}

export class EndpointRuntime implements JobOwner, WorkerHost, ExternalHost, SpawnHost, LimitedRuntime {
  spec: EndpointSpec;
  handler: JobHandler;
  readonly jobs = new Map<string, Job>();
  private readonly normal = new JobQueue();
  private readonly low = new JobQueue();
  private readonly workerMap = new Map<string, Worker>();
  private readonly idle: Worker[] = [];
  /** Workers freed while dispatch() runs; they rejoin `idle` after it, so one pass stays bounded. */
  private readonly freed: Worker[] = [];
  private dispatching = false;
  private kicked = false;
  private dead = false;

  /** initializing + idle + running workers. */
  live = 0;
  /** Booted workers (idle + running): the dynamic rate-limit rule's multiplier. */
  ready = 0;
  private initializing = 0;
  private throttled = 0;
  private running = 0;
  private completed = 0;
  private failed = 0;
  private retried = 0;
  /** Jobs the simulated workers of the current release have started (worker faults' `@Njobs`). */
  private releaseJobs = 0;

  readonly log: RequestsLog;
  readonly limiter: Limiter;
  /** Real workers pulling this endpoint's jobs over HTTP (the worker pull protocol). */
  readonly external: ExternalWorkers;
  /** Worker processes the emulator starts for images mapped to a command. */
  readonly spawned: SpawnedWorkers;
  private readonly scaleTask = new Task(() => this.kick());

  constructor(
    private readonly env: ServiceEnv,
    spec: EndpointSpec,
  ) {
    this.spec = spec;
    this.handler = env.handlerFor(spec.imageName);
    this.log = new RequestsLog(env.opts.requestsLogSize);
    this.limiter = new Limiter(env.clock, env.opts);
    this.external = new ExternalWorkers(this, env.isExternalImage(spec.imageName));
    this.spawned = new SpawnedWorkers(this);
    this.kick();
  }

  get clock() {
    return this.env.clock;
  }
  get sched() {
    return this.env.sched;
  }
  get opts() {
    return this.env.opts;
  }
  get deps() {
    return this.env.deps;
  }
  newWorkerId(): string {
    return this.env.newWorkerId();
  }
  get workerLogs() {
    return this.env.workerLogs;
  }
  commandFor(imageName: string): string | undefined {
    return this.env.workerCommandFor(imageName);
  }
  /** WorkerHost, ExternalHost, SpawnHost: a worker's log. */
  logOf(workerId: string): LogRing {
    return this.env.logs.of(this.spec.id, workerId);
  }
  /** The worker is gone: `line` (if any) ends its log, which is kept a while (workerLogBook.ts). */
  logStopped(workerId: string, line?: string): void {
    if (line !== undefined) this.env.logs.of(this.spec.id, workerId).write("system", line);
    this.env.logs.stopped(this.spec.id, workerId);
  }
  /** Booted workers, simulated and external: the dynamic rate-limit rule's multiplier. */
  get readyWorkers(): number {
    return this.ready + this.external.ready;
  }

  // --- jobs ----------------------------------------------------------------------------------

  submit(accountId: string, req: JobRequest, origin: JobOrigin, retentionMs: number): Job {
    const now = this.clock.now();
    const policy = req.policy;
    const ttl = policy?.ttl ?? this.opts.defaultTtlMs;
    const exec =
      policy?.executionTimeout ?? (this.spec.executionTimeoutMs > 0 ? this.spec.executionTimeoutMs : this.opts.defaultExecutionTimeoutMs);
    const lowPriority = policy?.lowPriority ?? false;
    const id = origin === "runsync" ? `sync-${randomUUID()}` : randomUUID();
    const job = new Job({
      id,
      owner: this,
      accountId,
      input: req.input,
      origin,
      submittedAt: now,
      ttlMs: ttl,
      executionTimeoutMs: exec,
      lowPriority,
      retentionMs,
      webhook: req.webhook,
      s3Config: req.s3Config,
    });
    this.jobs.set(id, job);
    this.sched.set(job, now + ttl);
    (lowPriority ? this.low : this.normal).push(job);
    this.log.add(job);
    this.kick();
    return job;
  }

  /** The caller's job, or undefined (unknown, another account's, or past its deadline). */
  find(accountId: string, id: string): Job | undefined {
    const job = this.jobs.get(id);
    if (!job || job.accountId !== accountId) return undefined;
    // The scheduler may fire a little late: the deadline itself is the truth.
    if (job.at <= this.clock.now()) {
      this.expire(job);
      return undefined;
    }
    return job;
  }

  /** ?ttl= on /status: a new TTL counted from submission; applies while the job is not finished. */
  setTtl(job: Job, ttlMs: number): void {
    job.ttlMs = ttlMs;
    if (isFinal(job.status)) return;
    const at = job.submittedAt + ttlMs;
    if (at <= this.clock.now()) this.expire(job);
    else this.sched.set(job, at);
  }

  /** Cancels a waiting or running job; a finished job is left as it is. */
  cancel(job: Job): void {
    if (job.status === "IN_QUEUE") {
      this.queueOf(job).remove(job);
      this.endJob(job, "CANCELLED", undefined, undefined);
    } else if (job.status === "IN_PROGRESS") {
      const w = job.workerId !== undefined ? this.workerMap.get(job.workerId) : undefined;
      this.endJob(job, "CANCELLED", undefined, undefined);
      w?.detach(job);
      this.external.release(job);
    }
  }

  retry(job: Job): void {
    if (job.status !== "FAILED" && job.status !== "TIMED_OUT") {
      throw new HttpError(400, `job ${job.id} is ${job.status}; only FAILED or TIMED_OUT jobs can be retried`);
    }
    const now = this.clock.now();
    this.failed--;
    this.retried++;
    job.status = "IN_QUEUE";
    job.output = undefined;
    job.error = undefined;
    job.workerId = undefined;
    job.startedAt = 0;
    job.finishedAt = 0;
    job.pending = undefined;
    job.streamed = false;
    job.streamDrained = false;
    // The retry is a new submission: its TTL and queue time count from now.
    job.submittedAt = now;
    job.enqueuedAt = now;
    this.sched.set(job, now + job.ttlMs);
    this.queueOf(job).push(job);
    this.kick();
  }

  /** Removes the caller's waiting jobs; running jobs are left alone. */
  purge(accountId: string): number {
    let removed = 0;
    for (const q of [this.normal, this.low]) {
      for (const job of q) {
        if (job.accountId !== accountId) continue;
        q.remove(job);
        this.drop(job);
        removed++;
      }
    }
    return removed;
  }

  /** JobOwner: the job's TTL or retention passed. */
  expire(job: Job): void {
    if (job.gone) return;
    this.sched.clear(job);
    switch (job.status) {
      case "IN_QUEUE":
        this.queueOf(job).remove(job);
        break;
      case "IN_PROGRESS": {
        this.running--;
        const w = job.workerId !== undefined ? this.workerMap.get(job.workerId) : undefined;
        job.gone = true;
        w?.detach(job);
        this.external.release(job);
        break;
      }
      case "COMPLETED":
        this.completed--;
        break;
      case "FAILED":
      case "TIMED_OUT":
        this.failed--;
        break;
      case "CANCELLED":
        break;
    }
    this.drop(job);
  }

  /** Stream items ready for /stream, drained by this call. */
  takeStream(job: Job): unknown[] {
    const p = job.pending;
    if (p && p.length > 0) {
      job.pending = undefined;
      return p;
    }
    if (!job.streamed && job.status === "COMPLETED" && !job.streamDrained) {
      // A job that did not stream hands out its final output once, as stream item(s).
      job.streamDrained = true;
      return job.output === undefined ? [] : splitOutput(job.output, this.opts.streamChunkMaxBytes);
    }
    return [];
  }

  streamReady(job: Job): boolean {
    return (job.pending !== undefined && job.pending.length > 0) || isFinal(job.status);
  }

  private drop(job: Job): void {
    this.sched.clear(job);
    job.gone = true;
    this.jobs.delete(job.id);
    job.output = undefined;
    job.pending = undefined;
    job.notify();
  }

  private queueOf(job: Job): JobQueue {
    return job.lowPriority ? this.low : this.normal;
  }

  /** Moves a job to a final state: counters, retention deadline, wake-ups, webhook. */
  private endJob(job: Job, status: JobStatus, output: unknown, error: string | undefined): void {
    const now = this.clock.now();
    if (job.status === "IN_PROGRESS") this.running--;
    job.status = status;
    job.finishedAt = now;
    // Progress updates were partial output: a job that did not complete keeps none.
    job.output = status === "COMPLETED" ? output : undefined;
    job.error = error;
    // A cancelled job's output is discarded, stream items not yet read included.
    if (status === "CANCELLED") job.pending = undefined;
    if (status === "COMPLETED") this.completed++;
    else if (status === "FAILED" || status === "TIMED_OUT") this.failed++;
    if (job.workerId !== undefined) this.logJob(job.workerId, `job ${job.id} ${status}${error === undefined ? "" : `: ${error}`}`);
    // At small time scales a result must still outlive a client that polls once a second.
    this.sched.set(job, now + withRealFloor(this.clock, job.retentionMs, RETENTION_REAL_MIN_MS));
    job.notify();
    if (job.webhook !== undefined) {
      this.env.webhooks.send(job.webhook, { ...toRecord(job, now), input: job.input });
    }
  }

  // --- WorkerHost ----------------------------------------------------------------------------

  workerBooted(_w: Worker): void {
    this.initializing--;
    this.ready++;
  }

  workerFreed(w: Worker): void {
    if (this.dispatching) this.freed.push(w);
    else this.idle.push(w);
    if (this.normal.size + this.low.size > 0) this.kick();
  }

  workerStopped(w: Worker, was: WorkerStatus, job: Job | undefined): void {
    if (was === "idle") {
      const i = this.idle.indexOf(w);
      if (i >= 0) this.idle.splice(i, 1);
    }
    if (was === "initializing") this.initializing--;
    else this.ready--;
    this.live--;
    this.logStopped(w.id, w.status === "unhealthy" ? `worker ${w.id} crashed` : `worker ${w.id} stopped`);
    this.env.deps.recordWorkerUsage({
      accountId: this.spec.accountId,
      endpointId: this.spec.id,
      workerId: w.id,
      templateId: this.spec.templateId,
      imageName: this.spec.imageName,
      gpuTypeId: w.placement.gpuTypeId,
      dataCenterId: w.placement.dataCenterId,
      costPerHr: w.placement.costPerHr,
      startMs: w.createdAt,
      endMs: w.stoppedAt,
    });
    if (w.status === "unhealthy" && !this.dead) {
      // A crashed worker stays visible as unhealthy for a moment, then disappears.
      const linger = new Task(() => this.workerMap.delete(w.id));
      this.sched.in(linger, this.opts.unhealthyLingerMs);
    } else {
      this.workerMap.delete(w.id);
    }
    if (job && job.status === "IN_PROGRESS" && !job.gone && !this.dead) {
      this.endJob(job, "FAILED", undefined, `worker ${w.id} was stopped while running the job`);
    }
    this.kick();
  }

  jobStarted(job: Job, w: { readonly id: string }, now: number): void {
    job.status = "IN_PROGRESS";
    job.startedAt = now;
    job.workerId = w.id;
    this.running++;
    this.logJob(w.id, `job ${job.id} started`);
  }

  /**
   * A job line in the worker's log: a simulated worker's own output (`container`, as a worker
   * SDK prints it); for a real worker, what the service saw (`system`), beside its own output.
   */
  private logJob(workerId: string, line: string): void {
    this.logOf(workerId).write(this.workerMap.has(workerId) ? "container" : "system", line);
  }

  jobChunk(job: Job, chunk: unknown): void {
    const items = splitOutput(chunk, this.opts.streamChunkMaxBytes);
    job.pending ??= [];
    for (const item of items) job.pending.push(item);
    job.streamed = true;
    job.notify();
  }

  jobEnded(job: Job, status: "COMPLETED" | "FAILED" | "TIMED_OUT", output: unknown, error: string | undefined): void {
    if (job.gone || job.status !== "IN_PROGRESS") return;
    this.endJob(job, status, output, error);
  }

  jobFault(w: Worker): JobFault | undefined {
    this.releaseJobs++;
    return this.env.deps.jobFaults?.draw({
      imageName: w.imageName,
      workerAgeMs: this.clock.now() - w.createdAt,
      releaseJobs: this.releaseJobs,
    });
  }

  shouldRetire(w: Worker): boolean {
    return this.dead || w.version !== this.spec.version || this.live > this.spec.workersMax;
  }

  mayStopIdle(_w: Worker): boolean {
    return this.live > this.spec.workersMin;
  }

  // --- workers and scaling -------------------------------------------------------------------

  /** ExternalHost: the next waiting job, normal priority first. */
  nextJob(): Job | undefined {
    return this.normal.shift() ?? this.low.shift();
  }

  /** Dispatch and rescale soon (once per turn of the event loop however many events asked). */
  kick(): void {
    if (this.kicked || this.dead) return;
    this.kicked = true;
    setImmediate(this.pump);
  }

  private readonly pump = (): void => {
    this.kicked = false;
    if (this.dead) return;
    this.dispatch();
    this.scale();
  };

  /**
   * Hands waiting jobs to idle workers: normal priority first, then low priority. The most recently
   * freed worker takes the next job (LIFO), so surplus workers stay idle long enough to scale down.
   */
  private dispatch(): void {
    if (this.external.serving) {
      this.external.dispatch();
      return;
    }
    this.dispatching = true;
    try {
      while (this.idle.length > 0) {
        const job = this.normal.shift() ?? this.low.shift();
        if (!job) break;
        const w = this.idle.pop() as Worker;
        w.start(job);
      }
    } finally {
      this.dispatching = false;
    }
    if (this.freed.length > 0) {
      for (const w of this.freed) if (w.status === "idle") this.idle.push(w);
      this.freed.length = 0;
      // Jobs that finished at once freed their workers: continue on the next turn, not recursively.
      if (this.normal.size + this.low.size > 0) this.kick();
    }
  }

  private scale(): void {
    if (this.external.serving) {
      // External workers serve the queue: simulated ones that are not running a job stop now.
      this.sched.clear(this.scaleTask);
      this.throttled = 0;
      for (const w of [...this.workerMap.values()]) if (w.status === "idle" || w.status === "initializing") w.stop();
      this.spawned.scale({ queued: this.normal.size, oldestQueued: this.normal.first, running: this.running });
      return;
    }
    const now = this.clock.now();
    const d = desiredWorkers({
      spec: this.spec,
      now,
      live: this.live,
      idle: this.idle.length,
      initializing: this.initializing,
      running: this.running,
      queued: this.normal.size,
      oldestQueued: this.normal.first,
    });
    if (d.recheckAt !== undefined) this.sched.set(this.scaleTask, d.recheckAt);
    else this.sched.clear(this.scaleTask);
    let missing = d.want - this.live;
    this.throttled = 0;
    while (missing > 0) {
      const placement = this.env.deps.place(this.spec);
      if ("error" in placement) {
        // No capacity for this worker now: it counts as throttled and placement is tried again later.
        this.throttled = missing;
        this.sched.in(this.scaleTask, this.opts.throttleRetryMs);
        break;
      }
      const w = new Worker(this.env.newWorkerId(), this, placement, this.spec.version);
      this.workerMap.set(w.id, w);
      this.live++;
      this.initializing++;
      missing--;
    }
  }

  /** The endpoint was updated; a new version is a rolling release that replaces idle workers. */
  changed(spec: EndpointSpec): void {
    const release = spec.version !== this.spec.version;
    this.spec = spec;
    this.external.declared = this.env.isExternalImage(spec.imageName);
    if (release) {
      this.handler = this.env.handlerFor(spec.imageName);
      this.releaseJobs = 0;
      for (const w of [...this.workerMap.values()]) {
        // Running workers finish their job first (they retire when they go idle).
        if (w.status === "idle" || w.status === "initializing") w.stop();
      }
    }
    // A lower workersMax: stop idle workers beyond it now.
    for (let i = this.idle.length - 1; i >= 0 && this.live > spec.workersMax; i--) this.idle[i]?.stop();
    this.kick();
  }

  /** The endpoint is gone: stop every worker and delete every job (parked requests then see 404). */
  deleted(): void {
    this.shutdown();
    for (const job of [...this.jobs.values()]) {
      if (job.status === "IN_PROGRESS") job.status = "CANCELLED";
      this.drop(job);
    }
    this.log.clear();
  }

  /** Service shutdown: stop workers (their usage is recorded), keep nothing scheduled. */
  shutdown(): void {
    this.dead = true;
    this.sched.clear(this.scaleTask);
    this.external.shutdown();
    this.spawned.shutdown();
    for (const w of [...this.workerMap.values()]) w.stop();
  }

  // --- views ---------------------------------------------------------------------------------

  views(): WorkerView[] {
    const out: WorkerView[] = [];
    for (const w of this.workerMap.values()) if (w.status !== "stopped") out.push(w.view());
    // A started process is listed with its placement; workers started elsewhere have none.
    const spawned = this.spawned.views();
    const ids = new Set(spawned.map((v) => v.id));
    return [...out, ...spawned, ...this.external.views().filter((v) => !ids.has(v.id))];
  }

  health(): HealthBody {
    let idle = 0;
    let running = 0;
    let unhealthy = 0;
    for (const w of this.workerMap.values()) {
      if (w.status === "idle") idle++;
      else if (w.status === "running") running++;
      else if (w.status === "unhealthy") unhealthy++;
    }
    const ext = this.external.counts();
    idle += ext.idle;
    running += ext.running;
    unhealthy += ext.unhealthy;
    return {
      jobs: {
        completed: this.completed,
        failed: this.failed,
        inProgress: this.running,
        inQueue: this.normal.size + this.low.size,
        retried: this.retried,
      },
      workers: {
        idle,
        initializing: this.initializing + this.spawned.initializing,
        ready: idle + running,
        running,
        throttled: this.throttled,
        unhealthy,
      },
    };
  }
}
