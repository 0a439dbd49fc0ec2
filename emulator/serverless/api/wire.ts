/**
 * The job API's answers as zod schemas, for its description (openapi.ts; NOTES.md's job API
 * section and WORKER-PROTOCOL.md give the shapes). Each is held equal at compile time to the type
 * the code answers with where there is one, so the description cannot drift from the answers.
 */
import { z } from "zod";
import type { Assert, Equals } from "../../sameType";
import type { HealthBody } from "../endpoint";
import type { TakenJob as TakenJobType } from "../external/pool";
import type { JobRecord as JobRecordType, JobStatus as JobStatusType } from "../job";
import type { RequestEntry } from "../requestsLog";

const JobStatus = z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
type _JobStatusMatches = Assert<Equals<z.output<typeof JobStatus>, JobStatusType>>;

const JobRecord = z.object({
  id: z.string(),
  status: JobStatus,
  /** Queue time, ms. */
  delayTime: z.number().exactOptional(),
  /** Run time so far or in all, ms. */
  executionTime: z.number().exactOptional(),
  output: z.unknown().exactOptional(),
  error: z.string().exactOptional(),
  workerId: z.string().exactOptional(),
});
type _JobRecordMatches = Assert<Equals<z.output<typeof JobRecord>, JobRecordType>>;

const EndpointHealth = z.object({
  jobs: z.object({ completed: z.number(), failed: z.number(), inProgress: z.number(), inQueue: z.number(), retried: z.number() }),
  workers: z.object({
    idle: z.number(),
    initializing: z.number(),
    ready: z.number(),
    running: z.number(),
    throttled: z.number(),
    unhealthy: z.number(),
  }),
});
type _HealthMatches = Assert<Equals<z.output<typeof EndpointHealth>, HealthBody>>;

const JobRequestEntry = z.object({
  id: z.string(),
  status: z.string(),
  origin: z.string(),
  lowPriority: z.boolean(),
  submittedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  delayTime: z.number().exactOptional(),
  executionTime: z.number().exactOptional(),
  workerId: z.string().exactOptional(),
});
type _RequestEntryMatches = Assert<Equals<z.output<typeof JobRequestEntry>, RequestEntry>>;

const TakenJob = z.object({ id: z.string(), input: z.record(z.string(), z.unknown()), s3Config: z.unknown().exactOptional() });
type _TakenJobMatches = Assert<Equals<z.output<typeof TakenJob>, TakenJobType>>;

/** Response shapes by the name an operation's `response.schemaName` gives. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  JobAccepted: z.object({ id: z.string(), status: z.literal("IN_QUEUE") }),
  JobState: z.object({ id: z.string(), status: JobStatus }),
  JobRecord,
  JobStream: z.object({ status: JobStatus, stream: z.array(z.object({ output: z.unknown() })), error: z.string().optional() }),
  PurgeResult: z.object({ removed: z.number(), status: z.literal("completed") }),
  EndpointHealth,
  JobRequests: z.object({ requests: z.array(JobRequestEntry) }),
  TakenJob,
  JobsToStop: z.object({ jobsToStop: z.array(z.string()) }),
  Empty: z.object({}),
  Error: z.object({ error: z.string() }),
};
