// Typed calls of the job API ({serverlessUrl}/<endpointId>/..., serverlessUrl ends in /v2), over
// the same Transport class with a different base URL. Successes are HTTP 200 JSON.
//
// Idempotency: /run and /runsync submit work, and a retried submit after a lost answer could run
// the job twice, so they are only retried when the service refused before acting (429) or the
// connection never opened. /retry re-queues a failed job, and is treated the same way. Status,
// status-sync, stream, health, cancel and purge-queue are retried like GETs (cancel and purge set a
// state; a retried stream read can only return chunks the lost answer did not deliver).

import { z } from "zod";
import { JOB_STATUSES } from "./enums";
import { JobRequestError } from "./jobRequest";
import { Transport, pathOf, type TransportOptions } from "./transport";
import { looseEnum, wireList, wireNumber, wireObject } from "./wire";

export interface JobPolicy {
  /** Milliseconds a job may run before it is failed. */
  executionTimeout?: number | undefined;
  lowPriority?: boolean | undefined;
  /** Milliseconds the job (and its result) lives. */
  ttl?: number | undefined;
}

export interface JobS3Config {
  accessId: string;
  accessSecret: string;
  bucketName: string;
  endpointUrl: string;
}

export interface JobRequest {
  input: Record<string, unknown>;
  /** Receives one POST when the job finishes (FAILED included). */
  webhook?: string | undefined;
  policy?: JobPolicy | undefined;
  s3Config?: JobS3Config | undefined;
}

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
export type JobRecord = z.output<typeof JobRecordSchema>;

export const JobStreamChunkSchema = wireObject({ output: z.unknown().optional() });
export const JobStreamRecordSchema = wireObject({
  id: z.string().optional(),
  status: looseEnum(JOB_STATUSES).optional(),
  /** Chunks not yet returned by an earlier call (reading drains them); [] when none arrived. */
  stream: wireList(JobStreamChunkSchema).optional().default([]),
});
export type JobStreamChunk = z.output<typeof JobStreamChunkSchema>;
export type JobStreamRecord = z.output<typeof JobStreamRecordSchema>;

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
export type HealthRecord = z.output<typeof HealthRecordSchema>;

export const PurgeRecordSchema = wireObject({
  removed: wireNumber,
  /** "completed" (lower-case) on the wire. */
  status: z.string().optional(),
});
export type PurgeRecord = z.output<typeof PurgeRecordSchema>;

/** The service's accepted range for runsync / status-sync `wait`. */
export const MIN_SYNC_WAIT_MS = 1_000;
export const MAX_SYNC_WAIT_MS = 300_000;
export const DEFAULT_SYNC_WAIT_MS = 90_000;
/** A long poll answers at `wait`; allow this much more for the answer to arrive. */
const LONG_POLL_MARGIN_MS = 15_000;

/** The header that pins a request to one worker of a load-balancing endpoint, and names it in answers. */
export const WORKER_ID_HEADER = "X-Service-Worker-Id";

export interface EndpointHttpRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The worker's own path, starting with "/", e.g. "/v1/generate". */
  path: string;
  query?: Readonly<Record<string, string | number | boolean>> | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Pins the request to this worker (the `X-Service-Worker-Id` of an earlier answer). */
  workerId?: string | undefined;
  /** Per-request timeout in ms; default the transport's (30 s). */
  timeoutMs?: number | undefined;
}

export interface EndpointHttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON when it is JSON; undefined otherwise. */
  json: unknown;
  /** The worker that answered (its `X-Service-Worker-Id`), to pin follow-up requests. */
  workerId?: string;
}

function parseJsonBody(answer: { text: string; headers: Record<string, string | string[] | undefined> }): unknown {
  const type = String(answer.headers["content-type"] ?? "");
  if (!type.includes("json") || answer.text.trim() === "") return undefined;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}

export class JobApiClient {
  readonly transport: Transport;

  /** `baseUrl` of the options is the serverless URL (ends in /v2). */
  constructor(transportOrOptions: Transport | TransportOptions) {
    this.transport = transportOrOptions instanceof Transport ? transportOrOptions : new Transport(transportOrOptions);
  }

  async close(): Promise<void> {
    return this.transport.close();
  }

  /** Queues a job; answers `{id, status: "IN_QUEUE"}`. */
  async run(endpointId: string, request: JobRequest): Promise<JobRecord> {
    return this.transport.request({
      method: "POST",
      path: pathOf(req(endpointId, "endpointId"), "run"),
      operation: "RunJob",
      body: jobBody(request),
      idempotent: false,
      schema: JobRecordSchema,
    });
  }

  /**
   * Runs a job and waits up to `waitMs` (1000..300000, default 90 s) for it. If it has not finished
   * by then the answer is still 200, with status IN_QUEUE / IN_PROGRESS: poll statusSync.
   */
  async runSync(endpointId: string, request: JobRequest, options: { waitMs?: number | undefined } = {}): Promise<JobRecord> {
    const waitMs = options.waitMs ?? DEFAULT_SYNC_WAIT_MS;
    return this.transport.request({
      method: "POST",
      path: pathOf(req(endpointId, "endpointId"), "runsync"),
      query: { wait: waitMs },
      operation: "RunSyncJob",
      body: jobBody(request),
      idempotent: false,
      timeoutMs: this.#longPollTimeout(waitMs),
      schema: JobRecordSchema,
    });
  }

  /** The job's record. `ttlMs` extends how long the job is kept. */
  async status(endpointId: string, jobId: string, options: { ttlMs?: number | undefined } = {}): Promise<JobRecord> {
    return this.transport.request({
      method: "GET",
      path: pathOf(req(endpointId, "endpointId"), "status", req(jobId, "jobId")),
      query: { ttl: options.ttlMs },
      operation: "JobStatus",
      schema: JobRecordSchema,
    });
  }

  /** Long-polls until the job is done or `waitMs` elapses, then returns its record. */
  async statusSync(endpointId: string, jobId: string, options: { waitMs?: number | undefined } = {}): Promise<JobRecord> {
    const waitMs = options.waitMs ?? DEFAULT_SYNC_WAIT_MS;
    return this.transport.request({
      method: "GET",
      path: pathOf(req(endpointId, "endpointId"), "status-sync", req(jobId, "jobId")),
      query: { wait: waitMs },
      operation: "JobStatusSync",
      timeoutMs: this.#longPollTimeout(waitMs),
      schema: JobRecordSchema,
    });
  }

  /**
   * One read of the job's stream: chunks produced since the previous read (reading drains them).
   * The service long-polls (~10 s) when nothing is ready. Call again until status is terminal.
   */
  async stream(endpointId: string, jobId: string): Promise<JobStreamRecord> {
    return this.transport.request({
      method: "GET",
      path: pathOf(req(endpointId, "endpointId"), "stream", req(jobId, "jobId")),
      operation: "JobStream",
      schema: JobStreamRecordSchema,
    });
  }

  async cancel(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.transport.request({
      method: "POST",
      path: pathOf(req(endpointId, "endpointId"), "cancel", req(jobId, "jobId")),
      operation: "CancelJob",
      body: {},
      idempotent: true,
      schema: JobRecordSchema,
    });
  }

  /** Re-queues a FAILED or TIMED_OUT job. */
  async retry(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.transport.request({
      method: "POST",
      path: pathOf(req(endpointId, "endpointId"), "retry", req(jobId, "jobId")),
      operation: "RetryJob",
      body: {},
      idempotent: false,
      schema: JobRecordSchema,
    });
  }

  /** Removes every queued (not running) job; answers `{removed, status: "completed"}`. */
  async purgeQueue(endpointId: string): Promise<PurgeRecord> {
    return this.transport.request({
      method: "POST",
      path: pathOf(req(endpointId, "endpointId"), "purge-queue"),
      operation: "PurgeQueue",
      body: {},
      idempotent: true,
      schema: PurgeRecordSchema,
    });
  }

  /** Job and worker counts of the endpoint. */
  async health(endpointId: string): Promise<HealthRecord> {
    return this.transport.request({
      method: "GET",
      path: pathOf(req(endpointId, "endpointId"), "health"),
      operation: "EndpointHealth",
      schema: HealthRecordSchema,
    });
  }

  /**
   * One HTTP request to a load-balancing endpoint's workers: `<serverlessUrl>/<endpointId><path>`.
   * The worker's answer comes back whatever its status. Nothing is retried but a 429 (refused by the
   * service before a worker saw it) and a connection that never opened: the service itself does not
   * retry on these endpoints, and neither does the client.
   */
  async request(endpointId: string, request: EndpointHttpRequest): Promise<EndpointHttpResponse> {
    if (!request.path.startsWith("/")) {
      throw new JobRequestError("path", `job API: path must start with "/" (got ${JSON.stringify(request.path)}), e.g. "/v1/generate"`);
    }
    const headers: Record<string, string> = { ...request.headers };
    if (request.workerId !== undefined) headers[WORKER_ID_HEADER] = request.workerId;
    let rawBody: string | undefined;
    if (typeof request.body === "string") rawBody = request.body;
    else if (request.body !== undefined) {
      rawBody = JSON.stringify(request.body);
      headers["content-type"] ??= "application/json";
    }
    const answer = await this.transport.requestRaw({
      method: request.method,
      path: `${pathOf(req(endpointId, "endpointId"))}${request.path}`,
      query: request.query,
      headers,
      rawBody,
      operation: "EndpointRequest",
      idempotent: false,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    });
    const workerHeader = answer.headers[WORKER_ID_HEADER.toLowerCase()];
    const workerId = Array.isArray(workerHeader) ? workerHeader[0] : workerHeader;
    return { status: answer.status, headers: answer.headers, text: answer.text, json: parseJsonBody(answer), ...(workerId ? { workerId } : {}) };
  }

  #longPollTimeout(waitMs: number): number {
    return Math.max(this.transport.timeoutMs, waitMs + LONG_POLL_MARGIN_MS);
  }
}

function req(value: string, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new JobRequestError(name, `job API: ${name} must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** Only the fields the job API knows; undefined ones left out. */
function jobBody(request: JobRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { input: request.input };
  if (request.webhook !== undefined) body["webhook"] = request.webhook;
  if (request.policy !== undefined) {
    const policy: Record<string, unknown> = {};
    for (const key of ["executionTimeout", "lowPriority", "ttl"] as const) {
      if (request.policy[key] !== undefined) policy[key] = request.policy[key];
    }
    body["policy"] = policy;
  }
  if (request.s3Config !== undefined) body["s3Config"] = { ...request.s3Config };
  return body;
}
