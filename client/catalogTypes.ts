// The v2 catalog's entries as plain types: the SDK's getGpuTypes/getCpuTypes/getDataCenters
// declarations name these, and must not name zod's. schemasV2.ts holds its schemas' outputs equal to
// them at compile time.

import type { Integer } from "./integer";

/** A GPU type of the catalog; keys the service adds later are kept. */
export interface GpuTypeV2 {
  [key: string]: unknown;
  /** The id resources take in `gpuTypeIds`, e.g. "NVIDIA GeForce RTX 4090". */
  id: string;
  name?: string | undefined;
  pool?: string | undefined;
  /** GPU memory, GB. */
  memory?: Integer | undefined;
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

/** Which slice of the public template catalog: "official" (curated by the service), "verified" (verified community templates) or "community" (everything else shared publicly). */
export type PublicTemplateSource = "official" | "verified" | "community";

/** A template of the public catalog (`GET /v2/catalog/templates`), in the service's field names. */
export interface PublicTemplate {
  [key: string]: unknown;
  /** What pods' and endpoints' `templateId` take. */
  id: string;
  name?: string | undefined;
  /** The container image. */
  image?: string | undefined;
  /** Arguments passed to the container entrypoint. */
  args?: string | undefined;
  /** Container disk, GB. */
  disk?: Integer | undefined;
  /** Exposed ports, as port/protocol ("8888/http"). */
  ports?: string[] | undefined;
  /** Environment variables the template sets. */
  env?: Record<string, string> | undefined;
  /** The template's volume mounts, as the service sends them. */
  mounts?: unknown;
  /** True for serverless worker templates, false for pod templates. */
  serverless?: boolean | undefined;
  public?: boolean | undefined;
  /** NVIDIA, AMD or CPU. */
  category?: string | undefined;
  /** Whether containers from it get SSH access provisioned at startup. */
  startSsh?: boolean | undefined;
  /** Whether containers from it start JupyterLab at startup. */
  startJupyter?: boolean | undefined;
  /** Acceptable CUDA versions ("12.4"); empty means any. */
  allowedCudaVersions?: string[] | undefined;
}

/** One slice of the public template catalog: at most 100 templates (the service caps it). */
export interface PublicTemplateList {
  templates: PublicTemplate[];
}
