// An endpoint's workers and releases as plain types (ListEndpointWorkersResponse,
// ListEndpointReleasesResponse): the SDK's getEndpointWorkers / getEndpointReleases declarations
// name these, and must not name zod's. schemasV2.ts holds its schemas' outputs equal to them at
// compile time. Field names are the service's; keys it adds later are kept.

import type { Integer } from "./integer";

/** One active worker of a serverless endpoint (Worker). */
export interface EndpointWorker {
  [key: string]: unknown;
  /** The worker's id: what getWorkerLog takes as `workerId`. */
  id: string;
  /** RUNNING (serving a job), IDLE (ready, polling), INITIALIZING, THROTTLED (waiting on capacity) or UNHEALTHY. */
  status: string;
  /**
   * True when the worker runs an older endpoint configuration than the current one (mid rolling
   * update): its `version` differs from the answer's `endpointVersion`. The service's own flag.
   */
  isStale?: boolean | undefined;
  /** The endpoint configuration version the worker runs; absent when unknown. */
  version?: Integer | undefined;
  /** GPUs allocated to the worker (0 on CPU endpoints). */
  gpuCount?: Integer | undefined;
  /** The container image the worker runs. */
  image?: string | undefined;
  /** Seconds the worker has been running; absent until it is placed and running. */
  uptimeSeconds?: Integer | undefined;
  /** The GPU type the worker is placed on; absent until placed. */
  gpuTypeId?: string | undefined;
  /** The data center the worker is placed in; absent until placed. */
  dataCenterId?: string | undefined;
  /** When the worker last started (RFC 3339); absent if it has not started. */
  startedAt?: string | undefined;
}

/** The workers counted by status (WorkerSummary): running + idle + initializing + throttled + unhealthy == total. */
export interface WorkerSummary {
  [key: string]: unknown;
  running?: Integer | undefined;
  idle?: Integer | undefined;
  initializing?: Integer | undefined;
  throttled?: Integer | undefined;
  unhealthy?: Integer | undefined;
  /** All workers currently allocated to the endpoint. */
  total?: Integer | undefined;
}

/** `GET /v2/serverless/{id}/workers`: the endpoint's active workers (scaled-down ones are not listed). */
export interface EndpointWorkers {
  [key: string]: unknown;
  /** One entry per active worker. */
  workers: EndpointWorker[];
  /** The workers counted by status. */
  summary?: WorkerSummary | undefined;
  /** The endpoint's current configuration version; a worker whose `version` differs is stale. Absent when unknown. */
  endpointVersion?: Integer | undefined;
}

/** One changed field of a release (ReleaseDiffEntry). */
export interface ReleaseDiffEntry {
  [key: string]: unknown;
  /** The changed configuration field, e.g. `gpuCount` or `template.imageName`. */
  field: string;
  /** The previous value, as raw JSON; null when the field was added. */
  old?: unknown;
  /** The new value, as raw JSON; null when the field was removed. */
  new?: unknown;
}

/** One release of an endpoint: a versioned configuration snapshot (Release). */
export interface EndpointRelease {
  [key: string]: unknown;
  id: string;
  /** The endpoint configuration version this release produced. */
  version?: Integer | undefined;
  /** GIT_BUILD (a completed build, see `buildId`) or MANUAL (a configuration change). */
  source?: string | undefined;
  /** The build that produced a GIT_BUILD release; absent for MANUAL ones. */
  buildId?: string | undefined;
  /** The user who created the release. */
  createdByUserId?: string | undefined;
  /** Workers currently running this release's version. */
  workerCount?: Integer | undefined;
  /** When the release was made (RFC 3339). */
  createdAt?: string | undefined;
  /** The configuration fields this release changed. */
  diff?: ReleaseDiffEntry[] | undefined;
}

/** How far the current version has rolled out (RolloutSummary). */
export interface RolloutSummary {
  [key: string]: unknown;
  /** True while any worker still runs an older version. */
  inProgress: boolean;
  /** Workers running the endpoint's current version. */
  workersOnLatest: Integer;
  /** All workers currently allocated to the endpoint. */
  workersTotal: Integer;
  /** Percent (0..100) of workers on the current version; 0 when there are none. */
  percentOnLatest?: Integer | undefined;
}

/** `GET /v2/serverless/{id}/releases`, every page read: the release history and the rollout. */
export interface EndpointReleases {
  [key: string]: unknown;
  /** Every release, newest first. */
  releases: EndpointRelease[];
  /** The rollout of the current version. */
  rollout: RolloutSummary;
  /** The endpoint's current configuration version; absent when unknown. */
  endpointVersion?: Integer | undefined;
}
