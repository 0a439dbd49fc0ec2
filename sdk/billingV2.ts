/**
 * The service's billing histories as the management API v2 serves them, one read per history, in
 * the service's field names: `records` (one per bucket, and per resource where the history is per
 * resource; every amount in USD) and `metadata` (the resolved window, the record count, the number
 * of distinct resources and the `totals` in USD). v2 API only: on a /v1 URL each fails with a
 * ConfigError saying to give the /v2 URL (v1's histories: getBilling).
 *
 * The window: `startTime` / `endTime` (default: the 30 days up to now; the service snaps them to
 * bucket boundaries), or `lastN` buckets ending with the current one; `bucketSize` hour, day
 * (default), week, month or year. Bad arguments (a date that is not one, an end before the start,
 * `lastN` with a start or end, a filter the history does not have) fail with a BillingQueryError
 * naming the argument, the value and the fix, before any request. Connection: see LookupOptions.
 */
import type { Integer } from "../client/integer";
import type * as pulumi from "@pulumi/pulumi";
import type {
  AccountBillingHistory,
  BillingBucketSizeV2,
  ClusterBillingHistory,
  NetworkVolumeBillingHistory,
  PodBillingHistory,
  PublicEndpointBillingHistory,
  ServerlessBillingHistory,
} from "../client/billingV2Types";
import type { LookupOptions } from "./connection";
import type { LookupInputs } from "./lookups";
import { read, readOutput } from "./readCall";

export type {
  AccountBillingHistory,
  AccountBillingRecord,
  BillingBucketSizeV2,
  BillingMetadataV2,
  ClusterBillingHistory,
  ClusterBillingRecord,
  NetworkVolumeBillingHistory,
  NetworkVolumeBillingRecordV2,
  PodBillingHistory,
  PodBillingRecordV2,
  PublicEndpointBillingHistory,
  PublicEndpointBillingRecord,
  ResolvedBillingQuery,
  ServerlessBillingHistory,
  ServerlessBillingRecordV2,
} from "../client/billingV2Types";

/** The window of a v2 billing history. */
export interface BillingWindowArgs {
  /** Start of the window, inclusive: an RFC 3339 date-time ("2026-01-01T00:00:00Z"; in TypeScript also a Date). Default: 30 days before endTime. Not with lastN. */
  startTime?: string | Date;
  /** End of the window, exclusive, after startTime: an RFC 3339 date-time (in TypeScript also a Date). Default: now. Not with lastN. */
  endTime?: string | Date;
  /** Length of each bucket: "hour", "day", "week", "month" or "year". Default "day". */
  bucketSize?: BillingBucketSizeV2;
  /** The last N buckets (a whole number, at least 1), ending with the current, unfinished one. Not with startTime or endTime. */
  lastN?: Integer;
}

/** Pod billing: the window, and one pod. */
export interface GetPodBillingArgs extends BillingWindowArgs {
  /** Only this pod (GPU or CPU); default every pod, one record per pod per bucket. */
  podId?: string;
}

/** Serverless billing: the window, and one endpoint. */
export interface GetServerlessBillingArgs extends BillingWindowArgs {
  /** Only this serverless endpoint; default every endpoint, one record per endpoint per bucket. */
  serverlessId?: string;
}

/** Network volume billing: the window, and one volume. */
export interface GetNetworkVolumeBillingArgs extends BillingWindowArgs {
  /** Only this network volume; default every volume, one record per volume per bucket. */
  networkVolumeId?: string;
}

/** Cluster billing: the window, and one cluster. */
export interface GetClusterBillingArgs extends BillingWindowArgs {
  /** Only this cluster; default every cluster, one record per cluster per bucket. */
  clusterId?: string;
}

/**
 * The account's total spend per bucket (`GET /v2/billing`), each cost component broken out in USD:
 * pods (`podGpuAmount`, `podCpuAmount`, `podDiskAmount`), serverless (`serverlessGpuAmount`, ...,
 * `serverlessFeeAmount`), storage (`storageStandardAmount`, `storageHighPerformanceAmount`), public
 * endpoints (`endpointAmount`) and clusters (`clusterGpuAmount`, `clusterDiskAmount`, `clusterNetworkingAmount`).
 */
export function getAccountBilling(args: BillingWindowArgs = {}, options: LookupOptions = {}): Promise<AccountBillingHistory> {
  return read("getAccountBilling", args, options);
}
/** {@link getAccountBilling} taking Inputs. */
export function getAccountBillingOutput(
  args: LookupInputs<BillingWindowArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<AccountBillingHistory> {
  return readOutput("getAccountBilling", args, options);
}

/** Pod spend per pod per bucket (`GET /v2/billing/pods`): `podId`, `gpuAmount`, `cpuAmount`, `diskAmount`, `totalAmount` (USD). */
export function getPodBilling(args: GetPodBillingArgs = {}, options: LookupOptions = {}): Promise<PodBillingHistory> {
  return read("getPodBilling", args, options);
}
/** {@link getPodBilling} taking Inputs. */
export function getPodBillingOutput(
  args: LookupInputs<GetPodBillingArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<PodBillingHistory> {
  return readOutput("getPodBilling", args, options);
}

/**
 * Serverless endpoint spend per endpoint per bucket (`GET /v2/billing/serverless`): `serverlessId`,
 * `gpuAmount`, `cpuAmount`, `diskAmount`, `feeAmount` (the platform fee), `totalAmount` (USD).
 */
export function getServerlessBilling(args: GetServerlessBillingArgs = {}, options: LookupOptions = {}): Promise<ServerlessBillingHistory> {
  return read("getServerlessBilling", args, options);
}
/** {@link getServerlessBilling} taking Inputs. */
export function getServerlessBillingOutput(
  args: LookupInputs<GetServerlessBillingArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<ServerlessBillingHistory> {
  return readOutput("getServerlessBilling", args, options);
}

/** The account's spend on the service's public endpoints per bucket (`GET /v2/billing/endpoints`; not serverless endpoints): `totalAmount` (USD). */
export function getPublicEndpointBilling(args: BillingWindowArgs = {}, options: LookupOptions = {}): Promise<PublicEndpointBillingHistory> {
  return read("getPublicEndpointBilling", args, options);
}
/** {@link getPublicEndpointBilling} taking Inputs. */
export function getPublicEndpointBillingOutput(
  args: LookupInputs<BillingWindowArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<PublicEndpointBillingHistory> {
  return readOutput("getPublicEndpointBilling", args, options);
}

/** Storage spend per network volume per bucket (`GET /v2/billing/network-volumes`): `networkVolumeId`, `standardAmount`, `highPerformanceAmount`, `totalAmount` (USD). */
export function getNetworkVolumeBilling(
  args: GetNetworkVolumeBillingArgs = {},
  options: LookupOptions = {},
): Promise<NetworkVolumeBillingHistory> {
  return read("getNetworkVolumeBilling", args, options);
}
/** {@link getNetworkVolumeBilling} taking Inputs. */
export function getNetworkVolumeBillingOutput(
  args: LookupInputs<GetNetworkVolumeBillingArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<NetworkVolumeBillingHistory> {
  return readOutput("getNetworkVolumeBilling", args, options);
}

/** Cluster spend per cluster per bucket (`GET /v2/billing/clusters`): `clusterId`, `gpuAmount`, `diskAmount`, `networkingAmount` (inter-node), `totalAmount` (USD). */
export function getClusterBilling(args: GetClusterBillingArgs = {}, options: LookupOptions = {}): Promise<ClusterBillingHistory> {
  return read("getClusterBilling", args, options);
}
/** {@link getClusterBilling} taking Inputs. */
export function getClusterBillingOutput(
  args: LookupInputs<GetClusterBillingArgs> = {},
  options: LookupOptions = {},
): pulumi.Output<ClusterBillingHistory> {
  return readOutput("getClusterBilling", args, options);
}
