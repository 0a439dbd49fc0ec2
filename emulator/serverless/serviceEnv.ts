/** What every endpoint runtime shares: the deps from the management side, one clock, one scheduler. */
import type { Clock } from "../clock";
import type { ServerlessDeps, WorkerLog } from "./contract";
import type { JobHandler } from "./handlers/types";
import type { LbServerSource } from "./lb/serverModule";
import type { ResolvedOptions } from "./options";
import type { Scheduler } from "./scheduler";
import type { WebhookSender } from "./webhook";
import type { WorkerLogBook } from "./workerLogBook";

export interface ServiceEnv {
  readonly deps: ServerlessDeps;
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  readonly webhooks: WebhookSender;
  handlerFor(imageName: string): JobHandler;
  /** The HTTP server a load-balancing worker runs for this image (built-in echo or a user module). */
  lbServerFor(imageName: string): LbServerSource;
  newWorkerId(): string;
  /** Logs of every worker process started, running or not (kept for inspection). */
  readonly workerLogs: WorkerLog[];
  /** Each worker's log lines, as getWorkerLogs streams them. */
  readonly logs: WorkerLogBook;
  /** The image's endpoints are served by external workers only (jobs wait for the first one). */
  isExternalImage(imageName: string): boolean;
  /** The shell command the emulator runs as a worker of this image, if any. */
  workerCommandFor(imageName: string): string | undefined;
}
