// The v2 billing histories' answers as plain types (ListBillingResponse, ListPodBillingResponse,
// ...): the SDK's getAccountBilling ... getClusterBilling declarations name these, and must not name
// zod's. schemasV2.ts holds its schemas' outputs equal to them at compile time. Field names are the
// service's; every amount is in USD for the record's bucket (or, in `metadata.totals`, for all of
// them); times are RFC 3339, a bucket being [startTime, endTime).

import type { Integer } from "./integer";

/** A bucket size: hour, day (the service's default), week, month or year. */
export type BillingBucketSizeV2 = "hour" | "day" | "week" | "month" | "year";

/** The query as the service resolved it: the window snapped to bucket boundaries, the bucket size and the filter. */
export interface ResolvedBillingQuery {
  [key: string]: unknown;
  /** Start of the resolved window, inclusive (RFC 3339). */
  startTime: string;
  /** End of the resolved window, exclusive (RFC 3339). */
  endTime: string;
  bucketSize?: string | undefined;
  /** The podId filter applied (pod billing). */
  podId?: string | undefined;
  /** The serverlessId filter applied (serverless billing). */
  serverlessId?: string | undefined;
  /** The networkVolumeId filter applied (network volume billing). */
  networkVolumeId?: string | undefined;
  /** The clusterId filter applied (cluster billing). */
  clusterId?: string | undefined;
}

/** The account's spend in one bucket, every cost component broken out (BillingRecord), USD. */
export interface AccountBillingRecord {
  [key: string]: unknown;
  /** Start of the bucket, inclusive (RFC 3339). */
  startTime: string;
  /** End of the bucket, exclusive (RFC 3339). */
  endTime: string;
  /** Total across every resource, USD. */
  totalAmount: number;
  podGpuAmount?: number | undefined;
  podCpuAmount?: number | undefined;
  podDiskAmount?: number | undefined;
  serverlessGpuAmount?: number | undefined;
  serverlessCpuAmount?: number | undefined;
  serverlessDiskAmount?: number | undefined;
  serverlessFeeAmount?: number | undefined;
  storageStandardAmount?: number | undefined;
  storageHighPerformanceAmount?: number | undefined;
  /** Public endpoints, USD. */
  endpointAmount?: number | undefined;
  clusterGpuAmount?: number | undefined;
  clusterDiskAmount?: number | undefined;
  clusterNetworkingAmount?: number | undefined;
}

/** One pod's spend in one bucket (PodBillingRecord), USD. */
export interface PodBillingRecordV2 {
  [key: string]: unknown;
  startTime: string;
  endTime: string;
  totalAmount: number;
  podId?: string | undefined;
  gpuAmount?: number | undefined;
  cpuAmount?: number | undefined;
  diskAmount?: number | undefined;
}

/** One serverless endpoint's spend in one bucket (ServerlessBillingRecord), USD. */
export interface ServerlessBillingRecordV2 {
  [key: string]: unknown;
  startTime: string;
  endTime: string;
  totalAmount: number;
  /** The endpoint's id. */
  serverlessId?: string | undefined;
  gpuAmount?: number | undefined;
  cpuAmount?: number | undefined;
  diskAmount?: number | undefined;
  /** The platform fee, USD. */
  feeAmount?: number | undefined;
}

/** The account's public endpoint spend in one bucket (EndpointBillingRecord), USD. */
export interface PublicEndpointBillingRecord {
  [key: string]: unknown;
  startTime: string;
  endTime: string;
  totalAmount: number;
}

/** One network volume's storage spend in one bucket (NetworkVolumeBillingRecord), USD. */
export interface NetworkVolumeBillingRecordV2 {
  [key: string]: unknown;
  startTime: string;
  endTime: string;
  totalAmount: number;
  networkVolumeId?: string | undefined;
  standardAmount?: number | undefined;
  highPerformanceAmount?: number | undefined;
}

/** One cluster's spend in one bucket (ClusterBillingRecord; clusters are GPU-only), USD. */
export interface ClusterBillingRecord {
  [key: string]: unknown;
  startTime: string;
  endTime: string;
  totalAmount: number;
  clusterId?: string | undefined;
  gpuAmount?: number | undefined;
  diskAmount?: number | undefined;
  /** Inter-node networking, USD. */
  networkingAmount?: number | undefined;
}

/**
 * What the service says about the records: the resolved query, how many records, how many distinct
 * resources they span (`uniquePodCount`, `uniqueServerlessCount`, `uniqueNetworkVolumeCount` or
 * `uniqueClusterCount`, by history) and the totals (the history's amounts summed, USD).
 */
export interface BillingMetadataV2 {
  [key: string]: unknown;
  query?: ResolvedBillingQuery | undefined;
  /** Number of records returned. */
  recordCount?: Integer | undefined;
  uniquePodCount?: Integer | undefined;
  uniqueServerlessCount?: Integer | undefined;
  uniqueNetworkVolumeCount?: Integer | undefined;
  uniqueClusterCount?: Integer | undefined;
  /** The amounts summed over the records, USD, named as on the records. */
  totals?: Record<string, number> | undefined;
}

/** `GET /v2/billing`. */
export interface AccountBillingHistory {
  records: AccountBillingRecord[];
  metadata?: BillingMetadataV2 | undefined;
}
/** `GET /v2/billing/pods`. */
export interface PodBillingHistory {
  records: PodBillingRecordV2[];
  metadata?: BillingMetadataV2 | undefined;
}
/** `GET /v2/billing/serverless`. */
export interface ServerlessBillingHistory {
  records: ServerlessBillingRecordV2[];
  metadata?: BillingMetadataV2 | undefined;
}
/** `GET /v2/billing/endpoints`. */
export interface PublicEndpointBillingHistory {
  records: PublicEndpointBillingRecord[];
  metadata?: BillingMetadataV2 | undefined;
}
/** `GET /v2/billing/network-volumes`. */
export interface NetworkVolumeBillingHistory {
  records: NetworkVolumeBillingRecordV2[];
  metadata?: BillingMetadataV2 | undefined;
}
/** `GET /v2/billing/clusters`. */
export interface ClusterBillingHistory {
  records: ClusterBillingRecord[];
  metadata?: BillingMetadataV2 | undefined;
}
