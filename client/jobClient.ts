/**
 * A client for the service's queue-based job API (`{serverlessUrl}/<endpointId>/...`, the URL ends
 * in /v2), usable with or without Pulumi: in scripts, tests, services and the JobRunner's smoke
 * tests alike. It shares the management client's transport, so it has the same timeouts, retries
 * with backoff (429 included) and typed errors (`ApiError` subclasses).
 *
 * Idempotency: /run and /runsync submit work, and a retried submit after a lost answer could run
 * the job twice, so they are only retried when the service refused before acting (429) or the
 * connection never opened. /retry and POSTs to /openai/* (each one runs a job) are treated the
 * same way; a streamed /openai answer is never retried once it has started. Status, status-sync,
 * stream, requests, health, cancel and purge-queue are retried like GETs (cancel and purge set a
 * state; a retried stream read can only return chunks the lost answer did not deliver).
 */
import { CONFIG_KEYS, ConfigError, ENV_VARS, normalizeBaseUrl, resolveJobConnection } from "./config";
import { isFinalJobStatus, JOB_FINAL_STATUSES } from "./enums";
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";
import type { HealthRecord, JobRecord, PurgeRecord, RequestEntry } from "./jobRecordTypes";
import type { JobInput } from "./jobInput";
import { JobRequestError } from "./jobRequestError";
import { openAiPath, readOpenAiEvents, streamedBody, unstreamedBody, type OpenAiRequest } from "./openAiRoute";
import type { ServerSentEvent } from "./serverSentEvents";
import { pathOf, Transport, type BodySchema, type RetryInfo } from "./transport";

export type { HealthRecord, JobRecord, PurgeRecord, RequestEntry } from "./jobRecordTypes";
export { OpenAiStreamError, type OpenAiRequest } from "./openAiRoute";
export type { ServerSentEvent } from "./serverSentEvents";
export { JobRequestError } from "./jobRequestError";
export type { JobInput } from "./jobInput";

// The wire schemas and the request checks (zod) load on a client's first call that needs them: a
// program that never calls the job API (the SDK exports JobClient) never loads them.
const wireSchemas = () => import("./jobRecords");
const requestChecks = () => import("./jobRequest");

/** An answer taken as it came: an OpenAI-style route answers as the worker does, unchecked. */
const ANY_BODY: BodySchema<unknown> = { safeParse: (data) => ({ success: true, data }) };

/** The statuses after which a job never changes again. */
export const FINAL_JOB_STATUSES: ReadonlySet<string> = new Set<string>(JOB_FINAL_STATUSES);

/** What `onRetry` is told about one retry: operation, method, url (redacted), attempt, delayMs, error. */
export type JobRetryInfo = RetryInfo;

export interface JobClientOptions {
  /** API key. Default: the GPUCLOUD_API_KEY environment variable. */
  apiKey?: string;
  /** Job API base URL, ending in /v2. Default: the GPUCLOUD_SERVERLESS_URL environment variable. */
  serverlessUrl?: string;
  /** Per-request timeout in milliseconds (long polls get their wait on top). Default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures (408, 429, 5xx, connection). Default 4. */
  maxRetries?: number;
  /**
   * Called before every retry with the failure being retried (`error.status` is 429 when the
   * service rate-limited the call) and how long the client will wait (`delayMs`, honouring
   * Retry-After), so callers can log or count retries. The client itself never logs. Default: none.
   */
  onRetry?: (info: JobRetryInfo) => void;
}

export interface RunSyncOptions {
  /** How long /runsync itself waits, 1000..300000 ms. Default 90000. */
  waitMs?: number;
  /** Total time to wait for a final status, falling back to /status-sync long polls. Default 600000 (10 min). */
  timeoutMs?: number;
}

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
  /** Per-request timeout in ms; default the client's (30 s). */
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

/**
 * The load-balancing endpoint a request goes to: its id, or the endpoint itself as the management
 * API describes it (`{ id, requestUrls }`, e.g. an Endpoint resource's outputs). With v2's
 * `requestUrls.base` the request goes there (the live service serves each load-balancing endpoint
 * on a host of its own, `https://<id>.<host>`); without it, to `<serverlessUrl>/<id>` (the v1 API,
 * the emulator).
 */
export type EndpointTarget = string | { readonly id: string; readonly requestUrls?: Readonly<Record<string, string>> | null | undefined };

/** The header that pins a request to one worker of a load-balancing endpoint, and names it in answers. */
export const WORKER_ID_HEADER = "X-Service-Worker-Id";

/** A job that did not reach a final status within the time the caller allowed. */
export class JobWaitTimeoutError extends GpuCloudError {
  readonly jobId: string;
  readonly lastStatus: string;
  /** The last record read (its `output` may hold partial progress); undefined when none was given. */
  readonly lastRecord: JobRecord | undefined;
  constructor(jobId: string, lastStatus: string, waitedMs: number, lastRecord?: JobRecord) {
    super(`job ${jobId} did not finish within ${waitedMs} ms (last status ${lastStatus}); it keeps running: call status(), or cancel() it`);
    this.jobId = jobId;
    this.lastStatus = lastStatus;
    this.lastRecord = lastRecord;
  }
}
nameErrorClass(JobWaitTimeoutError, "JobWaitTimeoutError");

// The wait bounds, once: the service's accepted range for runsync / status-sync `wait`, the
// default sync window, and the default total time runSync follows a job.
const MIN_WAIT_MS = 1_000;
const MAX_WAIT_MS = 300_000;
const DEFAULT_WAIT_MS = 90_000;
const DEFAULT_RUNSYNC_TIMEOUT_MS = 600_000;
/** A long poll answers at `wait`; allow this much more for the answer to arrive. */
const LONG_POLL_MARGIN_MS = 15_000;

export class JobClient {
  readonly #transport: Transport;
  /** Transports to load-balancing endpoints' own base URLs (requestUrls.base), by URL; closed with the client. */
  readonly #byBaseUrl = new Map<string, Transport>();

  /**
   * Options win over the GPUCLOUD_* environment variables; errors name whichever source was used.
   * A Transport (base URL ending in /v2) is used as it is, sharing its connections.
   */
  constructor(options: JobClientOptions | Transport = {}) {
    this.#transport = options instanceof Transport ? options : new Transport(transportOptions(options));
  }

  /** Queues a job; resolves with `{id, status: "IN_QUEUE"}` as soon as it is accepted. */
  async run(endpointId: string, job: JobInput): Promise<JobRecord> {
    const body = (await requestChecks()).validateJobRequest(job, "run");
    const { JobRecordSchema } = await wireSchemas();
    return this.#transport.request({
      method: "POST",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "run"),
      operation: "RunJob",
      body,
      idempotent: false,
      schema: JobRecordSchema,
    });
  }

  /**
   * Runs a job and resolves with its final record. Uses /runsync, which answers the moment the job
   * finishes; a job that outlives the sync window is followed with /status-sync long polls.
   * Throws JobWaitTimeoutError when `timeoutMs` passes first (the job is left running).
   */
  async runSync(endpointId: string, job: JobInput, options: RunSyncOptions = {}): Promise<JobRecord> {
    const body = (await requestChecks()).validateJobRequest(job, "runsync");
    const { JobRecordSchema } = await wireSchemas();
    const started = Date.now();
    const timeoutMs = options.timeoutMs ?? DEFAULT_RUNSYNC_TIMEOUT_MS;
    const waitFor = (remaining: number) =>
      Math.ceil(Math.max(MIN_WAIT_MS, Math.min(options.waitMs ?? DEFAULT_WAIT_MS, MAX_WAIT_MS, remaining)));
    const firstWait = waitFor(timeoutMs);
    let record = await this.#transport.request({
      method: "POST",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "runsync"),
      query: { wait: firstWait },
      operation: "RunSyncJob",
      body,
      idempotent: false,
      timeoutMs: this.#longPollTimeout(firstWait),
      schema: JobRecordSchema,
    });
    while (!isFinalJobStatus(record.status)) {
      const remaining = timeoutMs - (Date.now() - started);
      if (remaining <= 0) throw new JobWaitTimeoutError(record.id, record.status, timeoutMs, record);
      record = await this.waitForStatus(endpointId, record.id, { waitMs: waitFor(remaining) });
    }
    return record;
  }

  /** The job's record; `ttlMs` (10000..604800000, checked before sending) resets how long the job is kept. */
  async status(endpointId: string, jobId: string, options: { ttlMs?: number } = {}): Promise<JobRecord> {
    (await requestChecks()).validateStatusTtl(options.ttlMs);
    const { JobRecordSchema } = await wireSchemas();
    return this.#transport.request({
      method: "GET",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "status", nonEmpty(jobId, "jobId")),
      query: { ttl: options.ttlMs },
      operation: "JobStatus",
      schema: JobRecordSchema,
    });
  }

  /** Long-polls until the job finishes or `waitMs` (1000..300000, default 90000) passes, then returns its record. */
  async waitForStatus(endpointId: string, jobId: string, options: { waitMs?: number } = {}): Promise<JobRecord> {
    const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    const { JobRecordSchema } = await wireSchemas();
    return this.#transport.request({
      method: "GET",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "status-sync", nonEmpty(jobId, "jobId")),
      query: { wait: waitMs },
      operation: "JobStatusSync",
      timeoutMs: this.#longPollTimeout(waitMs),
      schema: JobRecordSchema,
    });
  }

  /**
   * The job's streamed outputs, one chunk at a time, in order, until the job finishes; returns the
   * final status. Each read drains what the service holds and long-polls (~10 s) when nothing is
   * ready: no busy loop.
   */
  async *stream(endpointId: string, jobId: string): AsyncGenerator<unknown, string, undefined> {
    const path = pathOf(nonEmpty(endpointId, "endpointId"), "stream", nonEmpty(jobId, "jobId"));
    const { JobStreamRecordSchema } = await wireSchemas();
    for (;;) {
      const page = await this.#transport.request({ method: "GET", path, operation: "JobStream", schema: JobStreamRecordSchema });
      for (const chunk of page.stream) yield chunk.output;
      if (isFinalJobStatus(page.status)) return page.status;
    }
  }

  /** Cancels a queued or running job. */
  async cancel(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.#post(endpointId, ["cancel", jobId], "CancelJob", true, (await wireSchemas()).JobRecordSchema);
  }

  /** Queues a FAILED or TIMED_OUT job again, same id and input. */
  async retry(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.#post(endpointId, ["retry", jobId], "RetryJob", false, (await wireSchemas()).JobRecordSchema);
  }

  /** Removes every job still waiting in the queue (running jobs are left alone); answers `{removed, status: "completed"}`. */
  async purgeQueue(endpointId: string): Promise<PurgeRecord> {
    return this.#post(endpointId, ["purge-queue"], "PurgeQueue", true, (await wireSchemas()).PurgeRecordSchema);
  }

  /** Job and worker counts of the endpoint. */
  async health(endpointId: string): Promise<HealthRecord> {
    const { HealthRecordSchema } = await wireSchemas();
    return this.#transport.request({
      method: "GET",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "health"),
      operation: "EndpointHealth",
      schema: HealthRecordSchema,
    });
  }

  /** The endpoint's most recent jobs, newest first (`limit`: 1..1000; default the service's). */
  async requests(endpointId: string, options: { limit?: number } = {}): Promise<RequestEntry[]> {
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) {
      throw new JobRequestError(
        "limit",
        `job API: limit must be a whole number between 1 and 1000 (got ${JSON.stringify(limit)}); leave it out for the service's default`,
      );
    }
    const { RequestsRecordSchema } = await wireSchemas();
    const page = await this.#transport.request({
      method: "GET",
      path: pathOf(nonEmpty(endpointId, "endpointId"), "requests"),
      query: { limit },
      operation: "ListRequests",
      schema: RequestsRecordSchema,
    });
    return page.requests;
  }

  /**
   * Sends an OpenAI-style request to a queue endpoint's worker (`<serverlessUrl>/<endpointId>/openai<route>`)
   * and resolves with the answer body as the service passes it through (parsed JSON, not checked).
   * `route` is the worker's route, e.g. "/v1/chat/completions"; a request without `body` is a GET
   * (e.g. "/v1/models"). A body with `"stream": true` belongs to `openaiStream`. The call waits
   * up to `timeoutMs` (default 315000: the service's 300 s plus a margin); a POST is only retried
   * when the service refused before acting (429) or the connection never opened.
   */
  async openai(endpointId: string, route: string, body?: Record<string, unknown>, options: OpenAiRequest = {}): Promise<unknown> {
    const method = body === undefined ? "GET" : "POST";
    return this.#transport.request({
      method,
      path: openAiPath(nonEmpty(endpointId, "endpointId"), route),
      body: unstreamedBody(body),
      operation: "OpenAiRequest",
      idempotent: method === "GET",
      timeoutMs: options.timeoutMs ?? this.#longPollTimeout(MAX_WAIT_MS),
      schema: ANY_BODY,
    });
  }

  /**
   * Sends an OpenAI-style request with `"stream": true` and yields the answer's server-sent events
   * as they arrive, in order: `data` is the event's text as sent (an OpenAI chunk is JSON:
   * `JSON.parse(event.data)`). The iteration ends at `data: [DONE]` (not yielded) or when the
   * answer ends. An `event: error`, or a `data` object with an `error` key, throws an
   * OpenAiStreamError after the events before it were yielded. Errors before the first event are
   * the usual ApiErrors. `timeoutMs` (default 315000, as for `openai`: the first event may wait for
   * a cold worker) bounds the wait for the answer to start and each silence between two events.
   * Breaking out of the loop closes the connection.
   */
  async *openaiStream(
    endpointId: string,
    route: string,
    body: Record<string, unknown>,
    options: OpenAiRequest = {},
  ): AsyncGenerator<ServerSentEvent, void, undefined> {
    const answer = await this.#transport.requestStream({
      method: "POST",
      path: openAiPath(nonEmpty(endpointId, "endpointId"), route),
      body: streamedBody(body),
      headers: { accept: "text/event-stream" },
      operation: "OpenAiStream",
      idempotent: false,
      timeoutMs: options.timeoutMs ?? this.#longPollTimeout(MAX_WAIT_MS),
    });
    yield* readOpenAiEvents(answer.body, route);
  }

  /**
   * Sends one HTTP request to a load-balancing endpoint's workers (`type: "LOAD_BALANCER"`), on a
   * path the worker's server defines: `<requestUrls.base><path>` when `endpoint` carries the v2
   * `requestUrls`, else `<serverlessUrl>/<endpointId><path>` (see EndpointTarget); the API key goes
   * along either way. The answer is returned
   * whatever its status; `workerId` names the worker that answered: pass it back as `workerId` to
   * pin follow-up requests to that worker. Nothing is retried but a 429 (refused by the service
   * before a worker saw it) and a connection that never opened: the service itself does not retry
   * on these endpoints, and neither does the client.
   */
  async request(endpoint: EndpointTarget, request: EndpointHttpRequest): Promise<EndpointHttpResponse> {
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
    const route = await this.#routeOf(endpoint);
    const answer = await route.transport.requestRaw({
      method: request.method,
      path: `${route.prefix}${request.path}`,
      query: request.query,
      headers,
      rawBody,
      operation: "EndpointRequest",
      idempotent: false,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    });
    const workerHeader = answer.headers[WORKER_ID_HEADER.toLowerCase()];
    const workerId = Array.isArray(workerHeader) ? workerHeader[0] : workerHeader;
    return {
      status: answer.status,
      headers: answer.headers,
      text: answer.text,
      json: parseJsonBody(answer),
      ...(workerId ? { workerId } : {}),
    };
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    const own = [...this.#byBaseUrl.values()];
    this.#byBaseUrl.clear();
    await Promise.all([this.#transport, ...own].map((t) => t.close()));
  }

  /** Where a load-balancing endpoint's requests go: its requestUrls.base when known, else the job API's path form. */
  async #routeOf(endpoint: EndpointTarget): Promise<{ transport: Transport; prefix: string }> {
    const id = nonEmpty(typeof endpoint === "string" ? endpoint : endpoint.id, "endpointId");
    const base = typeof endpoint === "string" ? undefined : endpoint.requestUrls?.base;
    if (base === undefined) return { transport: this.#transport, prefix: pathOf(id) };
    const url = (await requestChecks()).checkedBaseUrl(base);
    let transport = this.#byBaseUrl.get(url);
    if (transport === undefined) {
      transport = this.#transport.withBaseUrl(url);
      this.#byBaseUrl.set(url, transport);
    }
    return { transport, prefix: "" };
  }

  /** The state-setting POSTs: an empty JSON object as the body. */
  async #post<T>(endpointId: string, action: [string, string?], operation: string, idempotent: boolean, schema: BodySchema<T>): Promise<T> {
    const [verb, jobId] = action;
    const segments = jobId === undefined ? [verb] : [verb, nonEmpty(jobId, "jobId")];
    return this.#transport.request({
      method: "POST",
      path: pathOf(nonEmpty(endpointId, "endpointId"), ...segments),
      operation,
      body: {},
      idempotent,
      schema,
    });
  }

  #longPollTimeout(waitMs: number): number {
    return Math.max(this.#transport.timeoutMs, waitMs + LONG_POLL_MARGIN_MS);
  }
}

function transportOptions(options: JobClientOptions) {
  const apiKey = options.apiKey ?? process.env[ENV_VARS.apiKey];
  if (!apiKey) {
    throw new ConfigError("apiKey", `JobClient needs an API key: pass { apiKey } or set the environment variable ${ENV_VARS.apiKey}.`);
  }
  const baseUrl =
    options.serverlessUrl !== undefined
      ? normalizeBaseUrl(options.serverlessUrl, "/v2", "serverlessUrl", "the JobClient option serverlessUrl")
      : resolveJobConnection({ [CONFIG_KEYS.apiKey]: apiKey }, process.env).serverlessUrl;
  return {
    baseUrl,
    apiKey,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.onRetry !== undefined ? { onRetry: options.onRetry } : {}),
  };
}

function nonEmpty(value: string, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new JobRequestError(name, `job API: ${name} must be a non-empty string (got ${JSON.stringify(value)})`);
  }
  return value;
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
