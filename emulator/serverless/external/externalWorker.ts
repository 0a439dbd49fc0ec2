/**
 * One worker that pulls jobs over HTTP (the worker pull protocol), as the emulator knows it: when it
 * was last heard from, the jobs it holds, and the ids it must be told to stop through job-stop.
 */
import type { Job } from "../job";
import type { Timed } from "../scheduler";

/** One job held by an external worker; its scheduler deadline is the job's execution timeout. */
export class ExternalRun implements Timed {
  at = 0;
  idx = -1;
  /** Every chunk posted to job-stream, in order (the job's output when the stream ends with `[]`). */
  readonly chunks: unknown[] = [];

  constructor(
    readonly job: Job,
    readonly worker: ExternalWorker,
    private readonly onTimeout: (run: ExternalRun) => void,
  ) {}

  fire(): void {
    this.onTimeout(this);
  }
}

export class ExternalWorker {
  /** Service ms of the last request from this worker (any route). */
  lastSeen: number;
  readonly createdAt: number;
  readonly runs = new Map<string, ExternalRun>();
  /** Job ids to hand out on the next job-stop (cancelled or timed out while held here). */
  stops: string[] = [];
  /** Ids handed out through job-stop; kept while the worker's pings still list them as in progress. */
  readonly told = new Set<string>();
  /** Stopped jobs the last ping still listed: the worker is still busy with them. */
  readonly lingering = new Set<string>();
  /** Wakes a parked job-stop. */
  stopWaiter: (() => void) | undefined = undefined;
  /** Requests of this worker being held right now (a held request means the worker is alive). */
  parked = 0;
  /** Set when the worker went silent while holding jobs; it is listed unhealthy for a while. */
  lostAt = 0;
  /** The worker asked to be recycled (`stopPod`). */
  retire = false;
  /** Service ms since when the worker holds no job. */
  idleSince: number;

  constructor(
    readonly id: string,
    now: number,
  ) {
    this.lastSeen = now;
    this.createdAt = now;
    this.idleSince = now;
  }

  get status(): "idle" | "running" | "unhealthy" {
    if (this.lostAt > 0) return "unhealthy";
    return this.runs.size > 0 || this.lingering.size > 0 ? "running" : "idle";
  }

  /**
   * What the worker says it runs (a ping's `job_id`, or none from a job-take with
   * `job_in_progress=0`). A job it was told to stop but still lists is told again: the service's
   * worker SDK ignores a stop that arrives before it has started the job it just took.
   */
  reported(inProgress: ReadonlySet<string>, now: number): void {
    // The worker's idle time starts when it is done with the last job it was told to stop.
    if (this.lingering.size > 0 && this.runs.size === 0) this.idleSince = now;
    this.lingering.clear();
    for (const id of [...this.told]) {
      if (!inProgress.has(id)) {
        this.told.delete(id);
        continue;
      }
      this.lingering.add(id);
      if (!this.stops.includes(id)) this.stop(id);
    }
  }

  /** Queues `jobId` for job-stop and wakes a parked job-stop. */
  stop(jobId: string): void {
    this.stops.push(jobId);
    const wake = this.stopWaiter;
    this.stopWaiter = undefined;
    wake?.();
  }
}
