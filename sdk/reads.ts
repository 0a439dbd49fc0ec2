/**
 * Reads a deploy needs beyond the lookups of one resource (management API v2 only; on a /v1 URL
 * each fails with a ConfigError saying to give the /v2 URL): an endpoint's workers and releases,
 * the public template catalog, and the recent lines of a pod's or a worker's log. Results keep the
 * service's field names. Each has a Promise form and an `...Output` form taking Inputs. Bad
 * arguments fail with a LookupArgsError naming the argument, the value and the fix, before any
 * request. Connection: see LookupOptions.
 */
import type { Integer } from "../client/integer";
import type * as pulumi from "@pulumi/pulumi";
import type { PublicTemplateList, PublicTemplateSource } from "../client/catalogTypes";
import type { LogSource, RecentLog } from "../client/logs";
import type { EndpointReleases, EndpointWorkers } from "../client/workerTypes";
import type { LookupOptions } from "./connection";
import type { LookupInputs } from "./lookups";
import { read, readOutput } from "./readCall";

export type { PublicTemplate, PublicTemplateList, PublicTemplateSource } from "../client/catalogTypes";
export type {
  EndpointRelease,
  EndpointReleases,
  EndpointWorker,
  EndpointWorkers,
  ReleaseDiffEntry,
  RolloutSummary,
  WorkerSummary,
} from "../client/workerTypes";

/** Which endpoint. */
export interface GetEndpointWorkersArgs {
  /** The serverless endpoint's id (an Endpoint's `id`). */
  endpointId: string;
}

/** Which endpoint. */
export interface GetEndpointReleasesArgs {
  /** The serverless endpoint's id (an Endpoint's `id`). */
  endpointId: string;
}

/** Which slice of the catalog. */
export interface GetPublicTemplatesArgs {
  /** "official" (curated by the service), "verified" (community templates the service verified) or "community" (every other shared one). Default "official". */
  source?: PublicTemplateSource;
}

/** How much of a log to read: the read is bounded by lines, bytes and time, and ends once the stream is quiet. */
interface LogReadArgs {
  /** The most lines to return, newest last: 1..5000. Default 20. */
  lines?: Integer;
  /** The most bytes of line text (UTF-8) to keep; past it the oldest lines are dropped. Default 16384. */
  maxBytes?: Integer;
  /** Milliseconds the whole read may take, connection included. Default 10000. */
  timeoutMs?: Integer;
  /** Only "container" (the container's output) or "system" (the host's lifecycle lines). Default both. */
  source?: LogSource;
}

/** Whose log. */
export interface GetPodLogArgs extends LogReadArgs {
  /** The pod's id (a Pod's `id`). */
  podId: string;
}

/** Whose log. */
export interface GetWorkerLogArgs extends LogReadArgs {
  /** The serverless endpoint's id. */
  endpointId: string;
  /** The worker's id, as getEndpointWorkers lists it. */
  workerId: string;
}

/**
 * An endpoint's active workers (`GET /v2/serverless/{id}/workers`): each with `status`, `isStale`
 * (true while it runs an older configuration than `endpointVersion`, mid rolling update), its
 * `version`, `gpuCount`, `image`, `uptimeSeconds` (seconds), GPU type and data center; the
 * `summary` counts by status; `endpointVersion`, the current configuration version.
 */
export function getEndpointWorkers(args: GetEndpointWorkersArgs, options: LookupOptions = {}): Promise<EndpointWorkers> {
  return read("getEndpointWorkers", args, options);
}
/** {@link getEndpointWorkers} taking Inputs. */
export function getEndpointWorkersOutput(
  args: LookupInputs<GetEndpointWorkersArgs>,
  options: LookupOptions = {},
): pulumi.Output<EndpointWorkers> {
  return readOutput("getEndpointWorkers", args, options);
}

/**
 * An endpoint's release history (`GET /v2/serverless/{id}/releases`, every page): `releases`
 * newest first (each a configuration `version` with its `source`, `workerCount` and `diff`), the
 * `rollout` of the current version (`inProgress`, `workersOnLatest`, `workersTotal`,
 * `percentOnLatest` in percent) and `endpointVersion`.
 */
export function getEndpointReleases(args: GetEndpointReleasesArgs, options: LookupOptions = {}): Promise<EndpointReleases> {
  return read("getEndpointReleases", args, options);
}
/** {@link getEndpointReleases} taking Inputs. */
export function getEndpointReleasesOutput(
  args: LookupInputs<GetEndpointReleasesArgs>,
  options: LookupOptions = {},
): pulumi.Output<EndpointReleases> {
  return readOutput("getEndpointReleases", args, options);
}

/**
 * The public template catalog (`GET /v2/catalog/templates`), one slice at a time, at most 100
 * templates: each template's `id` (what `templateId` takes), `image`, `disk` (GB), `ports`, `env`,
 * and `serverless` (true for worker templates, false for pod templates).
 */
export function getPublicTemplates(args: GetPublicTemplatesArgs = {}, options: LookupOptions = {}): Promise<PublicTemplateList> {
  return read("getPublicTemplates", args, options);
}
/** {@link getPublicTemplates} taking Inputs. */
export function getPublicTemplatesOutput(
  args: LookupInputs<GetPublicTemplatesArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<PublicTemplateList> {
  return readOutput("getPublicTemplates", args, options);
}

/**
 * The last lines of a pod's log (`GET /v2/pods/{id}/logs`), secrets redacted: `lines` (each with
 * `source`, `line` and `ts`), `droppedLines` (dropped by `maxBytes`), why the read `ended`, and the
 * stream's `url` to read more. See docs/logs.md.
 */
export function getPodLog(args: GetPodLogArgs, options: LookupOptions = {}): Promise<RecentLog> {
  return read("getPodLog", args, options);
}
/** {@link getPodLog} taking Inputs. */
export function getPodLogOutput(args: LookupInputs<GetPodLogArgs>, options: LookupOptions = {}): pulumi.Output<RecentLog> {
  return readOutput("getPodLog", args, options);
}

/** The last lines of a serverless worker's log (`GET /v2/serverless/{id}/workers/{workerId}/logs`), secrets redacted; as {@link getPodLog}. */
export function getWorkerLog(args: GetWorkerLogArgs, options: LookupOptions = {}): Promise<RecentLog> {
  return read("getWorkerLog", args, options);
}
/** {@link getWorkerLog} taking Inputs. */
export function getWorkerLogOutput(args: LookupInputs<GetWorkerLogArgs>, options: LookupOptions = {}): pulumi.Output<RecentLog> {
  return readOutput("getWorkerLog", args, options);
}
