/** Endpoint request bodies and queries (EndpointCreateInput, EndpointUpdateInput). */
import { z } from "zod";
import { ENDPOINT_CPU_FLAVOR_IDS } from "../catalog";
import { cudaVersion, dataCenterIdsField, gpuTypeIdsField, nameField, queryFlag } from "./common";

/** Field schemas without defaults, shared by create (which adds defaults) and update (which must not). */
const fields = {
  allowedCudaVersions: z.array(cudaVersion),
  cpuFlavorIds: z.array(z.enum(ENDPOINT_CPU_FLAVOR_IDS)),
  dataCenterIds: dataCenterIdsField,
  executionTimeoutMs: z.int().min(1),
  flashboot: z.boolean(),
  gpuCount: z.int().min(1),
  gpuTypeIds: gpuTypeIdsField,
  idleTimeout: z.int().min(1).max(3600),
  minCudaVersion: cudaVersion,
  name: nameField,
  networkVolumeId: z.string().min(1).nullable(),
  networkVolumeIds: z.array(z.string().min(1)),
  scalerType: z.enum(["QUEUE_DELAY", "REQUEST_COUNT"]),
  scalerValue: z.int().min(1),
  templateId: z.string().min(1),
  vcpuCount: z.int().min(1),
  workersMax: z.int().min(0),
  workersMin: z.int().min(0),
};

export const ENDPOINT_DEFAULTS = {
  executionTimeoutMs: 600_000,
  flashboot: true,
  workersMax: 3,
} as const;

export const EndpointCreateInput = z.strictObject({
  allowedCudaVersions: fields.allowedCudaVersions.optional(),
  computeType: z.enum(["GPU", "CPU"]).default("GPU"),
  cpuFlavorIds: fields.cpuFlavorIds.optional(),
  dataCenterIds: fields.dataCenterIds.optional(),
  executionTimeoutMs: fields.executionTimeoutMs.default(ENDPOINT_DEFAULTS.executionTimeoutMs),
  flashboot: fields.flashboot.optional(),
  gpuCount: fields.gpuCount.default(1),
  gpuTypeIds: fields.gpuTypeIds.optional(),
  idleTimeout: fields.idleTimeout.default(5),
  minCudaVersion: fields.minCudaVersion.optional(),
  name: fields.name.optional(),
  networkVolumeId: fields.networkVolumeId.optional(),
  networkVolumeIds: fields.networkVolumeIds.optional(),
  scalerType: fields.scalerType.default("QUEUE_DELAY"),
  scalerValue: fields.scalerValue.default(4),
  templateId: fields.templateId,
  vcpuCount: fields.vcpuCount.default(2),
  workersMax: fields.workersMax.default(ENDPOINT_DEFAULTS.workersMax),
  workersMin: fields.workersMin.default(0),
});
export type EndpointCreateInput = z.infer<typeof EndpointCreateInput>;

/** Every create field except computeType (which needs a new endpoint). */
export const EndpointUpdateInput = z.strictObject({
  allowedCudaVersions: fields.allowedCudaVersions.optional(),
  cpuFlavorIds: fields.cpuFlavorIds.optional(),
  dataCenterIds: fields.dataCenterIds.optional(),
  executionTimeoutMs: fields.executionTimeoutMs.optional(),
  flashboot: fields.flashboot.optional(),
  gpuCount: fields.gpuCount.optional(),
  gpuTypeIds: fields.gpuTypeIds.optional(),
  idleTimeout: fields.idleTimeout.optional(),
  minCudaVersion: fields.minCudaVersion.optional(),
  name: fields.name.optional(),
  networkVolumeId: fields.networkVolumeId.optional(),
  networkVolumeIds: fields.networkVolumeIds.optional(),
  scalerType: fields.scalerType.optional(),
  scalerValue: fields.scalerValue.optional(),
  templateId: fields.templateId.optional(),
  vcpuCount: fields.vcpuCount.optional(),
  workersMax: fields.workersMax.optional(),
  workersMin: fields.workersMin.optional(),
});
export type EndpointUpdateInput = z.infer<typeof EndpointUpdateInput>;

export const ENDPOINT_UPDATE_HINTS: Readonly<Record<string, string>> = {
  computeType: "computeType can only be set when the endpoint is created; create a new endpoint to change it",
};

/** Changing one of these starts a rolling release (version + 1): workers must be replaced. */
export const ENDPOINT_RELEASE_FIELDS = [
  "templateId",
  "gpuTypeIds",
  "gpuCount",
  "cpuFlavorIds",
  "vcpuCount",
  "dataCenterIds",
  "allowedCudaVersions",
  "minCudaVersion",
  "networkVolumeId",
  "networkVolumeIds",
] as const;

export const EndpointQuery = z.object({
  includeTemplate: queryFlag(),
  includeWorkers: queryFlag(),
});
export type EndpointQuery = z.infer<typeof EndpointQuery>;
