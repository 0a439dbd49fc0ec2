/**
 * One job and its wire record. A retained finished job is the bulk of the emulator's memory, so the
 * class keeps a fixed, small shape: no per-job timers (its expiry is a scheduler entry carried on
 * the job itself), no per-job closures, queue links stored inline.
 */
import type { Timed } from "./scheduler";
import type { S3Config } from "./schemas";

export type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

/** How the job was submitted; selects its result retention and how /requests reports it. */
export type JobOrigin = "run" | "runsync" | "openai";

export function isFinal(s: JobStatus): boolean {
  return s !== "IN_QUEUE" && s !== "IN_PROGRESS";
}

/** The side that owns jobs: notified when a job's deadline (TTL or retention) passes. */
export interface JobOwner {
  expire(job: Job): void;
}

/** What a new job is made of (all times and durations in service ms). */
export interface JobInit {
  id: string;
  owner: JobOwner;
  /** The submitting account: jobs on a shared (public) endpoint are visible only to it. */
  accountId: string;
  input: Record<string, unknown>;
  origin: JobOrigin;
  /** Submission time; a retry resets it. */
  submittedAt: number;
  /** How long the job may wait in the queue before it expires. */
  ttlMs: number;
  executionTimeoutMs: number;
  lowPriority: boolean;
  /** How long its result is kept once finished. */
  retentionMs: number;
  webhook: string | undefined;
  s3Config: S3Config | undefined;
}

export class Job implements Timed {
  /** Expiry deadline (service ms): submission + TTL while active, finish + retention after. */
  at = 0;
  idx = -1;
  /** Links in the endpoint's waiting queue (O(1) removal on cancel/purge/expiry). */
  prev: Job | undefined = undefined;
  next: Job | undefined = undefined;
  status: JobStatus = "IN_QUEUE";
  /** When the job entered the queue (submission, or the retry). */
  enqueuedAt: number;
  startedAt = 0;
  finishedAt = 0;
  output: unknown = undefined;
  error: string | undefined = undefined;
  workerId: string | undefined = undefined;
  /** Stream items produced but not yet read by /stream. */
  pending: unknown[] | undefined = undefined;
  /** True once a handler streamed (the output is then the list of chunks). */
  streamed = false;
  /** For non-streaming jobs: whether /stream already handed out the final output. */
  streamDrained = false;
  /** Long-poll callbacks waiting on this job (created on first use). */
  waiters: (() => void)[] | undefined = undefined;
  /** Set once deleted (TTL, retention, endpoint deleted): lookups answer 404. */
  gone = false;

  readonly id: string;
  readonly owner: JobOwner;
  readonly accountId: string;
  readonly input: Record<string, unknown>;
  readonly origin: JobOrigin;
  submittedAt: number;
  ttlMs: number;
  readonly executionTimeoutMs: number;
  readonly lowPriority: boolean;
  readonly retentionMs: number;
  readonly webhook: string | undefined;
  readonly s3Config: S3Config | undefined;

  // Copies the fields rather than keeping `init`, so every job has the same small, flat shape.
  constructor(init: JobInit) {
    this.id = init.id;
    this.owner = init.owner;
    this.accountId = init.accountId;
    this.input = init.input;
    this.origin = init.origin;
    this.submittedAt = init.submittedAt;
    this.ttlMs = init.ttlMs;
    this.executionTimeoutMs = init.executionTimeoutMs;
    this.lowPriority = init.lowPriority;
    this.retentionMs = init.retentionMs;
    this.webhook = init.webhook;
    this.s3Config = init.s3Config;
    this.enqueuedAt = init.submittedAt;
  }

  fire(): void {
    this.owner.expire(this);
  }

  /** Wakes every long-poll waiting on this job; each re-checks and re-registers if still waiting. */
  notify(): void {
    const w = this.waiters;
    if (!w || w.length === 0) return;
    this.waiters = undefined;
    for (const fn of w) fn();
  }
}

/** The job record as the API shows it (GET /status and friends). */
export interface JobRecord {
  id: string;
  status: JobStatus;
  delayTime?: number;
  executionTime?: number;
  output?: unknown;
  error?: string;
  workerId?: string;
}

export function toRecord(job: Job, now: number): JobRecord {
  const r: JobRecord = { id: job.id, status: job.status };
  if (job.status === "IN_QUEUE") return r;
  if (job.startedAt > 0) {
    r.delayTime = Math.round(job.startedAt - job.enqueuedAt);
    const end = job.finishedAt > 0 ? job.finishedAt : now;
    r.executionTime = Math.round(end - job.startedAt);
  } else if (job.finishedAt > 0) {
    // Finished without running (cancelled in the queue): the whole life was queue time.
    r.delayTime = Math.round(job.finishedAt - job.enqueuedAt);
  }
  if (job.workerId !== undefined) r.workerId = job.workerId;
  if (job.output !== undefined) r.output = job.output;
  if (job.error !== undefined) r.error = job.error;
  return r;
}
