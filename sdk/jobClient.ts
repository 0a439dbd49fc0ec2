/**
 * A client for the service's queue-based job API (`{serverlessUrl}/<endpointId>/...`), usable with
 * or without Pulumi: in scripts, tests and services. It shares the provider's transport, so it has
 * the same timeouts, retries with backoff (429 included) and typed errors (`ApiError` subclasses).
 */
import { CONFIG_KEYS, ConfigError, ENV_VARS, normalizeBaseUrl, resolveJobConnection } from "../client/config";
import {
  JobApiClient,
  type EndpointHttpRequest,
  type EndpointHttpResponse,
  type HealthRecord,
  type JobRecord,
  type PurgeRecord,
} from "../client/jobs";
import type { RetryInfo } from "../client/transport";
import { validateJobRequest } from "../client/jobRequest";
import { GpuCloudError, nameErrorClass } from "../client/gpuCloudError";

export type { EndpointHttpRequest, EndpointHttpResponse, HealthRecord, JobRecord, PurgeRecord } from "../client/jobs";
export { WORKER_ID_HEADER } from "../client/jobs";
/** What `onRetry` is told about one retry: operation, method, url (redacted), attempt, delayMs, error. */
export type JobRetryInfo = RetryInfo;
export { JobRequestError } from "../client/jobRequest";

/** The statuses after which a job never changes again. */
export const FINAL_JOB_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "TIMED_OUT", "CANCELLED"]);

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

/** A job request: the job API's own fields. */
export interface JobInput {
  /** The handler's input (required). */
  input: Record<string, unknown>;
  /** URL that receives one POST with the final record (and the input) when the job finishes. */
  webhook?: string;
  policy?: {
    /** Milliseconds the job may run before it is TIMED_OUT; 5000..604800000. Default: the endpoint's (600000). */
    executionTimeout?: number;
    /** When true, the job does not make the endpoint scale up. Default false. */
    lowPriority?: boolean;
    /** Milliseconds the job lives from submission (queue and run included); 10000..604800000. Default 86400000 (24 h). */
    ttl?: number;
  };
  /** Object storage the handler may use for large inputs and outputs. */
  s3Config?: { accessId: string; accessSecret: string; bucketName: string; endpointUrl: string };
}

export interface RunSyncOptions {
  /** How long /runsync itself waits, 1000..300000 ms. Default 90000. */
  waitMs?: number;
  /** Total time to wait for a final status, falling back to /status-sync long polls. Default 600000 (10 min). */
  timeoutMs?: number;
}

/** A job that did not reach a final status within the time the caller allowed. */
export class JobWaitTimeoutError extends GpuCloudError {
  readonly jobId: string;
  readonly lastStatus: string;
  constructor(jobId: string, lastStatus: string, waitedMs: number) {
    super(`job ${jobId} did not finish within ${waitedMs} ms (last status ${lastStatus}); it keeps running: call status(), or cancel() it`);
    this.jobId = jobId;
    this.lastStatus = lastStatus;
  }
}
nameErrorClass(JobWaitTimeoutError, "JobWaitTimeoutError");

const DEFAULT_RUNSYNC_TIMEOUT_MS = 600_000;
const MAX_WAIT_MS = 300_000;
const DEFAULT_WAIT_MS = 90_000;
const MIN_WAIT_MS = 1_000;

export class JobClient {
  readonly #api: JobApiClient;

  constructor(options: JobClientOptions = {}) {
    // Options win over GPUCLOUD_* env; errors name whichever source was used.
    const apiKey = options.apiKey ?? process.env[ENV_VARS.apiKey];
    if (!apiKey) {
      throw new ConfigError("apiKey", `JobClient needs an API key: pass { apiKey } or set the environment variable ${ENV_VARS.apiKey}.`);
    }
    const serverlessUrl =
      options.serverlessUrl !== undefined
        ? normalizeBaseUrl(options.serverlessUrl, "/v2", "serverlessUrl", "the JobClient option serverlessUrl")
        : resolveJobConnection({ [CONFIG_KEYS.apiKey]: apiKey }, process.env).serverlessUrl;
    this.#api = new JobApiClient({
      baseUrl: serverlessUrl,
      apiKey,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.onRetry !== undefined ? { onRetry: options.onRetry } : {}),
    });
  }

  /** Queues a job; resolves with `{id, status: "IN_QUEUE"}` as soon as it is accepted. */
  async run(endpointId: string, job: JobInput): Promise<JobRecord> {
    return this.#api.run(endpointId, validateJobRequest(job, "run"));
  }

  /**
   * Runs a job and resolves with its final record. Uses /runsync, which answers the moment the job
   * finishes; a job that outlives the sync window is followed with /status-sync long polls.
   * Throws JobWaitTimeoutError when `timeoutMs` passes first (the job is left running).
   */
  async runSync(endpointId: string, job: JobInput, options: RunSyncOptions = {}): Promise<JobRecord> {
    const started = Date.now();
    const timeoutMs = options.timeoutMs ?? DEFAULT_RUNSYNC_TIMEOUT_MS;
    const waitFor = (remaining: number) => Math.max(MIN_WAIT_MS, Math.min(options.waitMs ?? DEFAULT_WAIT_MS, MAX_WAIT_MS, remaining));
    let record = await this.#api.runSync(endpointId, validateJobRequest(job, "runsync"), { waitMs: waitFor(timeoutMs) });
    while (!FINAL_JOB_STATUSES.has(record.status)) {
      const remaining = timeoutMs - (Date.now() - started);
      if (remaining <= 0) throw new JobWaitTimeoutError(record.id, record.status, timeoutMs);
      record = await this.#api.statusSync(endpointId, record.id, { waitMs: waitFor(remaining) });
    }
    return record;
  }

  /** The job's record; `ttlMs` resets how long the job is kept. */
  status(endpointId: string, jobId: string, options: { ttlMs?: number } = {}): Promise<JobRecord> {
    return this.#api.status(endpointId, jobId, options);
  }

  /** Long-polls until the job finishes or the wait passes, then returns its record. */
  waitForStatus(endpointId: string, jobId: string, options: { waitMs?: number } = {}): Promise<JobRecord> {
    return this.#api.statusSync(endpointId, jobId, options);
  }

  /**
   * The job's streamed outputs, one chunk at a time, in order, until the job finishes. Each read
   * drains what the service holds and long-polls when nothing is ready: no busy loop.
   */
  async *stream(endpointId: string, jobId: string): AsyncGenerator<unknown, string, undefined> {
    for (;;) {
      const page = await this.#api.stream(endpointId, jobId);
      for (const chunk of page.stream) yield chunk.output;
      if (page.status !== undefined && FINAL_JOB_STATUSES.has(page.status)) return page.status;
    }
  }

  /** Cancels a queued or running job. */
  cancel(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.#api.cancel(endpointId, jobId);
  }

  /** Queues a FAILED or TIMED_OUT job again, same id and input. */
  retry(endpointId: string, jobId: string): Promise<JobRecord> {
    return this.#api.retry(endpointId, jobId);
  }

  /** Removes every job still waiting in the queue (running jobs are left alone). */
  purgeQueue(endpointId: string): Promise<PurgeRecord> {
    return this.#api.purgeQueue(endpointId);
  }

  /** Job and worker counts of the endpoint. */
  health(endpointId: string): Promise<HealthRecord> {
    return this.#api.health(endpointId);
  }

  /**
   * Sends one HTTP request to a load-balancing endpoint's workers (`type: "LOAD_BALANCER"`), on a
   * path the worker's server defines. The answer is returned whatever its status; `workerId` names
   * the worker that answered: pass it back as `workerId` to pin follow-up requests to that worker.
   * Nothing is retried but a 429 and a connection that never opened.
   */
  request(endpointId: string, request: EndpointHttpRequest): Promise<EndpointHttpResponse> {
    return this.#api.request(endpointId, request);
  }

  /** Closes the keep-alive connections. */
  close(): Promise<void> {
    return this.#api.close();
  }
}
