/**
 * Each serverless worker's log, as getWorkerLogs streams it: what the worker process wrote (a
 * process the emulator started, `--worker`: its stdout and stderr, source `container`), what a
 * simulated worker did (its boot and each job's start and end, and the lines a handler logs), and
 * what the service saw of a worker started elsewhere (its first request, the jobs it took and
 * posted). Lifecycle lines are `system`.
 *
 * Bounded: LOG_RING_LINES lines per worker (logs/logRing.ts), and per endpoint the logs of its
 * live workers plus the STOPPED_WORKER_LOGS most recently stopped ones (a failure is usually read
 * soon after it happened); an endpoint's logs go when it is deleted.
 */
import type { Clock } from "../clock";
import { LogRing } from "../logs/logRing";

/** Logs of stopped workers kept per endpoint. */
export const STOPPED_WORKER_LOGS = 16;

interface Kept {
  log: LogRing;
  stopped: boolean;
}

export class WorkerLogBook {
  private readonly byEndpoint = new Map<string, Map<string, Kept>>();

  constructor(private readonly clock: Clock) {}

  /** The worker's log, made on first use. */
  of(endpointId: string, workerId: string): LogRing {
    let workers = this.byEndpoint.get(endpointId);
    if (!workers) {
      workers = new Map();
      this.byEndpoint.set(endpointId, workers);
    }
    let kept = workers.get(workerId);
    if (!kept) {
      kept = { log: new LogRing(() => this.clock.now()), stopped: false };
      workers.set(workerId, kept);
    }
    return kept.log;
  }

  find(endpointId: string, workerId: string): LogRing | undefined {
    return this.byEndpoint.get(endpointId)?.get(workerId)?.log;
  }

  /** The worker is gone: its log is kept among the endpoint's last STOPPED_WORKER_LOGS stopped ones. */
  stopped(endpointId: string, workerId: string): void {
    const workers = this.byEndpoint.get(endpointId);
    const kept = workers?.get(workerId);
    if (!workers || !kept || kept.stopped) return;
    kept.stopped = true;
    // Re-inserted last, so the map's order is the order workers stopped in.
    workers.delete(workerId);
    workers.set(workerId, kept);
    let stopped = 0;
    for (const k of workers.values()) if (k.stopped) stopped++;
    for (const [id, k] of workers) {
      if (stopped <= STOPPED_WORKER_LOGS) break;
      if (!k.stopped) continue;
      workers.delete(id);
      stopped--;
    }
  }

  /** The endpoint was deleted. */
  dropEndpoint(endpointId: string): void {
    this.byEndpoint.delete(endpointId);
  }
}
