// The v2 catalog's entries as plain types: the SDK's getGpuTypes/getCpuTypes/getDataCenters
// declarations name these, and must not name zod's. schemasV2.ts holds its schemas' outputs equal to
// them at compile time.

/** A GPU type of the catalog; keys the service adds later are kept. */
export interface GpuTypeV2 {
  [key: string]: unknown;
  /** The id resources take in `gpuTypeIds`, e.g. "NVIDIA GeForce RTX 4090". */
  id: string;
  name?: string | undefined;
  pool?: string | undefined;
  /** GPU memory, GB. */
  memory?: number | undefined;
}

/** A CPU flavor of the catalog. */
export interface CpuTypeV2 {
  [key: string]: unknown;
  /** The id resources take in `cpuFlavorIds`. */
  id: string;
  name?: string | undefined;
  group?: string | undefined;
}

/** A data center of the catalog. */
export interface DataCenterV2 {
  [key: string]: unknown;
  /** The id resources take in `dataCenterId(s)`, e.g. "EU-RO-1". */
  id: string;
  name?: string | undefined;
  region?: string | undefined;
}
