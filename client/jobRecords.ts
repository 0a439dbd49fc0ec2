// What the job API answers, as zod schemas: job records, stream pages, health counts and purges.
// Successes are HTTP 200 JSON; wire schemas accept what the service may add later.

import { z } from "zod";
import { JOB_STATUSES } from "./enums";
import { looseEnum, wireList, wireNumber, wireObject } from "./wire";
import type { Assert, Equals } from "./sameType";
import type { HealthRecord, JobRecord, JobStreamChunk, JobStreamRecord, PurgeRecord, RequestEntry } from "./jobRecordTypes";

export type { HealthRecord, JobRecord, JobStreamChunk, JobStreamRecord, PurgeRecord, RequestEntry } from "./jobRecordTypes";

/** `error` is a string on the wire; a structured error is kept readable as JSON text. */
const jobError = z.preprocess(
  (value: unknown) => (typeof value === "string" || value === undefined ? value : JSON.stringify(value)),
  z.string(),
);

export const JobRecordSchema = wireObject({
  id: z.string(),
  status: looseEnum(JOB_STATUSES),
  /** Final output, or partial progress while the job runs. */
  output: z.unknown().optional(),
  /** Set on FAILED jobs. */
  error: jobError.optional(),
  /** Milliseconds queued before a worker took the job. */
  delayTime: wireNumber.optional(),
  /** Milliseconds the worker ran it. */
  executionTime: wireNumber.optional(),
  workerId: z.string().optional(),
});
type _JobRecordMatches = Assert<Equals<z.output<typeof JobRecordSchema>, JobRecord>>;

export const JobStreamChunkSchema = wireObject({ output: z.unknown().optional() });
export const JobStreamRecordSchema = wireObject({
  id: z.string().optional(),
  status: looseEnum(JOB_STATUSES).optional(),
  /** Chunks not yet returned by an earlier call (reading drains them); [] when none arrived. */
  stream: wireList(JobStreamChunkSchema).optional().default([]),
});
type _JobStreamChunkMatches = Assert<Equals<z.output<typeof JobStreamChunkSchema>, JobStreamChunk>>;
type _JobStreamRecordMatches = Assert<Equals<z.output<typeof JobStreamRecordSchema>, JobStreamRecord>>;

const count = wireNumber.optional().default(0);
export const HealthRecordSchema = wireObject({
  jobs: wireObject({
    completed: count,
    failed: count,
    inProgress: count,
    inQueue: count,
    retried: count,
  }),
  workers: wireObject({
    idle: count,
    initializing: count,
    ready: count,
    running: count,
    throttled: count,
    unhealthy: count,
  }),
});
type _HealthRecordMatches = Assert<Equals<z.output<typeof HealthRecordSchema>, HealthRecord>>;

export const PurgeRecordSchema = wireObject({
  removed: wireNumber,
  /** "completed" (lower-case) on the wire. */
  status: z.string().optional(),
});
type _PurgeRecordMatches = Assert<Equals<z.output<typeof PurgeRecordSchema>, PurgeRecord>>;

/** One recent job of the endpoint, as GET /requests lists it (newest first). */
export const RequestEntrySchema = wireObject({
  id: z.string(),
  status: looseEnum(JOB_STATUSES),
  /** How the job was submitted: "run", "runsync" or "openai". */
  origin: z.string().optional(),
  lowPriority: z.boolean().optional(),
  /** ISO 8601 times; null until the job started or finished. */
  submittedAt: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  finishedAt: z.string().nullable().optional(),
  /** Milliseconds queued before a worker took the job. */
  delayTime: wireNumber.optional(),
  /** Milliseconds the worker ran it. */
  executionTime: wireNumber.optional(),
  workerId: z.string().optional(),
});
type _RequestEntryMatches = Assert<Equals<z.output<typeof RequestEntrySchema>, RequestEntry>>;
export const RequestsRecordSchema = wireObject({ requests: wireList(RequestEntrySchema).optional().default([]) });
