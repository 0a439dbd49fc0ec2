/**
 * Options of startEmulator() and their defaults. One object, so that later features (fault
 * injection, limits) extend it rather than growing new entry points.
 */
import { type FaultPlan, toFaultPlan } from "./faults/spec";
import { MB } from "./http/body";
import type { ReplyEvent, RouteInterceptor } from "./http/interception";
import { randomId } from "./ids";
import type { RateLimitOptions } from "./management/account/rateLimit";
import { SCOPES, isScope } from "./management/account/scopes";
import type { ServerlessOptions } from "./serverless";
import type { ServerlessDeps, ServerlessService } from "./serverless/contract";
import type { AvailabilityOptions } from "./vocabulary/availability";

/** Builds the job side; the default is emulator/serverless's createServerlessService. */
export type ServerlessFactory = (deps: ServerlessDeps, options: ServerlessOptions) => ServerlessService;

/**
 * Reported behaviours of the live service that differ from its description (NOTES.md section 1).
 * Each can be switched so a client can be tested with and without it.
 */
export interface QuirkOptions {
  /** The platform adds PUBLIC_KEY to a pod's env at create; a PATCH that sends env replaces it wholesale. Default true. */
  injectPodPublicKey: boolean;
  /** The platform adds PORT and PORT_HEALTH to a serverless template's env at create. Default true. */
  injectServerlessTemplatePorts: boolean;
  /** Pod costPerHr as a string ("0.69") instead of a number. Default false. */
  costPerHrAsString: boolean;
  /** Endpoint dataCenterIds as one comma-separated string. Default false. */
  endpointDataCenterIdsAsString: boolean;
  /** Endpoint dataCenterIds sorted, whatever order they were given in. Default false. */
  endpointDataCenterIdsSorted: boolean;
  /** FlashBoot endpoints read back with " -fb" appended to their names (v1). Default false. */
  flashBootNameSuffix: boolean;
  /** Status for unknown body fields: 400 (default) or 422 as reported from the live service. */
  unknownFieldStatus: 400 | 422;
  /** Status of a successful DELETE: 204 as documented (default) or 200 as sometimes seen. */
  deleteStatus: 200 | 204;
  /** After 3 idle service days an endpoint's workersMax drops to 2, after 7 to 0. Default false. */
  idleEndpointWorkersMaxDecay: boolean;
  /**
   * The live v2 defect of management-api-v2-today.md 6.1 #1 and #2 (fix deployment unknown): a PATCH
   * of an endpoint rebuilds its selection, so a GPU endpoint PATCHed without `gpu.pools` and
   * `gpu.excludedTypes` loses its exclusions (the whole pools), and any PATCH of a CPU endpoint is
   * 400 "gpuId(s) is required for a gpu endpoint". Default false (the documented rule).
   */
  endpointPatchRebuildsSelection: boolean;
  /**
   * `GET /account/limits` answers its two limits with other inner field names (`{max, used}`) than
   * the emulator's assumed `{limit, current}` (the reference does not publish them), as a live
   * answer may. Default false.
   */
  accountLimitsOtherFieldNames: boolean;
}

export const DEFAULT_QUIRKS: Readonly<QuirkOptions> = {
  injectPodPublicKey: true,
  injectServerlessTemplatePorts: true,
  costPerHrAsString: false,
  endpointDataCenterIdsAsString: false,
  endpointDataCenterIdsSorted: false,
  flashBootNameSuffix: false,
  unknownFieldStatus: 400,
  deleteStatus: 204,
  idleEndpointWorkersMaxDecay: false,
  endpointPatchRebuildsSelection: false,
  accountLimitsOtherFieldNames: false,
};

export interface EmulatorOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string | undefined;
  /** TCP port; 0 picks a free one (default 0; the CLI defaults to 8787). */
  port?: number | undefined;
  /**
   * API keys, each its own account. Default: one random key (see the returned `apiKey`). A key given
   * as `{ key, scopes }` may only call the operations of those scopes (see management/account/scopes.ts);
   * a bare string has every scope.
   */
  apiKeys?: readonly (string | ApiKeyOption)[] | undefined;
  /** Persist management state (resources, billing ledger) in this JSON file. Default: memory only. */
  statePath?: string | undefined;
  /** Multiplier for simulated durations (0.01 = 100x faster). Default 1. */
  timeScale?: number | undefined;
  /** Service-time ms from (re)start until a pod has its public IP and port mappings. Default 2000. */
  bootDelayMs?: number | undefined;
  /** Free GPUs / vCPUs per type and data center (see vocabulary/availability.ts). */
  availability?: AvailabilityOptions | undefined;
  /** imageName -> handler module path, for the job side (merged into serverless.handlers). */
  handlers?: Readonly<Record<string, string>> | undefined;
  /**
   * imageName -> shell command run as each worker of that image's endpoints (e.g. `python3 handler.py`,
   * run in the emulator's working directory with the platform's worker environment); merged into
   * serverless.workerCommands. See "Real workers" in the emulator README.
   */
  workers?: Readonly<Record<string, string>> | undefined;
  /** Images whose endpoints are served by external workers only (jobs wait for the first one); merged into serverless.externalImages. */
  externalImages?: readonly string[] | undefined;
  /** Endpoint id -> imageName: endpoints callable by every key ("public" account). */
  publicEndpoints?: Readonly<Record<string, string>> | undefined;
  /** Passed through to the job side. */
  serverless?: ServerlessOptions | undefined;
  quirks?: Partial<QuirkOptions> | undefined;
  /** Largest accepted /v1 and /api/v2 request body in bytes (default 1 MB = 1,000,000 bytes); larger gives 413. */
  bodyLimitBytes?: number | undefined;
  /**
   * Real ms between a change and the state file write (default 100), for changes not made through
   * /v1 (boots, billing, the job side); a /v1 change is written before it is answered.
   */
  stateDebounceMs?: number | undefined;
  /** Seam for fault injection: runs before each /v1 operation (see http/router.ts), before `faults`. */
  routeInterceptor?: RouteInterceptor | undefined;
  /**
   * Seeded faults on /v1, /api/v2 and the job API's routes, chosen by operation id or `METHOD
   * /v2/...` (429, 5xx, latency, reset, lost answers; answers that come late, operations applied
   * late, new resources listed late), and pods whose boot
   * fails (ERROR): a SPEC such as `"seed=42; POST /v1/pods: lost=0.2; *: 503=0.05; pod: error=0.1"`
   * or a plan object (see faults/spec.ts and the README). Default: none. Can be changed at run time
   * with `setFaults`.
   */
  faults?: string | FaultPlan | undefined;
  /** Test seam: observes every /v1 operation that ran, with its reply, sent or lost (e.g. to count creates). */
  onReply?: ((event: ReplyEvent) => void) | undefined;
  /** Test seam: replaces the job side (e.g. with a fake that records calls and reports usage). */
  serverlessFactory?: ServerlessFactory | undefined;
  /**
   * Per-account rate limit of the management API v2 (`/api/v2`): requests per minute, hour and day
   * (default 60 / 3000 / 50000, the reference's example; counted in service time, see
   * management/account/rateLimit.ts), or false for none.
   */
  rateLimit?: RateLimitOptions | false | undefined;
  /**
   * Test seam: the wall clock under the v2 rate-limit windows, in real ms since the epoch (default
   * Date.now; the windows run on service time derived from it with `timeScale`). Lets a test drive a
   * client through a window's reset without waiting a real minute.
   */
  rateLimitClock?: (() => number) | undefined;
  /**
   * The account's hourly spend cap in USD (`GET /api/v2/account/limits` `spendRate`): a pod or worker
   * start that would take the hourly cost of everything running over it is refused. Default 80.
   */
  spendCapPerHour?: number | undefined;
  /** The account's serverless worker quota: the largest sum of `workersMax` over its endpoints. Default 30. */
  serverlessWorkerQuota?: number | undefined;
  /** Every /v1 management call answers 410 Gone naming the /api/v2 URL, as the live service since 2026-11-15. Default false. */
  v1Retired?: boolean | undefined;
  /**
   * Largest page of the paginated v2 lists (pods, endpoints, templates, releases), below any
   * `limit` the client asks for. Lets a test make a three-item account span three pages. Default:
   * the environment variable GPUCLOUD_EMULATOR_PAGE_SIZE when set (the project's test suite sets
   * it to 2, so every emulator its tests start pages), else none (pages hold up to `limit`, 1000
   * by default; `pageSize: 1000` asks for that whatever the environment says).
   */
  pageSize?: number | undefined;
}

/** An API key restricted to some scopes (see management/account/scopes.ts for the list). */
export interface ApiKeyOption {
  key: string;
  scopes: readonly string[];
}

/** The documented default hourly spend cap (USD). */
export const DEFAULT_SPEND_CAP_PER_HOUR = 80;
/** The emulator's default serverless worker quota (sum of workersMax): an assumption, see the README. */
export const DEFAULT_SERVERLESS_WORKER_QUOTA = 30;

export interface ResolvedOptions {
  host: string;
  port: number;
  apiKeys: string[];
  /** The scopes of each restricted key; a key not in the map has every scope. */
  keyScopes: Map<string, ReadonlySet<string>>;
  /** True when the keys were generated here rather than given. */
  generatedKeys: boolean;
  statePath: string | undefined;
  timeScale: number;
  bootDelayMs: number;
  availability: AvailabilityOptions;
  handlers: Record<string, string>;
  publicEndpoints: Record<string, string>;
  serverless: ServerlessOptions;
  quirks: QuirkOptions;
  bodyLimitBytes: number;
  stateDebounceMs: number;
  routeInterceptor: RouteInterceptor | undefined;
  faults: FaultPlan | undefined;
  onReply: ((event: ReplyEvent) => void) | undefined;
  serverlessFactory: ServerlessFactory | undefined;
  rateLimit: RateLimitOptions | false;
  rateLimitClock: (() => number) | undefined;
  spendCapPerHour: number;
  serverlessWorkerQuota: number;
  v1Retired: boolean;
  pageSize: number | undefined;
}

/** The environment variable that gives `pageSize` (and --page-size) its default. */
export const PAGE_SIZE_ENV = "GPUCLOUD_EMULATOR_PAGE_SIZE";

export function generateApiKey(): string {
  return `gpc_emu_${randomId(40)}`;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const port = options.port ?? 0;
  check(Number.isInteger(port) && port >= 0 && port <= 65535, `port must be an integer 0..65535, got ${String(port)}`);
  const timeScale = options.timeScale ?? 1;
  check(Number.isFinite(timeScale) && timeScale > 0, `timeScale must be a positive number, got ${String(timeScale)}`);
  const bootDelayMs = options.bootDelayMs ?? 2000;
  check(Number.isFinite(bootDelayMs) && bootDelayMs >= 0, `bootDelayMs must be >= 0, got ${String(bootDelayMs)}`);
  const bodyLimitBytes = options.bodyLimitBytes ?? MB;
  check(Number.isInteger(bodyLimitBytes) && bodyLimitBytes > 0, `bodyLimitBytes must be a positive integer, got ${String(bodyLimitBytes)}`);
  const stateDebounceMs = options.stateDebounceMs ?? 100;
  check(Number.isFinite(stateDebounceMs) && stateDebounceMs >= 0, `stateDebounceMs must be >= 0, got ${String(stateDebounceMs)}`);
  const pageSizeFromEnv = process.env[PAGE_SIZE_ENV];
  const pageSize = options.pageSize ?? (pageSizeFromEnv === undefined || pageSizeFromEnv === "" ? undefined : Number(pageSizeFromEnv));
  check(
    pageSize === undefined || (Number.isInteger(pageSize) && pageSize >= 1),
    options.pageSize === undefined
      ? `${PAGE_SIZE_ENV} must be an integer >= 1, got ${JSON.stringify(pageSizeFromEnv)}`
      : `pageSize must be an integer >= 1, got ${String(pageSize)}`,
  );
  const given: string[] = [];
  const keyScopes = new Map<string, ReadonlySet<string>>();
  for (const entry of options.apiKeys ?? []) {
    const key = typeof entry === "string" ? entry : entry.key;
    check(
      typeof key === "string" && key.length > 0 && !/\s/.test(key),
      `API keys must be non-empty and without spaces, got ${JSON.stringify(key)}`,
    );
    given.push(key);
    if (typeof entry !== "string") {
      for (const scope of entry.scopes)
        check(
          isScope(scope),
          `unknown scope ${JSON.stringify(scope)} for API key ${key.slice(0, 6)}...; known scopes: ${SCOPES.join(", ")}`,
        );
      keyScopes.set(key, new Set(entry.scopes));
    }
  }
  const spendCapPerHour = options.spendCapPerHour ?? DEFAULT_SPEND_CAP_PER_HOUR;
  check(Number.isFinite(spendCapPerHour) && spendCapPerHour >= 0, `spendCapPerHour must be a number >= 0, got ${String(spendCapPerHour)}`);
  const serverlessWorkerQuota = options.serverlessWorkerQuota ?? DEFAULT_SERVERLESS_WORKER_QUOTA;
  check(
    Number.isInteger(serverlessWorkerQuota) && serverlessWorkerQuota >= 0,
    `serverlessWorkerQuota must be an integer >= 0, got ${String(serverlessWorkerQuota)}`,
  );
  for (const [id, image] of Object.entries(options.publicEndpoints ?? {})) {
    check(/^[A-Za-z0-9_-]+$/.test(id), `public endpoint id must be letters, digits, - or _, got ${JSON.stringify(id)}`);
    check(image.length > 0, `public endpoint ${id} needs an image name`);
  }
  const quirks: QuirkOptions = { ...DEFAULT_QUIRKS, ...options.quirks };
  check(quirks.unknownFieldStatus === 400 || quirks.unknownFieldStatus === 422, "quirks.unknownFieldStatus must be 400 or 422");
  check(quirks.deleteStatus === 200 || quirks.deleteStatus === 204, "quirks.deleteStatus must be 200 or 204");
  return {
    host: options.host ?? "127.0.0.1",
    port,
    apiKeys: given.length > 0 ? [...new Set(given)] : [generateApiKey()],
    keyScopes,
    generatedKeys: given.length === 0,
    statePath: options.statePath,
    timeScale,
    bootDelayMs,
    availability: options.availability ?? {},
    handlers: { ...options.serverless?.handlers, ...options.handlers },
    publicEndpoints: { ...options.publicEndpoints },
    serverless: {
      ...options.serverless,
      workerCommands: { ...options.serverless?.workerCommands, ...options.workers },
      externalImages: [...(options.serverless?.externalImages ?? []), ...(options.externalImages ?? [])],
    },
    quirks,
    bodyLimitBytes,
    stateDebounceMs,
    routeInterceptor: options.routeInterceptor,
    faults: options.faults === undefined ? undefined : toFaultPlan(options.faults),
    onReply: options.onReply,
    serverlessFactory: options.serverlessFactory,
    rateLimit: options.rateLimit ?? {},
    rateLimitClock: options.rateLimitClock,
    spendCapPerHour,
    serverlessWorkerQuota,
    v1Retired: options.v1Retired ?? false,
    pageSize,
  };
}
