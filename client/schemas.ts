// Zod schemas of the management API's answers (field names are the service's own, see
// shared/reference/management-api-schemas.txt). Tolerant by design (see wire.ts): only `id` is
// required, numbers may be quoted, lists may be comma strings, null means absent, and fields the
// description does not list pass through untyped. The input types live in inputs.ts and are
// re-exported here so that one import gives a caller every wire type.

import { z } from "zod";
import type { BillingRecord, NetworkVolumeBillingRecord } from "./billingRecords";
import type { Assert, Equals } from "./sameType";
import { ENDPOINT_TYPES, decodeEndpointType } from "./endpointType";
import { CLOUD_TYPES, COMPUTE_TYPES, POD_STATUSES, SCALER_TYPES, TEMPLATE_CATEGORIES } from "./enums";
import { looseEnum, wireArgv, wireBoolean, wireEnv, wireList, wireNumber, wireObject, wireStringList } from "./wire";

export * from "./inputs";

/** Some answers name the image `image`, others `imageName`: callers always see `imageName`. */
function imageToImageName(value: Record<string, unknown>): Record<string, unknown> {
  if (value["image"] === undefined) return value;
  const { image, ...rest } = value;
  return rest["imageName"] === undefined ? { ...rest, imageName: image } : rest;
}

/** Free-form nested objects (machine, gpu, savings plans): kept, not interpreted. */
const wireAny = wireObject({});

export const NetworkVolumeSchema = wireObject({
  id: z.string(),
  name: z.string().optional(),
  size: wireNumber.optional(),
  dataCenterId: z.string().optional(),
  /** v2 only: the storage tier the service gave the volume (its data center's primary one when none was asked for). */
  type: z.string().optional(),
});

export const PodSchema = wireObject(
  {
    id: z.string(),
    name: z.string().optional(),
    imageName: z.string().optional(),
    desiredStatus: looseEnum(POD_STATUSES).optional(),
    adjustedCostPerHr: wireNumber.optional(),
    costPerHr: wireNumber.optional(),
    aiApiId: z.string().optional(),
    endpointId: z.string().optional(),
    consumerUserId: z.string().optional(),
    containerDiskInGb: wireNumber.optional(),
    containerRegistryAuthId: z.string().optional(),
    cpuFlavorId: z.string().optional(),
    dockerEntrypoint: wireArgv.optional(),
    dockerStartCmd: wireArgv.optional(),
    env: wireEnv.optional(),
    gpu: wireAny.optional(),
    interruptible: wireBoolean.optional(),
    lastStartedAt: z.string().optional(),
    lastStatusChange: z.string().optional(),
    locked: wireBoolean.optional(),
    machine: wireAny.optional(),
    machineId: z.string().optional(),
    memoryInGb: wireNumber.optional(),
    networkVolume: NetworkVolumeSchema.optional(),
    /** Internal port -> public port, e.g. {"22": 10341}. Absent while the Pod initialises. */
    portMappings: z.record(z.string(), wireNumber).optional(),
    ports: wireStringList.optional(),
    /** Absent (null on the wire) while the Pod initialises. */
    publicIp: z.string().optional(),
    savingsPlans: wireList(wireAny).optional(),
    slsVersion: wireNumber.optional(),
    templateId: z.string().optional(),
    vcpuCount: wireNumber.optional(),
    volumeEncrypted: wireBoolean.optional(),
    volumeInGb: wireNumber.optional(),
    volumeMountPath: z.string().optional(),
    // Create-time fields the description's Pod omits; typed in case the service echoes them.
    computeType: looseEnum(COMPUTE_TYPES).optional(),
    cloudType: looseEnum(CLOUD_TYPES).optional(),
    gpuCount: wireNumber.optional(),
    networkVolumeId: z.string().optional(),
    globalNetworking: wireBoolean.optional(),
  },
  imageToImageName,
);

export const TemplateSchema = wireObject(
  {
    id: z.string(),
    name: z.string().optional(),
    imageName: z.string().optional(),
    category: looseEnum(TEMPLATE_CATEGORIES).optional(),
    containerDiskInGb: wireNumber.optional(),
    containerRegistryAuthId: z.string().optional(),
    dockerEntrypoint: wireArgv.optional(),
    dockerStartCmd: wireArgv.optional(),
    earned: wireNumber.optional(),
    env: wireEnv.optional(),
    isPublic: wireBoolean.optional(),
    isServerless: wireBoolean.optional(),
    ports: wireStringList.optional(),
    readme: z.string().optional(),
    runtimeInMin: wireNumber.optional(),
    volumeInGb: wireNumber.optional(),
    volumeMountPath: z.string().optional(),
  },
  imageToImageName,
);

export const EndpointSchema = wireObject(
  {
    id: z.string(),
    name: z.string().optional(),
    /** QUEUE or LOAD_BALANCER; carried in the name on the v1 wire (see endpointType.ts). */
    type: looseEnum(ENDPOINT_TYPES).optional(),
    templateId: z.string().optional(),
    /** Present when read with includeTemplate. */
    template: TemplateSchema.optional(),
    /** Present when read with includeWorkers. */
    workers: wireList(PodSchema).optional(),
    allowedCudaVersions: wireStringList.optional(),
    computeType: looseEnum(COMPUTE_TYPES).optional(),
    cpuFlavorIds: wireStringList.optional(),
    createdAt: z.string().optional(),
    dataCenterIds: wireStringList.optional(),
    env: wireEnv.optional(),
    executionTimeoutMs: wireNumber.optional(),
    /** A boolean on v1; v2 also reports the level PRIORITY_FLASHBOOT. */
    flashboot: z.union([wireBoolean, z.string()]).optional(),
    gpuCount: wireNumber.optional(),
    gpuTypeIds: wireStringList.optional(),
    idleTimeout: wireNumber.optional(),
    instanceIds: wireStringList.optional(),
    minCudaVersion: z.string().optional(),
    networkVolumeId: z.string().optional(),
    networkVolumeIds: wireStringList.optional(),
    scalerType: looseEnum(SCALER_TYPES).optional(),
    scalerValue: wireNumber.optional(),
    userId: z.string().optional(),
    vcpuCount: wireNumber.optional(),
    /** Bumped by the service whenever the template or env changes (a rolling release). */
    version: wireNumber.optional(),
    workersMax: wireNumber.optional(),
    workersMin: wireNumber.optional(),
  },
  decodeEndpointType,
);

/** Reads return id and name only: the username and password are never given back. */
export const ContainerRegistryAuthSchema = wireObject({
  id: z.string(),
  name: z.string().optional(),
});

export const BillingRecordSchema = wireObject({
  /** USD charged for the group in this period. */
  amount: wireNumber.optional(),
  diskSpaceBilledGb: wireNumber.optional(),
  endpointId: z.string().optional(),
  gpuTypeId: z.string().optional(),
  podId: z.string().optional(),
  /** Start of the period (ISO date-time). */
  time: z.string().optional(),
  timeBilledMs: wireNumber.optional(),
});

export const NetworkVolumeBillingRecordSchema = wireObject({
  amount: wireNumber.optional(),
  diskSpaceBilledGb: wireNumber.optional(),
  highPerformanceStorageAmount: wireNumber.optional(),
  highPerformanceStorageDiskSpaceBilledGb: wireNumber.optional(),
  time: z.string().optional(),
});

export const PodListSchema = wireList(PodSchema);
export const EndpointListSchema = wireList(EndpointSchema);
export const TemplateListSchema = wireList(TemplateSchema);
export const NetworkVolumeListSchema = wireList(NetworkVolumeSchema);
export const ContainerRegistryAuthListSchema = wireList(ContainerRegistryAuthSchema);
export const BillingRecordListSchema = wireList(BillingRecordSchema);
export const NetworkVolumeBillingRecordListSchema = wireList(NetworkVolumeBillingRecordSchema);

export type Pod = z.output<typeof PodSchema>;
export type Endpoint = z.output<typeof EndpointSchema>;
export type Template = z.output<typeof TemplateSchema>;
export type NetworkVolume = z.output<typeof NetworkVolumeSchema>;
export type ContainerRegistryAuth = z.output<typeof ContainerRegistryAuthSchema>;
export type { BillingRecord, NetworkVolumeBillingRecord } from "./billingRecords";
type _BillingRecordMatches = Assert<Equals<z.output<typeof BillingRecordSchema>, BillingRecord>>;
type _NetworkVolumeBillingRecordMatches = Assert<Equals<z.output<typeof NetworkVolumeBillingRecordSchema>, NetworkVolumeBillingRecord>>;
