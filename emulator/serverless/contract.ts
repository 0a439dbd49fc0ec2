/**
 * The seam between the emulator's management side (/v1: accounts, endpoints, templates, billing)
 * and its job side (/v2: queues, simulated workers, handlers). The management side owns the
 * records and tells the job side what changed; the job side owns workers and reports the worker
 * time it used so billing can charge for it. Neither side reaches into the other's stores.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../clock";
import type { FaultRoute, JobFaultSource } from "../faults";
import type { InterceptResult } from "../http/interception";
import type { LogRing } from "../logs/logRing";

/** Everything the job side needs to know about one endpoint, resolved from endpoint + template. */
export interface EndpointSpec {
  id: string;
  /** Owning account; "public" for endpoints preloaded with --public-endpoint (callable by every key). */
  accountId: string;
  name: string;
  templateId: string;
  /** The template's imageName: selects the handler (built-in default unless --handler maps it). */
  imageName: string;
  /** Template env overlaid with endpoint env. */
  env: Record<string, string>;
  computeType: "GPU" | "CPU";
  gpuTypeIds: string[];
  gpuCount: number;
  cpuFlavorIds: string[];
  dataCenterIds: string[];
  workersMin: number;
  workersMax: number;
  /** Seconds an idle worker lives before it is stopped. */
  idleTimeout: number;
  scalerType: "QUEUE_DELAY" | "REQUEST_COUNT";
  scalerValue: number;
  /** Endpoint-level default execution timeout in ms (a job's policy may override it). */
  executionTimeoutMs: number;
  /** Increments on every rolling release (template or endpoint update). */
  version: number;
  /** Endpoint type; LOAD_BALANCER endpoints have no queue (see the load-balancing issue). */
  type: "QUEUE" | "LOAD_BALANCER";
}

/** A placement decision for one new worker. */
export interface Placement {
  gpuTypeId: string | null;
  cpuFlavorId: string | null;
  dataCenterId: string;
  /** Price of this worker in credits per hour. */
  costPerHr: number;
}

/** One closed interval of a worker being up (initializing, idle or running), for billing. */
export interface WorkerUsage {
  accountId: string;
  endpointId: string;
  workerId: string;
  templateId: string;
  imageName: string;
  gpuTypeId: string | null;
  dataCenterId: string;
  costPerHr: number;
  /** Service-time ms since the epoch. */
  startMs: number;
  endMs: number;
}

/** A worker as the management side shows it (GET /endpoints/{id}?includeWorkers=true). */
export interface WorkerView {
  id: string;
  status: "initializing" | "idle" | "running" | "unhealthy";
  gpuTypeId: string | null;
  dataCenterId: string;
  costPerHr: number;
  createdAtMs: number;
  /** The endpoint version this worker runs (management v2 shows rollouts with it). */
  version?: number;
}

/** What the management side provides to the job side. */
export interface ServerlessDeps {
  clock: Clock;
  /** Account for an Authorization header value (`Bearer <key>` or the bare key), or undefined. */
  resolveAccount(authorization: string | undefined): string | undefined;
  /** The endpoint as callable by this account (own endpoints and public ones), or undefined. */
  getEndpoint(accountId: string, endpointId: string): EndpointSpec | undefined;
  /** Choose GPU type / CPU flavor / data center for a new worker by the endpoint's priority lists. */
  place(spec: EndpointSpec): Placement | { error: string };
  recordWorkerUsage(usage: WorkerUsage): void;
  /**
   * What a worker process the emulator starts needs to reach the job API: its base URL (ending in
   * /v2) and a key of the endpoint's account. Undefined until the job API listens. Without this
   * dep, no worker process is started.
   */
  workerAccess?(accountId: string): { serverlessUrl: string; apiKey: string } | undefined;
  /**
   * The env a worker of the account boots with: `env` with the account's secret placeholders
   * resolved now (a rotated secret reaches only workers that boot later). Without it, `env` as is.
   */
  bootEnv?(accountId: string, env: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * Worker faults (`worker IMAGE: fail=P, slow=P@D, ...` in a fault SPEC, faults/workerFaults.ts):
   * asked once per job a simulated worker starts and per request a load-balancing worker is
   * handed. Without it, no job is faulted.
   */
  jobFaults?: JobFaultSource;
}

/** What the job side provides to the management side. */
export interface ServerlessService {
  /** Serves one request under /v2 (`pathname` starts after `/v2`, e.g. `/abc123/run`). */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
  /** The job API's operations as fault-injection routes (paths from the root: `/v2/{endpoint_id}/run`). */
  readonly faultRoutes?: readonly FaultRoute[];
  /** Switches fault injection on the job API on (the injector's interceptor) or off (undefined). */
  setInterceptor?(interceptor: JobInterceptor | undefined): void;
  /** An endpoint was created or updated (rolling release when `version` changed). */
  endpointChanged(spec: EndpointSpec): void;
  /** An endpoint was deleted: stop its workers, drop its jobs. */
  endpointDeleted(accountId: string, endpointId: string): void;
  workers(endpointId: string): WorkerView[];
  /** Log files of the worker processes the service started (none when it starts none). */
  workerLogs?(): WorkerLog[];
  /** A worker's log lines (serverless/workerLogBook.ts), live or recently stopped; undefined when none is kept. */
  workerLog?(endpointId: string, workerId: string): LogRing | undefined;
  /** Stops timers and workers; records final usage. */
  close(): Promise<void>;
}

/**
 * Fault injection's seam on the job API (emulator/faults): called once the request is
 * authenticated (the public description, /v2/openapi.json, needs no key), its operation found and
 * counted against its limit, before the body is read.
 * Its decision as the management routers' interceptor's (http/interception.ts).
 */
export type JobInterceptor = (call: {
  operationId: string;
  req: IncomingMessage;
  res: ServerResponse;
}) => InterceptResult | Promise<InterceptResult>;

/** One worker process's log, as `emu.inspect()` lists it. */
export interface WorkerLog {
  accountId: string;
  endpointId: string;
  workerId: string;
  /** Absolute path of the file holding the process's stdout and stderr. */
  path: string;
  /** Still running. */
  running: boolean;
}
