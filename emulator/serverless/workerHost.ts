/**
 * What a worker needs from its endpoint: the shared clock and scheduler, the current spec and handler,
 * and callbacks for every transition (so the endpoint keeps its counters and queues consistent).
 */
import type { Clock } from "../clock";
import type { EndpointSpec } from "./contract";
import type { JobHandler } from "./handlers/types";
import type { Job } from "./job";
import type { ResolvedOptions } from "./options";
import type { Scheduler } from "./scheduler";
import type { Worker, WorkerStatus } from "./workers";

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
}
