// What the job API answers, as plain types: the public declarations (JobClient's methods) name these,
// and must not name zod's. jobRecords.ts holds its schemas' outputs equal to them at compile time.
import type { JobStatus } from "./enums";

/** A status the service may add later is kept as the string it sent. */
export type WireJobStatus = JobStatus | (string & {});

/** A job as the job API reports it; keys the service adds later are kept. */
export interface JobRecord {
  [key: string]: unknown;
  id: string;
  status: WireJobStatus;
  /** Final output, or partial progress while the job runs. */
  output?: unknown;
  /** Set on FAILED jobs (a structured error is kept readable as JSON text). */
  error?: string | undefined;
  /** Milliseconds queued before a worker took the job. */
  delayTime?: number | undefined;
  /** Milliseconds the worker ran it. */
  executionTime?: number | undefined;
  workerId?: string | undefined;
}

/** One piece of a streaming job's output. */
export interface JobStreamChunk {
  [key: string]: unknown;
  output?: unknown;
}

/** One read of `/stream/<id>`. */
export interface JobStreamRecord {
  [key: string]: unknown;
  id?: string | undefined;
  status?: WireJobStatus | undefined;
  /** Chunks not yet returned by an earlier call (reading drains them); [] when none arrived. */
  stream: JobStreamChunk[];
}

/** Job and worker counts of an endpoint (`/health`); a count the service leaves out is 0. */
export interface HealthRecord {
  [key: string]: unknown;
  jobs: { [key: string]: unknown; completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: {
    [key: string]: unknown;
    idle: number;
    initializing: number;
    ready: number;
    running: number;
    throttled: number;
    unhealthy: number;
  };
}

/** The answer to `/purge-queue`. */
export interface PurgeRecord {
  [key: string]: unknown;
  /** Jobs removed from the queue. */
  removed: number;
  /** "completed" (lower-case) on the wire. */
  status?: string | undefined;
}

/** One recent job of the endpoint, as GET /requests lists it (newest first). */
export interface RequestEntry {
  [key: string]: unknown;
  id: string;
  status: WireJobStatus;
  /** How the job was submitted: "run", "runsync" or "openai". */
  origin?: string | undefined;
  lowPriority?: boolean | undefined;
  /** ISO 8601 times; null until the job started or finished. */
  submittedAt?: string | null | undefined;
  startedAt?: string | null | undefined;
  finishedAt?: string | null | undefined;
  /** Milliseconds queued before a worker took the job. */
  delayTime?: number | undefined;
  /** Milliseconds the worker ran it. */
  executionTime?: number | undefined;
  workerId?: string | undefined;
}
