/**
 * The callers' operations on a queue-based endpoint, `/v2/<endpoint_id>/<operation>`: one table
 * entry each, in the order an unknown operation's 404 lists them. Wire shapes as NOTES.md's job
 * API section states them (and `wire.ts` describes them); every failure is `{"error": "..."}` with
 * a 4xx that names the bad value (bad input never yields a 500).
 */
import { z } from "zod";
import { HttpError, describeValue } from "../../http/errors";
import type { EndpointRuntime } from "../endpoint";
import { isFinal, toRecord, type Job } from "../job";
import type { LongPolls } from "../longPoll";
import { openaiJobInput, wantsStream } from "../openaiRequest";
import { openAiJsonAnswer, sendOpenAiStream } from "../openaiStream";
import type { PayloadRoute, ResolvedOptions } from "../options";
import { streamHoldMs } from "../external/timing";
import { describeIssues, JobRequestSchema, LimitQuery, TtlQuery, WaitQuery, type JobRequest } from "../schemas";
import { ANSWERED, type JobAnswer, type JobBody, type JobOperation, defineJobOperation } from "./operation";

/** What the callers' operations need from the service. */
export interface CallerContext {
  readonly opts: ResolvedOptions;
  readonly polls: LongPolls;
}

/** A job request (`/run`, `/runsync`): a JSON object with an `input` object, checked field by field. */
function jobRequestBody(limit: PayloadRoute): JobBody<JobRequest> {
  return {
    limit,
    schema: JobRequestSchema,
    parse(json) {
      if (json === undefined) throw new HttpError(400, 'request body must be a JSON object with an "input" object, e.g. {"input": {...}}');
      if (typeof json !== "object" || json === null || Array.isArray(json)) {
        throw new HttpError(400, `request body must be a JSON object, got ${describeValue(json)}`);
      }
      const r = JobRequestSchema.safeParse(json);
      if (!r.success) throw new HttpError(400, describeIssues(r.error, json, "request body"));
      return r.data;
    },
  };
}

/** A control POST's body: none or `{}` as clients send it; read (and bounded) as JSON, never used. GETs carry none. */
const IGNORED_BODY: JobBody<undefined> = {
  limit: "other",
  schema: z.unknown().describe("Ignored: clients send none or {}."),
  notReadOn: ["GET", "HEAD"],
  parse: () => undefined,
};

/** An OpenAI request, any JSON, passed to the handler as the job's `openai_input`. */
const OPENAI_BODY: JobBody<unknown> = {
  limit: "openai",
  schema: z.unknown().describe("The OpenAI-compatible request body, passed to the handler as openai_input."),
  parse: (json) => json,
};

const GET_POST = ["GET", "POST"] as const;
const POST = ["POST"] as const;
const GET = ["GET"] as const;
const ANY = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

/**
 * Statuses an operation on one job adds to those every operation can answer (router.ts: 401, 404
 * for the endpoint, 405, 429, 503; 413 with a body): a bad query or body, and an unknown job.
 */
const JOB_ERRORS = [400, 404] as const;

export function callerOperations({ opts, polls }: CallerContext): JobOperation<EndpointRuntime>[] {
  const syncRetention = (waitMs: number): number => Math.min(opts.syncRetentionMaxMs, Math.max(opts.syncRetentionMinMs, waitMs));

  function job(rt: EndpointRuntime, accountId: string, id: string): Job {
    const j = rt.find(accountId, id);
    if (!j)
      throw new HttpError(
        404,
        `job ${JSON.stringify(id)} not found on endpoint ${rt.spec.id} (unknown, or deleted after its TTL or result retention)`,
      );
    return j;
  }

  function record(rt: EndpointRuntime, j: Job): JobAnswer {
    if (j.gone) throw new HttpError(404, `job ${j.id} was deleted (its TTL passed or its endpoint was deleted)`);
    return { status: 200, body: toRecord(j, rt.clock.now()) };
  }

  return [
    defineJobOperation({
      side: "caller",
      operationId: "runJob",
      summary: "Queue a job; poll /status or /stream for its result",
      tag: "queue",
      methods: POST,
      path: "/{endpoint_id}/run",
      queue: true,
      limit: "run",
      body: jobRequestBody("run"),
      bodyName: "JobRequest",
      response: { status: 200, description: "The job, queued.", schemaName: "JobAccepted" },
      errors: [400],
      handle({ rt, accountId, body }) {
        const j = rt.submit(accountId, body, "run", opts.runRetentionMs);
        return { status: 200, body: { id: j.id, status: "IN_QUEUE" } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "runJobSync",
      summary: "Queue a job and wait up to `wait` ms for its result",
      tag: "queue",
      methods: POST,
      path: "/{endpoint_id}/runsync",
      queue: true,
      limit: "runsync",
      query: { wait: WaitQuery },
      body: jobRequestBody("runsync"),
      bodyName: "JobRequest",
      response: { status: 200, description: "The job record when it finished in time, else its id and status.", schemaName: "JobRecord" },
      errors: [400, 404],
      async handle({ rt, accountId, query, body, res }) {
        const wait = query.wait ?? opts.runsyncDefaultWaitMs;
        const j = rt.submit(accountId, body, "runsync", syncRetention(wait));
        await polls.wait(j, wait, (x) => isFinal(x.status), res);
        if (j.gone) throw new HttpError(404, `job ${j.id} was deleted before it finished (its TTL passed)`);
        return isFinal(j.status) ? record(rt, j) : { status: 200, body: { id: j.id, status: j.status } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "getJobStatus",
      summary: "The job record; `ttl` sets a new TTL",
      tag: "queue",
      methods: GET_POST,
      path: "/{endpoint_id}/status/{job_id}",
      queue: true,
      limit: "status",
      query: { ttl: TtlQuery },
      body: IGNORED_BODY,
      response: { status: 200, description: "The job record.", schemaName: "JobRecord" },
      errors: JOB_ERRORS,
      handle({ rt, accountId, params, query }) {
        const j = job(rt, accountId, params["job_id"] ?? "");
        if (query.ttl !== undefined) rt.setTtl(j, query.ttl);
        return record(rt, j);
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "waitJobStatus",
      summary: "The job record once it has finished, or after `wait` ms",
      tag: "queue",
      methods: GET_POST,
      path: "/{endpoint_id}/status-sync/{job_id}",
      queue: true,
      limit: "status",
      query: { wait: WaitQuery },
      body: IGNORED_BODY,
      response: { status: 200, description: "The job record.", schemaName: "JobRecord" },
      errors: JOB_ERRORS,
      async handle({ rt, accountId, params, query, res }) {
        const wait = query.wait ?? opts.statusSyncDefaultWaitMs;
        const j = job(rt, accountId, params["job_id"] ?? "");
        await polls.wait(j, wait, (x) => isFinal(x.status), res);
        return record(rt, j);
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "streamJob",
      summary: "The job's stream items not yet read (waits for one while there is none)",
      tag: "queue",
      methods: GET_POST,
      path: "/{endpoint_id}/stream/{job_id}",
      queue: true,
      limit: "stream",
      body: IGNORED_BODY,
      response: { status: 200, description: "The job's status and the items read now.", schemaName: "JobStream" },
      errors: JOB_ERRORS,
      async handle({ rt, accountId, params, res }) {
        const j = job(rt, accountId, params["job_id"] ?? "");
        await polls.wait(j, streamHoldMs(rt.clock, opts.streamWaitMs), (x) => rt.streamReady(x), res);
        if (j.gone) throw new HttpError(404, `job ${j.id} was deleted (its TTL passed or its endpoint was deleted)`);
        const items = rt.takeStream(j);
        const body: { status: string; stream: { output: unknown }[]; error?: string } = {
          status: j.status,
          stream: items.map((output) => ({ output })),
        };
        if (j.error !== undefined) body.error = j.error;
        return { status: 200, body };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "cancelJob",
      summary: "Cancel the job (a finished job keeps its final status)",
      tag: "queue",
      methods: POST,
      path: "/{endpoint_id}/cancel/{job_id}",
      queue: true,
      limit: "cancel",
      body: IGNORED_BODY,
      response: { status: 200, description: "The job's id and status.", schemaName: "JobState" },
      errors: JOB_ERRORS,
      handle({ rt, accountId, params }) {
        const j = job(rt, accountId, params["job_id"] ?? "");
        rt.cancel(j);
        // A job that had already finished keeps (and reports) its final state.
        return { status: 200, body: { id: j.id, status: j.status } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "retryJob",
      summary: "Run a FAILED or TIMED_OUT job again",
      tag: "queue",
      methods: POST,
      path: "/{endpoint_id}/retry/{job_id}",
      queue: true,
      limit: "retry",
      body: IGNORED_BODY,
      response: { status: 200, description: "The job, queued again.", schemaName: "JobAccepted" },
      errors: JOB_ERRORS,
      handle({ rt, accountId, params }) {
        const j = job(rt, accountId, params["job_id"] ?? "");
        rt.retry(j);
        return { status: 200, body: { id: j.id, status: "IN_QUEUE" } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "purgeQueue",
      summary: "Remove the caller's jobs still waiting in the queue",
      tag: "queue",
      methods: POST,
      path: "/{endpoint_id}/purge-queue",
      queue: true,
      limit: "purgeQueue",
      body: IGNORED_BODY,
      response: { status: 200, description: "How many jobs were removed.", schemaName: "PurgeResult" },
      errors: [400],
      handle({ rt, accountId }) {
        return { status: 200, body: { removed: rt.purge(accountId), status: "completed" } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "getEndpointHealth",
      summary: "The endpoint's job and worker counts",
      tag: "endpoint",
      methods: GET,
      path: "/{endpoint_id}/health",
      limit: "health",
      response: { status: 200, description: "Job and worker counts.", schemaName: "EndpointHealth" },
      errors: [],
      handle({ rt }) {
        return { status: 200, body: rt.health() };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "listJobRequests",
      summary: "The caller's recent jobs on the endpoint, newest first (not described by the service)",
      tag: "endpoint",
      methods: GET,
      path: "/{endpoint_id}/requests",
      limit: "requests",
      query: { limit: LimitQuery },
      response: { status: 200, description: "Recent jobs.", schemaName: "JobRequests" },
      errors: [400],
      handle({ rt, accountId, query }) {
        return { status: 200, body: { requests: rt.log.list(accountId, query.limit ?? opts.requestsLogSize, rt.clock.now()) } };
      },
    }),
    defineJobOperation({
      side: "caller",
      operationId: "openaiRequest",
      summary: 'An OpenAI-compatible request, run as a job: its output as JSON, or server-sent events for `"stream": true`',
      tag: "openai",
      methods: ANY,
      path: "/{endpoint_id}/openai/{openai_route}",
      tail: { missing: "missing OpenAI route after /openai, e.g. /openai/v1/chat/completions" },
      limit: "openai",
      body: OPENAI_BODY,
      bodyName: "OpenAiRequest",
      response: { status: 200, description: "The job's output (JSON), or text/event-stream when the body asks for a stream." },
      errors: [400, 404, 500, 504],
      async handle({ rt, accountId, params, body, res }): Promise<JobAnswer> {
        const route = `/${params["openai_route"] ?? ""}`;
        const wait = opts.openaiWaitMs;
        const j = rt.submit(accountId, { input: openaiJobInput(route, body) }, "openai", syncRetention(wait));
        const answer = { job: j, rt, polls, res, waitMs: wait };
        if (!wantsStream(body)) return openAiJsonAnswer(answer);
        await sendOpenAiStream(answer);
        return ANSWERED;
      },
    }),
  ];
}
