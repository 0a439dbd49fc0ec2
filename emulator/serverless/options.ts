/**
 * Knobs of the job side, with the service's documented figures as defaults. Every duration is in
 * service-time ms (the Clock scales it); tests shrink limits and windows through these options.
 */
// Payload limits are decimal, as the service states them: 1 MB = 1,000,000 bytes.
import { MB } from "../http/body";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_WORKER_ENV_PREFIX } from "./external/workerEnv";

/** Routes that carry their own rate and concurrency limits. */
export type LimitedRoute =
  | "run"
  | "runsync"
  | "status"
  | "stream"
  | "cancel"
  | "retry"
  | "purgeQueue"
  | "openai"
  | "requests"
  | "health"
  /** Every request to a load-balancing endpoint (proxied to a worker's HTTP server). */
  | "lb";

/** Routes with a payload limit of their own (maxPayloadBytes); `other` covers every other body. */
export type PayloadRoute = "run" | "runsync" | "openai" | "other";

/** `null` means unlimited. */
export interface RouteLimit {
  /** Requests per rate window, per account per endpoint. */
  rate: number | null;
  /** Requests in flight at once, per account per endpoint. */
  concurrency: number | null;
}

export interface ServerlessOptions {
  /**
   * imageName -> path of a module exporting `handler(job, ctx)` (an async function returning the
   * output, or an async generator whose yields are stream chunks). Loaded with Node's `require`:
   * `.js`/`.cjs` CommonJS, ESM without top-level await (Node 24 `require(esm)`), and `.ts` with
   * erasable-only syntax (Node 24 type stripping). Images not listed use the built-in handler.
   * For load-balancing endpoints the module is the worker's HTTP server instead: it exports a Node
   * request listener (module.exports, default, or named `listener` / `server`; see lb/serverModule.ts);
   * images not listed run the built-in echo server.
   */
  handlers?: Record<string, string>;
  /** Time a new worker spends initializing before it takes jobs. Default 1500 ms. */
  coldStartMs?: number;
  /** Per-route overrides of the base limits (see DEFAULT_LIMITS). */
  limits?: Partial<Record<LimitedRoute, Partial<RouteLimit>>>;
  /** Length of the rate window. Default 10000 ms. */
  rateWindowMs?: number;
  /**
   * Dynamic rule: a route's effective limit is max(base, readyWorkers x allowance), readyWorkers being
   * the endpoint's booted workers (idle + running). Per-route overrides of DEFAULT_ALLOWANCE; routes
   * without an allowance keep their base limit.
   */
  perWorkerAllowance?: Partial<Record<LimitedRoute, Partial<RouteLimit>>>;
  /**
   * Load-balancing endpoints: how long a request waits for a healthy worker (cold start included)
   * before it is answered 503. Default 30000 ms.
   */
  lbNoWorkerWaitMs?: number;
  /** Load-balancing endpoints: gap between a worker's health checks. Default 1000 ms. */
  lbHealthCheckIntervalMs?: number;
  /** Load-balancing endpoints: one health check's timeout (1 s real-time floor). Default 5000 ms. */
  lbHealthCheckTimeoutMs?: number;
  /** Largest accepted request body per route, in bytes (defaults: run 10 MB, runsync and openai 20 MB, other 1 MB; 1 MB = 1,000,000 bytes). */
  maxPayloadBytes?: Partial<Record<PayloadRoute, number>>;
  /** Largest stream item; bigger outputs are split into several items. Default 1 MiB. */
  streamChunkMaxBytes?: number;
  /** How long /stream waits for a chunk before answering an empty stream. Default 10000 ms, held at most 8 s real (under the job client's 10 s read timeout). */
  streamWaitMs?: number;
  /** /runsync `wait` when none is given. Default 90000 ms. */
  runsyncDefaultWaitMs?: number;
  /** /status-sync `wait` when none is given. Default 90000 ms. */
  statusSyncDefaultWaitMs?: number;
  /** How long an /openai/* request waits for its job. Default 300000 ms. */
  openaiWaitMs?: number;
  /** Result retention of /run jobs after they finish. Default 1800000 ms (30 min). */
  runRetentionMs?: number;
  /** /runsync retention = clamp(wait, min, max). Defaults 60000 and 300000 ms. */
  syncRetentionMinMs?: number;
  syncRetentionMaxMs?: number;
  /** TTL of a job whose policy gives none. Default 86400000 ms (24 h). */
  defaultTtlMs?: number;
  /** Execution timeout when neither the job nor the endpoint gives one. Default 600000 ms. */
  defaultExecutionTimeoutMs?: number;
  /** Webhook delivery: attempts in all (default 3), gap between them (10000 ms), per-attempt timeout (10000 ms). */
  webhookAttempts?: number;
  webhookRetryGapMs?: number;
  webhookTimeoutMs?: number;
  /** How many recent jobs /requests remembers per endpoint. Default 100. */
  requestsLogSize?: number;
  /** How long a crashed worker stays listed as unhealthy before it disappears. Default 5000 ms. */
  unhealthyLingerMs?: number;
  /** How soon a worker that could not be placed (throttled) is tried again. Default 5000 ms. */
  throttleRetryMs?: number;
  /**
   * Images (exact, or without their tag) whose endpoints are served by external workers only: jobs
   * wait in the queue for the first worker to ask (no simulated worker runs them). Default none.
   */
  externalImages?: readonly string[];
  /**
   * An endpoint is served by external workers until none has asked for a job or pinged for this long
   * (service ms, at least 5 s real). Default 60000.
   */
  workerPresenceMs?: number;
  /**
   * An external worker holding jobs and not heard from for this long (service ms, at least 3 s real)
   * is counted unhealthy and its jobs fail. Default 30000.
   */
  workerLostMs?: number;
  /** How long job-take and job-stop hold when there is nothing to give (service ms, held 0.25..60 s real). Default 20000. */
  workerPollWaitMs?: number;
  /**
   * imageName (exact, or without its tag) -> shell command the emulator runs as each worker of that
   * image's endpoints (e.g. `python3 handler.py`), with the platform's worker environment. Such
   * endpoints are served externally. Default none.
   */
  workerCommands?: Record<string, string>;
  /** Prefix of the worker environment variables (PREFIX_POD_ID, ...). Default "GPUCLOUD". */
  workerEnvPrefix?: string;
  /** Directory of the worker processes' log files. Default: a new directory under the OS temp dir. */
  workerLogDir?: string;
  /** Working directory of worker commands. Default: the emulator's. */
  workerCwd?: string;
  /** Also copy every worker process's output to the emulator's stderr, line by line. Default false. */
  echoWorkerLogs?: boolean;
}

export const DEFAULT_LIMITS: Record<LimitedRoute, RouteLimit> = {
  runsync: { rate: 2000, concurrency: 400 },
  run: { rate: 1000, concurrency: 200 },
  status: { rate: 2000, concurrency: 400 },
  stream: { rate: 2000, concurrency: 400 },
  cancel: { rate: 100, concurrency: 20 },
  // Not in the published table: treated like /cancel.
  retry: { rate: 100, concurrency: 20 },
  purgeQueue: { rate: 2, concurrency: null },
  openai: { rate: 2000, concurrency: 400 },
  requests: { rate: 10, concurrency: 2 },
  // Not in the published table: unlimited.
  health: { rate: null, concurrency: null },
  // Load-balancing endpoints (not in the published table): the figures of /runsync.
  lb: { rate: 2000, concurrency: 400 },
};

/** Only job-traffic routes grow with the worker count; control routes keep their base. */
export const DEFAULT_ALLOWANCE: Partial<Record<LimitedRoute, RouteLimit>> = {
  run: { rate: 100, concurrency: 20 },
  runsync: { rate: 100, concurrency: 20 },
  status: { rate: 200, concurrency: 40 },
  stream: { rate: 200, concurrency: 40 },
  openai: { rate: 100, concurrency: 20 },
  lb: { rate: 100, concurrency: 20 },
};

const MiB = 1024 * 1024;

export interface ResolvedOptions {
  handlers: Record<string, string>;
  coldStartMs: number;
  limits: Record<LimitedRoute, RouteLimit>;
  rateWindowMs: number;
  allowance: Partial<Record<LimitedRoute, RouteLimit>>;
  maxPayloadBytes: Record<PayloadRoute, number>;
  streamChunkMaxBytes: number;
  streamWaitMs: number;
  runsyncDefaultWaitMs: number;
  statusSyncDefaultWaitMs: number;
  openaiWaitMs: number;
  runRetentionMs: number;
  syncRetentionMinMs: number;
  syncRetentionMaxMs: number;
  defaultTtlMs: number;
  defaultExecutionTimeoutMs: number;
  webhookAttempts: number;
  webhookRetryGapMs: number;
  webhookTimeoutMs: number;
  requestsLogSize: number;
  unhealthyLingerMs: number;
  throttleRetryMs: number;
  lbNoWorkerWaitMs: number;
  lbHealthCheckIntervalMs: number;
  lbHealthCheckTimeoutMs: number;
  externalImages: string[];
  workerPresenceMs: number;
  workerLostMs: number;
  workerPollWaitMs: number;
  workerCommands: Record<string, string>;
  workerEnvPrefix: string;
  workerLogDir: string;
  workerCwd: string;
  echoWorkerLogs: boolean;
}

function mergeLimits(
  base: Partial<Record<LimitedRoute, RouteLimit>>,
  over: Partial<Record<LimitedRoute, Partial<RouteLimit>>> | undefined,
): Partial<Record<LimitedRoute, RouteLimit>> {
  const out: Partial<Record<LimitedRoute, RouteLimit>> = {};
  for (const [k, v] of Object.entries(base) as [LimitedRoute, RouteLimit][]) out[k] = { ...v };
  for (const [k, v] of Object.entries(over ?? {}) as [LimitedRoute, Partial<RouteLimit>][]) {
    const cur = out[k] ?? { rate: null, concurrency: null };
    out[k] = {
      rate: v.rate !== undefined ? v.rate : cur.rate,
      concurrency: v.concurrency !== undefined ? v.concurrency : cur.concurrency,
    };
  }
  return out;
}

/** Where worker process logs go when no directory is given: a new directory under the OS temp dir. */
export function defaultWorkerLogDir(): string {
  return join(tmpdir(), `gpucloud-emulator-workers-${process.pid}-${Date.now().toString(36)}`);
}

function checkedPrefix(prefix: string): string {
  if (!/^[A-Z][A-Z0-9_]*$/.test(prefix)) {
    throw new RangeError(
      `workerEnvPrefix must be upper-case letters, digits and _ (starting with a letter), got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

export function resolveOptions(o: ServerlessOptions): ResolvedOptions {
  return {
    handlers: { ...(o.handlers ?? {}) },
    coldStartMs: o.coldStartMs ?? 1500,
    limits: mergeLimits(DEFAULT_LIMITS, o.limits) as Record<LimitedRoute, RouteLimit>,
    rateWindowMs: o.rateWindowMs ?? 10_000,
    allowance: mergeLimits(DEFAULT_ALLOWANCE, o.perWorkerAllowance),
    maxPayloadBytes: {
      run: o.maxPayloadBytes?.run ?? 10 * MB,
      runsync: o.maxPayloadBytes?.runsync ?? 20 * MB,
      openai: o.maxPayloadBytes?.openai ?? 20 * MB,
      other: o.maxPayloadBytes?.other ?? 1 * MB,
    },
    streamChunkMaxBytes: o.streamChunkMaxBytes ?? 1 * MiB,
    streamWaitMs: o.streamWaitMs ?? 10_000,
    runsyncDefaultWaitMs: o.runsyncDefaultWaitMs ?? 90_000,
    statusSyncDefaultWaitMs: o.statusSyncDefaultWaitMs ?? 90_000,
    openaiWaitMs: o.openaiWaitMs ?? 300_000,
    runRetentionMs: o.runRetentionMs ?? 30 * 60_000,
    syncRetentionMinMs: o.syncRetentionMinMs ?? 60_000,
    syncRetentionMaxMs: o.syncRetentionMaxMs ?? 300_000,
    defaultTtlMs: o.defaultTtlMs ?? 24 * 3600_000,
    defaultExecutionTimeoutMs: o.defaultExecutionTimeoutMs ?? 600_000,
    webhookAttempts: o.webhookAttempts ?? 3,
    webhookRetryGapMs: o.webhookRetryGapMs ?? 10_000,
    webhookTimeoutMs: o.webhookTimeoutMs ?? 10_000,
    requestsLogSize: o.requestsLogSize ?? 100,
    unhealthyLingerMs: o.unhealthyLingerMs ?? 5_000,
    throttleRetryMs: o.throttleRetryMs ?? 5_000,
    lbNoWorkerWaitMs: o.lbNoWorkerWaitMs ?? 30_000,
    lbHealthCheckIntervalMs: o.lbHealthCheckIntervalMs ?? 1_000,
    lbHealthCheckTimeoutMs: o.lbHealthCheckTimeoutMs ?? 5_000,
    externalImages: [...(o.externalImages ?? [])],
    workerPresenceMs: o.workerPresenceMs ?? 60_000,
    workerLostMs: o.workerLostMs ?? 30_000,
    workerPollWaitMs: o.workerPollWaitMs ?? 20_000,
    workerCommands: { ...o.workerCommands },
    workerEnvPrefix: checkedPrefix(o.workerEnvPrefix ?? DEFAULT_WORKER_ENV_PREFIX),
    workerLogDir: o.workerLogDir ?? defaultWorkerLogDir(),
    workerCwd: o.workerCwd ?? process.cwd(),
    echoWorkerLogs: o.echoWorkerLogs ?? false,
  };
}
