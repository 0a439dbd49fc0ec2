/**
 * The worker side of the job API, `{serverless_url}/<endpoint_id>/<route>/<worker_id>[/<job_id>]`:
 * what a real worker sends (WORKER-PROTOCOL.md in the reference), one route-table entry each.
 * Differences from the callers' operations, all from how real workers behave:
 * - ids end at the first `&` (a worker appends `&name=value` to a URL without `?`), and what follows
 *   is read as query parameters (side "worker", api/router.ts);
 * - the job-done / job-stream body is JSON whatever its content type says;
 * - "nothing to do" is 204 after a long-poll, never 404 (a worker retries a 404 at once, in a loop);
 * - posts for jobs the worker no longer holds are answered 200 and ignored;
 * - no limit: workers are not callers.
 */
import { z } from "zod";
import { HttpError } from "../../http/errors";
import { type JobBody, type JobOperation, defineJobOperation } from "../api/operation";
import type { EndpointRuntime } from "../endpoint";
import type { DonePost } from "./pool";

const DonePostSchema = z.looseObject({
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  status: z.string({ error: 'job-done "status" must be a string such as "IN_PROGRESS"' }).optional(),
  stopPod: z.boolean({ error: 'job-done "stopPod" must be true or false' }).optional(),
});

const StreamPostSchema = z.looseObject({ output: z.unknown() });

const BATCH_ERROR = { error: "batch_size must be a whole number from 1 to 1000" };
const BatchSize = z.coerce.number<string>(BATCH_ERROR).int(BATCH_ERROR).min(1, BATCH_ERROR).max(1000, BATCH_ERROR);

/** `0` when the worker runs nothing (any other value: it does). */
const JobInProgress = z.string().describe("0 when the worker is running no job, 1 when it is");

/** A worker's post (job-done, job-stream): JSON whatever its label (workers send x-www-form-urlencoded), empty as `{}`. */
function workerPost<T>(schema: z.ZodType<T>): JobBody<T> {
  return {
    limit: "runsync",
    schema,
    parse(json, verb) {
      const r = schema.safeParse(json ?? {});
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new HttpError(400, `${verb} body ${JSON.stringify(json)?.slice(0, 80)} is not accepted: ${issue?.message ?? "invalid"}`);
      }
      return r.data;
    },
  };
}

const GET = ["GET"] as const;
const POST = ["POST"] as const;

/** The workers' operations. The worker is known to its endpoint from its first request on (`seen`). */
export const workerOperations: readonly JobOperation<EndpointRuntime>[] = [
  defineJobOperation({
    side: "worker",
    operationId: "workerTakeJob",
    summary: "Take the oldest waiting job; holds while there is none, then answers 204",
    tag: "worker",
    methods: GET,
    path: "/{endpoint_id}/job-take/{worker_id}",
    query: { job_in_progress: JobInProgress },
    response: { status: 200, description: "A job.", schemaName: "TakenJob" },
    noContent: "No job came while the request was held (workerPollWaitMs).",
    errors: [400],
    async handle({ rt, params, query, res }) {
      const w = rt.external.seen(params["worker_id"] ?? "");
      if (query.job_in_progress === "0") w.reported(new Set(), rt.clock.now());
      const [job] = await rt.external.take(w, 1, res);
      return job === undefined ? { status: 204 } : { status: 200, body: job };
    },
  }),
  defineJobOperation({
    side: "worker",
    operationId: "workerTakeJobs",
    summary: "Take up to `batch_size` waiting jobs; holds while there is none, then answers 204",
    tag: "worker",
    methods: GET,
    path: "/{endpoint_id}/job-take-batch/{worker_id}",
    query: { job_in_progress: JobInProgress, batch_size: BatchSize },
    response: { status: 200, description: "The jobs.", schemaName: "TakenJob", array: true },
    noContent: "No job came while the request was held (workerPollWaitMs).",
    errors: [400],
    async handle({ rt, params, query, res }) {
      const w = rt.external.seen(params["worker_id"] ?? "");
      if (query.job_in_progress === "0") w.reported(new Set(), rt.clock.now());
      const jobs = await rt.external.take(w, query.batch_size ?? 1, res);
      return jobs.length === 0 ? { status: 204 } : { status: 200, body: jobs };
    },
  }),
  defineJobOperation({
    side: "worker",
    operationId: "workerJobDone",
    summary: "The job's result, error or progress update",
    tag: "worker",
    methods: POST,
    path: "/{endpoint_id}/job-done/{worker_id}/{job_id}",
    query: { isStream: z.string().describe("true when the job streamed: its chunks are its output") },
    body: workerPost<DonePost>(DonePostSchema),
    bodyName: "JobDonePost",
    response: { status: 200, description: "Received (also for a job the worker no longer holds).", schemaName: "Empty" },
    errors: [400],
    handle({ rt, params, query, body }) {
      const pool = rt.external;
      pool.done(pool.seen(params["worker_id"] ?? ""), params["job_id"] ?? "", body, query.isStream === "true");
      return { status: 200, body: {} };
    },
  }),
  defineJobOperation({
    side: "worker",
    operationId: "workerJobStream",
    summary: "One stream chunk of the job",
    tag: "worker",
    methods: POST,
    path: "/{endpoint_id}/job-stream/{worker_id}/{job_id}",
    body: workerPost(StreamPostSchema),
    bodyName: "JobStreamPost",
    response: { status: 200, description: "Received.", schemaName: "Empty" },
    errors: [400],
    handle({ rt, params, body }) {
      const pool = rt.external;
      pool.chunk(pool.seen(params["worker_id"] ?? ""), params["job_id"] ?? "", body.output);
      return { status: 200, body: {} };
    },
  }),
  defineJobOperation({
    side: "worker",
    operationId: "workerPing",
    summary: "Heartbeat, with the jobs the worker is running",
    tag: "worker",
    methods: GET,
    path: "/{endpoint_id}/ping/{worker_id}",
    query: { job_id: z.string().describe("The comma-joined ids of the jobs in progress (absent when idle)") },
    response: { status: 200, description: "Received.", schemaName: "Empty" },
    errors: [400],
    handle({ rt, params, query }) {
      const inProgress = (query.job_id ?? "").split(",").filter((id) => id !== "");
      rt.external.seen(params["worker_id"] ?? "").reported(new Set(inProgress), rt.clock.now());
      return { status: 200, body: {} };
    },
  }),
  defineJobOperation({
    side: "worker",
    operationId: "workerJobStop",
    summary: "Jobs the worker must stop (cancelled, timed out); holds while there is none, then answers 204",
    tag: "worker",
    methods: GET,
    path: "/{endpoint_id}/job-stop/{worker_id}",
    response: { status: 200, description: "The jobs to stop.", schemaName: "JobsToStop" },
    noContent: "Nothing to stop while the request was held (workerPollWaitMs).",
    errors: [400],
    async handle({ rt, params, res }) {
      const pool = rt.external;
      const jobsToStop = await pool.stopPoll(pool.seen(params["worker_id"] ?? ""), res);
      return jobsToStop.length === 0 ? { status: 204 } : { status: 200, body: { jobsToStop } };
    },
  }),
];
