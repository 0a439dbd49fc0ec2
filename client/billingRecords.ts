// Billing history rows as plain types: the SDK's getBilling declarations name these, and must not name
// zod's. schemas.ts holds its schemas' outputs equal to them at compile time.

/** One period of a pod or endpoint billing history; keys the service adds later are kept. */
export interface BillingRecord {
  [key: string]: unknown;
  /** USD charged for the group in this period. */
  amount?: number | undefined;
  diskSpaceBilledGb?: number | undefined;
  endpointId?: string | undefined;
  gpuTypeId?: string | undefined;
  podId?: string | undefined;
  /** Start of the period (ISO date-time). */
  time?: string | undefined;
  timeBilledMs?: number | undefined;
}

/** One period of the network volumes' billing history. */
export interface NetworkVolumeBillingRecord {
  [key: string]: unknown;
  /** USD charged in this period. */
  amount?: number | undefined;
  diskSpaceBilledGb?: number | undefined;
  highPerformanceStorageAmount?: number | undefined;
  highPerformanceStorageDiskSpaceBilledGb?: number | undefined;
  /** Start of the period (ISO date-time). */
  time?: string | undefined;
}
