/** What a load-balancing worker needs from its endpoint: time, settings, and a callback per transition. */
import type { Clock } from "../../clock";
import type { EndpointSpec } from "../contract";
import type { ResolvedOptions } from "../options";
import type { Scheduler } from "../scheduler";
import type { LbWorker, LbWorkerState } from "./lbWorker";

export interface LbWorkerHost {
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  /** The endpoint's current spec (idle timeout, workersMin). */
  readonly spec: EndpointSpec;
  /** Its health check answered 200 (first time, or again after failing). */
  workerHealthy(w: LbWorker): void;
  workerUnhealthy(w: LbWorker): void;
  /** It has no request in flight (it may be stopped now if it belongs to an older release). */
  workerIdle(w: LbWorker): void;
  /** It stopped (`w.startError` set when it could not start); `was` is its state before. */
  workerStopped(w: LbWorker, was: LbWorkerState): void;
  /** May this worker stop now its idle timeout passed? */
  mayStopIdle(w: LbWorker): boolean;
}
