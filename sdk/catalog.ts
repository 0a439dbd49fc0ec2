/**
 * Lookups of the service's catalog (v2 API only): the GPU types (with the serverless `pool` each
 * belongs to, which endpoints choose by), the CPU flavors and the data centers. Each has an
 * `...Output` form for use inside a program. On the v1 API they fail with a clear error.
 */
import * as pulumi from "@pulumi/pulumi";
import type { CpuTypeV2, DataCenterV2, GpuTypeV2 } from "../client/catalogTypes";
import { withV2Client } from "../model/lookup/v2Lookups";
import { lookupConnection, type LookupOptions } from "./connection";

export type { CpuTypeV2 as CpuType, DataCenterV2 as DataCenter, GpuTypeV2 as GpuType } from "../client/catalogTypes";

/** Every GPU type: `id` (what pods' `gpuTypeIds` take), `name`, `memory` in GB, serverless `pool`. */
export async function getGpuTypes(options: LookupOptions = {}): Promise<GpuTypeV2[]> {
  return withV2Client("getGpuTypes", lookupConnection(options), (c) => c.gpuTypes());
}

/** Every CPU flavor: `id` (what `cpuFlavorIds` take), `name`, `group`. */
export async function getCpuTypes(options: LookupOptions = {}): Promise<CpuTypeV2[]> {
  return withV2Client("getCpuTypes", lookupConnection(options), (c) => c.cpuTypes());
}

/** Every data center: `id` (what `dataCenterIds` and `dataCenterId` take), `name`, `region`. */
export async function getDataCenters(options: LookupOptions = {}): Promise<DataCenterV2[]> {
  return withV2Client("getDataCenters", lookupConnection(options), (c) => c.dataCenters());
}

export const getGpuTypesOutput = (options: LookupOptions = {}) => pulumi.output(getGpuTypes(options));
export const getCpuTypesOutput = (options: LookupOptions = {}) => pulumi.output(getCpuTypes(options));
export const getDataCentersOutput = (options: LookupOptions = {}) => pulumi.output(getDataCenters(options));
