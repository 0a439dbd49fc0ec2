/**
 * A simulated worker: initializing (cold start) -> idle <-> running -> stopped, or unhealthy after a
 * crash. It runs jobs in-process through the endpoint's handler. Its timers (boot, handler step,
 * execution timeout, idle timeout) are a handful of reusable scheduler tasks owned by the worker, so
 * running a job allocates no timer.
 */
import type { Clock } from "../clock";
import type { JobFault } from "../faults";
import type { LogRing } from "../logs/logRing";
import type { EndpointSpec, Placement, WorkerView } from "./contract";
import type { JobHandler } from "./handlers/types";
import type { Job } from "./job";
import type { ResolvedOptions } from "./options";
import { Run, type RunHost } from "./run";
import { type Scheduler, Task } from "./scheduler";

export type WorkerStatus = "initializing" | "idle" | "running" | "unhealthy" | "stopped";

/**
 * What a worker needs from its endpoint: the shared clock and scheduler, the current spec and handler,
 * and callbacks for every transition (so the endpoint keeps its counters and queues consistent).
 */
export interface WorkerHost {
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  readonly spec: EndpointSpec;
  readonly handler: JobHandler;
  workerBooted(w: Worker): void;
  /** The worker is idle and can take a job. */
  workerFreed(w: Worker): void;
  /** The worker is gone (stopped or crashed); `was` is its status before; `job` a run it abandoned. */
  workerStopped(w: Worker, was: WorkerStatus, job: Job | undefined): void;
  jobStarted(job: Job, w: Worker, now: number): void;
  jobChunk(job: Job, chunk: unknown): void;
  jobEnded(job: Job, status: "COMPLETED" | "FAILED" | "TIMED_OUT", output: unknown, error: string | undefined): void;
  /** Should this worker stop instead of going idle (stale version after a release, above workersMax)? */
  shouldRetire(w: Worker): boolean;
  /** May this idle worker stop now its idle timeout passed (above workersMin)? */
  mayStopIdle(w: Worker): boolean;
  /** The worker's log (workerLogBook.ts). */
  logOf(workerId: string): LogRing;
  /** The injected faults of the job this worker is starting (faults/workerFaults.ts), if any. */
  jobFault(w: Worker): JobFault | undefined;
}

export class Worker implements RunHost {
  status: WorkerStatus = "initializing";
  run: Run | undefined = undefined;
  readonly createdAt: number;
  /** The image of the release this worker was started with (worker faults select by it). */
  readonly imageName: string;
  idleSince = 0;
  /** The injected faults of the current run, until it ends. */
  private runFault: JobFault | undefined = undefined;
  stoppedAt = 0;
  private readonly bootTask = new Task(() => this.boot());
  private readonly stepTask = new Task(() => undefined);
  private readonly timeoutTask = new Task(() => this.timedOut());
  private readonly idleTask = new Task(() => this.idleCheck());

  constructor(
    readonly id: string,
    private readonly host: WorkerHost,
    readonly placement: Placement,
    /** The endpoint version this worker was started with (rolling releases replace older ones). */
    readonly version: number,
  ) {
    this.createdAt = host.clock.now();
    this.imageName = host.spec.imageName;
    host.sched.in(this.bootTask, host.opts.coldStartMs);
    const on = placement.gpuTypeId ?? placement.cpuFlavorId ?? "CPU";
    host.logOf(id).write("system", `worker ${id} starting (cold start): ${on} in ${placement.dataCenterId}`);
  }

  get job(): Job | undefined {
    return this.run?.job;
  }

  view(): WorkerView {
    return {
      id: this.id,
      status: this.status === "stopped" ? "unhealthy" : this.status,
      gpuTypeId: this.placement.gpuTypeId,
      dataCenterId: this.placement.dataCenterId,
      costPerHr: this.placement.costPerHr,
      createdAtMs: this.createdAt,
      version: this.version,
    };
  }

  private boot(): void {
    if (this.status !== "initializing") return;
    this.host.logOf(this.id).write("system", `worker ${this.id} ready`);
    this.host.workerBooted(this);
    this.becomeIdle();
  }

  /** Takes a job from the queue (the endpoint hands it over) and starts the handler. */
  start(job: Job): void {
    const now = this.host.clock.now();
    this.status = "running";
    this.host.sched.clear(this.idleTask);
    const run = new Run(this, job);
    this.run = run;
    this.host.jobStarted(job, this, now);
    this.host.sched.set(this.timeoutTask, now + job.executionTimeoutMs);
    const fault = this.host.jobFault(this);
    this.runFault = fault;
    if (fault !== undefined && fault.slowMs > 0) {
      // A slowed job is in progress (its clock and execution timeout running) before its handler starts.
      fault.applied("slow");
      run.after(fault.slowMs, () => this.runHandler(run));
    } else this.runHandler(run);
  }

  private runHandler(run: Run): void {
    try {
      this.host.handler.run(run);
    } catch (err) {
      run.fail(`handler threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Ends the run of `job` without reporting a result (cancel, TTL expiry): the worker is free again. */
  detach(job: Job): void {
    if (this.run?.job !== job) return;
    this.endRun(true);
    this.becomeIdle();
  }

  /** Stops the worker for good (scale-down, rolling release, endpoint deleted, shutdown). */
  stop(): void {
    if (this.status === "stopped" || this.status === "unhealthy") return;
    const run = this.endRun(true);
    this.clearTasks();
    const was = this.status;
    this.status = "stopped";
    this.stoppedAt = this.host.clock.now();
    this.host.workerStopped(this, was, run?.job);
  }

  // --- RunHost: what the run reports ---------------------------------------------------------

  now(): number {
    return this.host.clock.now();
  }

  step(serviceMs: number, fn: () => void): void {
    this.stepTask.fn = fn;
    this.host.sched.in(this.stepTask, serviceMs);
  }

  sleep(serviceMs: number): Promise<void> {
    return this.host.clock.sleep(serviceMs);
  }

  log(text: string): void {
    this.host.logOf(this.id).write("container", text);
  }

  progress(run: Run, output: unknown): void {
    if (run === this.run) run.job.output = output;
  }

  chunk(run: Run, output: unknown): void {
    if (run === this.run) this.host.jobChunk(run.job, output);
  }

  finish(run: Run, status: "COMPLETED" | "FAILED", output: unknown, error: string | undefined): void {
    if (run !== this.run) return;
    // An injected ending replaces a completion only: a job its handler failed or crashed is left so.
    const ending = this.runFault?.ending;
    if (ending !== undefined && status === "COMPLETED") {
      this.runFault?.applied(ending.kind);
      if (ending.kind === "crash") {
        this.crash(run, `worker crashed while running the job (injected fault: ${ending.fault})`);
        return;
      }
      this.endRun(false);
      this.host.jobEnded(run.job, "FAILED", undefined, `injected fault: ${ending.fault}; the handler's result was discarded`);
      this.becomeIdle();
      return;
    }
    this.endRun(false);
    this.host.jobEnded(run.job, status, output, error);
    this.becomeIdle();
  }

  crash(run: Run, message: string): void {
    if (run !== this.run) return;
    this.endRun(false);
    this.clearTasks();
    this.status = "unhealthy";
    this.stoppedAt = this.host.clock.now();
    this.host.jobEnded(run.job, "FAILED", undefined, message);
    this.host.workerStopped(this, "running", undefined);
  }

  // --- internals -----------------------------------------------------------------------------

  private timedOut(): void {
    const run = this.run;
    if (!run) return;
    this.endRun(true);
    this.host.jobEnded(run.job, "TIMED_OUT", undefined, `job exceeded its executionTimeout of ${run.job.executionTimeoutMs} ms`);
    this.becomeIdle();
  }

  private endRun(stopped: boolean): Run | undefined {
    const run = this.run;
    if (!run) return undefined;
    this.run = undefined;
    this.runFault = undefined;
    this.host.sched.clear(this.stepTask);
    this.host.sched.clear(this.timeoutTask);
    run.end(stopped);
    return run;
  }

  private becomeIdle(): void {
    if (this.status === "stopped" || this.status === "unhealthy") return;
    if (this.host.shouldRetire(this)) {
      this.stop();
      return;
    }
    const now = this.host.clock.now();
    this.status = "idle";
    this.idleSince = now;
    if (!this.idleTask.scheduled) this.host.sched.set(this.idleTask, now + this.host.spec.idleTimeout * 1000);
    this.host.workerFreed(this);
  }

  private idleCheck(): void {
    if (this.status !== "idle") return;
    const due = this.idleSince + this.host.spec.idleTimeout * 1000;
    const now = this.host.clock.now();
    if (now < due) {
      this.host.sched.set(this.idleTask, due);
      return;
    }
    if (this.host.mayStopIdle(this)) this.stop();
    // Kept (at workersMin): look again one idle period later, in case the floor changes.
    else this.host.sched.set(this.idleTask, now + Math.max(1000, this.host.spec.idleTimeout * 1000));
  }

  private clearTasks(): void {
    this.host.sched.clear(this.bootTask);
    this.host.sched.clear(this.stepTask);
    this.host.sched.clear(this.timeoutTask);
    this.host.sched.clear(this.idleTask);
  }
}
