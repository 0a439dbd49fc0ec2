/**
 * Lookups of the service's catalog (v2 API only): the GPU types (with the serverless `pool` each
 * belongs to, which endpoints choose by), the CPU flavors and the data centers. Each has an
 * `...Output` form for use inside a program. On the v1 API they fail with a clear error.
 */
import * as pulumi from "@pulumi/pulumi";
import { apiVersionOf, ConfigError, CONFIG_KEYS } from "../client/config";
import type { ManagementClientV2 } from "../client/managementV2";
import type { CpuTypeV2, DataCenterV2, GpuTypeV2 } from "../client/catalogTypes";
import { lookupConnection, type LookupOptions } from "./connection";

export type { CpuTypeV2 as CpuType, DataCenterV2 as DataCenter, GpuTypeV2 as GpuType } from "../client/catalogTypes";

async function withCatalog<T>(lookup: string, options: LookupOptions, call: (client: ManagementClientV2) => Promise<T>): Promise<T> {
  const { apiKey, apiUrl } = lookupConnection(options);
  if (apiVersionOf(apiUrl) !== "v2") {
    throw new ConfigError(
      CONFIG_KEYS.apiUrl,
      `${lookup} needs the service's v2 API, but the management URL ends in /v1: set ${CONFIG_KEYS.apiUrl} (or the apiUrl option) to the /v2 URL.`,
    );
  }
  // Loaded on the first lookup: a program that reads no catalog never loads the client.
  const { ManagementClientV2 } = await import("../client/managementV2");
  const client = new ManagementClientV2({ baseUrl: apiUrl, apiKey });
  try {
    return await call(client);
  } finally {
    await client.close();
  }
}

/** Every GPU type: `id` (what pods' `gpuTypeIds` take), `name`, `memory` in GB, serverless `pool`. */
export function getGpuTypes(options: LookupOptions = {}): Promise<GpuTypeV2[]> {
  return withCatalog("getGpuTypes", options, (c) => c.gpuTypes());
}

/** Every CPU flavor: `id` (what `cpuFlavorIds` take), `name`, `group`. */
export function getCpuTypes(options: LookupOptions = {}): Promise<CpuTypeV2[]> {
  return withCatalog("getCpuTypes", options, (c) => c.cpuTypes());
}

/** Every data center: `id` (what `dataCenterIds` and `dataCenterId` take), `name`, `region`. */
export function getDataCenters(options: LookupOptions = {}): Promise<DataCenterV2[]> {
  return withCatalog("getDataCenters", options, (c) => c.dataCenters());
}

export const getGpuTypesOutput = (options: LookupOptions = {}) => pulumi.output(getGpuTypes(options));
export const getCpuTypesOutput = (options: LookupOptions = {}) => pulumi.output(getCpuTypes(options));
export const getDataCentersOutput = (options: LookupOptions = {}) => pulumi.output(getDataCenters(options));
