/**
 * The job side of one load-balancing endpoint: no queue, only workers and the requests in flight
 * to them. It chooses a worker per request, parks requests while no worker is healthy (bounded),
 * and scales on concurrent requests:
 *
 *   want = clamp(ceil(demand / perWorker), workersMin, workersMax), never below the workers alive
 *   demand = requests in flight to workers + requests waiting for a healthy worker
 *   perWorker = scalerValue under REQUEST_COUNT; 1 under QUEUE_DELAY (its scalerValue is seconds
 *               of queue delay, which has no meaning without a queue)
 *
 * Scale-down is each worker's idle timeout (no request in flight for idleTimeout s), never below
 * workersMin. Routing: the healthy worker of the current release with the fewest requests in
 * flight (ties: the one started first), so light traffic stays on few workers and the rest can
 * idle out. A rolling release (new `version`) starts new workers at once; the old ones keep
 * serving until a new one is healthy (idle or not), then stop as soon as they have no request in
 * flight.
 */
import type { ServerResponse } from "node:http";
import type { EndpointSpec, WorkerView } from "../contract";
import type { JobFault } from "../../faults";
import { HttpError } from "../../http/errors";
import { Limiter, type LimitedRuntime } from "../limits";
import { Task } from "../scheduler";
import type { ServiceEnv } from "../serviceEnv";
import { LbWorker, type LbWorkerHost, type LbWorkerState } from "./lbWorker";
import type { LbServerSource } from "./serverModule";
import { WorkerWaiters } from "./waiters";

export class LbRuntime implements LbWorkerHost, LimitedRuntime {
  spec: EndpointSpec;
  readonly limiter: Limiter;
  private source: LbServerSource;
  /** Every worker not yet forgotten (a worker that failed to start lingers, listed as unhealthy). */
  private readonly workers = new Map<string, LbWorker>();
  /** Healthy workers of any release, in start order. */
  private readonly healthy: LbWorker[] = [];
  private readonly waiters: WorkerWaiters;
  /** Workers of the current release that are not stopped. */
  private live = 0;
  private throttled = 0;
  /** Requests in flight to workers plus requests waiting for one. */
  private demand = 0;
  /** Why workers of the current release cannot start (module or env error); cleared by a release. */
  private startError: string | undefined = undefined;
  /**
   * Requests handed to each release's workers (worker faults' `@Njobs`), by version: an old
   * release's workers serve on while the new one's start. Releases without workers are dropped.
   */
  private readonly releaseRequests = new Map<number, number>();
  private kicked = false;
  private dead = false;
  private readonly scaleTask = new Task(() => this.kick());

  constructor(
    private readonly env: ServiceEnv,
    spec: EndpointSpec,
  ) {
    this.spec = spec;
    this.source = env.lbServerFor(spec.imageName);
    this.limiter = new Limiter(env.clock, env.opts);
    this.waiters = new WorkerWaiters(env.sched);
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

  /** Healthy workers: the dynamic rate-limit rule's multiplier. */
  get readyWorkers(): number {
    return this.healthy.length;
  }

  // --- requests ------------------------------------------------------------------------------

  /** A request arrived: it counts toward demand until `requestDone()`. */
  requestArrived(): void {
    this.demand++;
    if (this.live < this.spec.workersMax && Math.ceil(this.demand / this.perWorker()) > this.live) this.kick();
  }

  requestDone(): void {
    this.demand--;
  }

  /**
   * The worker a request pinned with X-Service-Worker-Id goes to, or a 409 saying why it cannot.
   * Like worker(), the request is counted on the worker already (the caller ends it).
   */
  pinned(workerId: string): LbWorker {
    const w = this.workers.get(workerId);
    if (w && w.state === "healthy") {
      w.requestStarted();
      return w;
    }
    throw new HttpError(
      409,
      `worker ${workerId} of endpoint ${this.spec.id} is gone or unhealthy; drop the X-Service-Worker-Id header to be routed to any healthy worker`,
    );
  }

  /**
   * A healthy worker now, or one as soon as one is healthy; a 503 after lbNoWorkerWaitMs. The
   * request is counted on the worker at once (so the next pick sees it; the caller ends it).
   */
  async worker(res: ServerResponse): Promise<LbWorker> {
    const now = this.lease();
    if (now) return now;
    if (this.startError !== undefined) throw this.cannotStart(this.startError);
    if (this.spec.workersMax <= 0) {
      throw new HttpError(503, `endpoint ${this.spec.id} has workersMax 0, so no worker can serve the request; raise workersMax`);
    }
    const waitMs = this.opts.lbNoWorkerWaitMs;
    return this.waiters.wait(waitMs, () => this.noWorker(waitMs), res);
  }

  /** The injected faults of a request `w` was handed (faults/workerFaults.ts), if any. */
  requestFault(w: LbWorker): JobFault | undefined {
    const count = (this.releaseRequests.get(w.version) ?? 0) + 1;
    this.releaseRequests.set(w.version, count);
    return this.env.deps.jobFaults?.draw({
      imageName: w.spec.imageName,
      workerAgeMs: this.clock.now() - w.createdAt,
      releaseJobs: count,
    });
  }

  private lease(): LbWorker | undefined {
    const w = this.pick();
    w?.requestStarted();
    return w;
  }

  private pick(): LbWorker | undefined {
    let best: LbWorker | undefined;
    let old: LbWorker | undefined;
    const version = this.spec.version;
    for (const w of this.healthy) {
      if (w.version === version) {
        if (!best || w.inFlight < best.inFlight) best = w;
      } else if (!old || w.inFlight < old.inFlight) {
        old = w;
      }
    }
    return best ?? old;
  }

  private noWorker(waitMs: number): HttpError {
    let initializing = 0;
    let unhealthy = 0;
    for (const w of this.workers.values()) {
      if (w.state === "initializing") initializing++;
      else if (w.state === "unhealthy") unhealthy++;
    }
    return new HttpError(
      503,
      `no healthy worker of endpoint ${this.spec.id} became available within ${waitMs} ms (service time): ` +
        `${initializing} initializing, ${unhealthy} unhealthy, ${this.throttled} throttled (no capacity), workersMax ${this.spec.workersMax}`,
    );
  }

  private cannotStart(error: string): HttpError {
    return new HttpError(503, `endpoint ${this.spec.id} cannot start workers: ${error}`);
  }

  private perWorker(): number {
    return this.spec.scalerType === "REQUEST_COUNT" && this.spec.scalerValue > 0 ? this.spec.scalerValue : 1;
  }

  // --- LbWorkerHost --------------------------------------------------------------------------

  workerHealthy(w: LbWorker): void {
    let i = this.healthy.length;
    while (i > 0 && (this.healthy[i - 1] as LbWorker).seq > w.seq) i--;
    this.healthy.splice(i, 0, w);
    if (w.version === this.spec.version) this.retireOld();
    if (this.waiters.size > 0) this.waiters.wake(() => this.lease());
  }

  workerUnhealthy(w: LbWorker): void {
    this.unlist(w);
  }

  workerIdle(w: LbWorker): void {
    if (w.version !== this.spec.version && this.hasCurrentHealthy()) w.stop();
  }

  workerStopped(w: LbWorker, was: LbWorkerState): void {
    if (was === "healthy") this.unlist(w);
    if (w.version === this.spec.version) this.live--;
    this.env.deps.recordWorkerUsage({
      accountId: this.spec.accountId,
      endpointId: this.spec.id,
      workerId: w.id,
      templateId: w.spec.templateId,
      imageName: w.spec.imageName,
      gpuTypeId: w.placement.gpuTypeId,
      dataCenterId: w.placement.dataCenterId,
      costPerHr: w.placement.costPerHr,
      startMs: w.createdAt,
      endMs: w.stoppedAt,
    });
    if (w.startError !== undefined && !this.dead) {
      // A worker that could not start stays listed as unhealthy for a moment, then disappears.
      this.sched.in(new Task(() => this.workers.delete(w.id)), this.opts.unhealthyLingerMs);
      if (w.version === this.spec.version) {
        this.startError = w.startError;
        this.waiters.failAll(this.cannotStart(w.startError));
      }
    } else {
      this.workers.delete(w.id);
    }
    this.kick();
  }

  mayStopIdle(w: LbWorker): boolean {
    // An old release's worker bridges the release: it stays while new workers are on their way
    // and none is healthy yet.
    if (w.version !== this.spec.version) return this.live === 0 || this.hasCurrentHealthy();
    return this.live > this.spec.workersMin;
  }

  private unlist(w: LbWorker): void {
    const i = this.healthy.indexOf(w);
    if (i >= 0) this.healthy.splice(i, 1);
  }

  private hasCurrentHealthy(): boolean {
    for (const w of this.healthy) if (w.version === this.spec.version) return true;
    return false;
  }

  /** Workers of older releases stop once a current one is healthy and they have nothing in flight. */
  private retireOld(): void {
    for (const w of [...this.healthy]) if (w.version !== this.spec.version && w.inFlight === 0) w.stop();
  }

  // --- scaling -------------------------------------------------------------------------------

  /** Rescale soon (once per turn of the event loop however many events asked). */
  private kick(): void {
    if (this.kicked || this.dead) return;
    this.kicked = true;
    setImmediate(() => {
      this.kicked = false;
      if (!this.dead) this.scale();
    });
  }

  private scale(): void {
    const max = Math.max(0, this.spec.workersMax);
    const min = Math.min(Math.max(0, this.spec.workersMin), max);
    const want = Math.min(Math.max(this.live, min, Math.ceil(this.demand / this.perWorker())), max);
    this.throttled = 0;
    // A release that cannot start (bad module or env) is not retried until the endpoint changes.
    if (this.startError !== undefined) return;
    let missing = want - this.live;
    while (missing > 0) {
      const placement = this.env.deps.place(this.spec);
      if ("error" in placement) {
        // No capacity for this worker now: it counts as throttled and placement is tried again later.
        this.throttled = missing;
        this.sched.in(this.scaleTask, this.opts.throttleRetryMs);
        break;
      }
      const w = new LbWorker(this.env.newWorkerId(), this, placement, this.spec, this.source);
      this.workers.set(w.id, w);
      this.live++;
      missing--;
    }
  }

  /** The endpoint changed; a new version is a rolling release. */
  changed(spec: EndpointSpec): void {
    const release = spec.version !== this.spec.version;
    this.spec = spec;
    if (release) {
      this.source = this.env.lbServerFor(spec.imageName);
      this.startError = undefined;
      this.live = 0;
      // Workers that serve nothing yet are replaced now; healthy ones keep serving until a worker
      // of the new release is healthy (retireOld), so a release never leaves the endpoint empty.
      for (const w of [...this.workers.values()]) if (w.state === "initializing" || w.state === "unhealthy") w.stop();
      for (const version of this.releaseRequests.keys()) {
        if (![...this.workers.values()].some((w) => w.version === version && w.state !== "stopped")) this.releaseRequests.delete(version);
      }
    }
    // A lower workersMax: stop workers beyond it that have nothing in flight (newest first).
    const current = [...this.workers.values()].filter((w) => w.version === spec.version && w.state !== "stopped");
    for (let i = current.length - 1; i >= 0 && this.live > spec.workersMax; i--) {
      const w = current[i];
      if (w && w.inFlight === 0) w.stop();
    }
    this.kick();
  }

  /** The endpoint is gone: stop every worker; waiting requests answer 404. */
  deleted(): void {
    this.stopAll(new HttpError(404, `endpoint ${this.spec.id} was deleted`));
  }

  /** Service shutdown: stop workers (their usage is recorded). */
  shutdown(): void {
    this.stopAll(new HttpError(503, "the job service is shutting down"));
  }

  private stopAll(err: HttpError): void {
    this.dead = true;
    this.sched.clear(this.scaleTask);
    this.waiters.failAll(err);
    for (const w of [...this.workers.values()]) w.stop();
  }

  // --- views ---------------------------------------------------------------------------------

  views(): WorkerView[] {
    const out: WorkerView[] = [];
    for (const w of this.workers.values()) out.push(w.view());
    return out;
  }
}
