/**
 * What a handler sees while it runs a job. The worker creates one context per run; once the run has
 * ended (finished, cancelled, timed out, expired, worker stopped) every call on it is ignored, so a
 * late handler cannot touch a job that moved on.
 *
 * Real workers that pull jobs over HTTP do not go through this: see ../external/.
 */
import type { S3Config } from "../s3Config";

export interface RunContext {
  readonly id: string;
  readonly input: Record<string, unknown>;
  readonly s3Config: S3Config | undefined;
  /** False once the run has ended for any reason. */
  readonly active: boolean;
  /** A partial output shown by /status while the job runs. */
  progress(output: unknown): void;
  /** One stream item for /stream; the final output becomes the list of chunks. */
  chunk(output: unknown): void;
  complete(output: unknown): void;
  fail(message: string): void;
  /** The worker dies: the job fails with `message` and the worker is replaced. */
  crash(message: string): void;
  /** Runs `fn` after a service-time delay (one pending delay per run; a new one replaces it). */
  after(serviceMs: number, fn: () => void): void;
  /** Service-time ms since the epoch. */
  now(): number;
  /** Resolves after a service-time delay (for async handlers). */
  sleep(serviceMs: number): Promise<void>;
  /** Registers a callback for when the run is stopped from outside (cancel, timeout, TTL). */
  onStop(fn: () => void): void;
  /** Writes `text` into the worker's log as its container's output (GET /api/v2/serverless/{id}/workers/{workerId}/logs). */
  log(text: string): void;
}

export interface JobHandler {
  /** Starts the job; the handler reports its end through the context, now or later. */
  run(ctx: RunContext): void;
}
