// Request bodies and query parameters of the management API, exactly the reference's fields.
// The live service rejects unknown keys in create bodies (422 "Extra input keys"): the provider
// builds bodies from each resource's field table, whose rows the compiler holds to these types (a
// create field without its row does not compile).
//
// Optional fields accept `undefined` explicitly (JSON leaves them out) so that callers under
// exactOptionalPropertyTypes can pass `{ name: args.name }` without ceremony.

import type {
  BillingBucketSize,
  CloudType,
  ComputeType,
  EndpointBillingGrouping,
  PodBillingGrouping,
  PodStatus,
  RentPriority,
  ScalerType,
  TemplateCategory,
} from "./enums";

type Env = Readonly<Record<string, string>>;
type List = readonly string[];

export interface PodCreateInput {
  name?: string | undefined;
  imageName?: string | undefined;
  computeType?: ComputeType | undefined;
  cloudType?: CloudType | undefined;
  gpuTypeIds?: List | undefined;
  gpuTypePriority?: RentPriority | undefined;
  gpuCount?: number | undefined;
  allowedCudaVersions?: List | undefined;
  cpuFlavorIds?: List | undefined;
  cpuFlavorPriority?: RentPriority | undefined;
  vcpuCount?: number | undefined;
  dataCenterIds?: List | undefined;
  dataCenterPriority?: RentPriority | undefined;
  countryCodes?: List | undefined;
  interruptible?: boolean | undefined;
  locked?: boolean | undefined;
  containerDiskInGb?: number | null | undefined;
  volumeInGb?: number | null | undefined;
  volumeMountPath?: string | undefined;
  networkVolumeId?: string | undefined;
  templateId?: string | undefined;
  containerRegistryAuthId?: string | undefined;
  env?: Env | undefined;
  ports?: List | undefined;
  dockerEntrypoint?: List | undefined;
  dockerStartCmd?: List | undefined;
  globalNetworking?: boolean | undefined;
  /** v2 only (create-time flags; never sent to v1). */
  startSsh?: boolean | undefined;
  startJupyter?: boolean | undefined;
  supportPublicIp?: boolean | undefined;
  minRAMPerGPU?: number | undefined;
  minVCPUPerGPU?: number | undefined;
  minDiskBandwidthMBps?: number | undefined;
  minDownloadMbps?: number | undefined;
  minUploadMbps?: number | undefined;
}

/** PATCH /pods/{id}: "may trigger a reset" (the container disk is wiped). */
export interface PodUpdateInput {
  name?: string | undefined;
  imageName?: string | undefined;
  env?: Env | undefined;
  ports?: List | undefined;
  containerDiskInGb?: number | null | undefined;
  volumeInGb?: number | null | undefined;
  volumeMountPath?: string | undefined;
  dockerEntrypoint?: List | undefined;
  dockerStartCmd?: List | undefined;
  containerRegistryAuthId?: string | undefined;
  globalNetworking?: boolean | undefined;
  locked?: boolean | undefined;
}

export interface EndpointCreateInput {
  templateId: string;
  name?: string | undefined;
  computeType?: ComputeType | undefined;
  gpuTypeIds?: List | undefined;
  gpuCount?: number | undefined;
  allowedCudaVersions?: List | undefined;
  minCudaVersion?: string | undefined;
  cpuFlavorIds?: List | undefined;
  vcpuCount?: number | undefined;
  dataCenterIds?: List | undefined;
  networkVolumeId?: string | undefined;
  networkVolumeIds?: List | undefined;
  workersMin?: number | undefined;
  workersMax?: number | undefined;
  idleTimeout?: number | undefined;
  executionTimeoutMs?: number | undefined;
  scalerType?: ScalerType | undefined;
  scalerValue?: number | undefined;
  flashboot?: boolean | undefined;
}

/** PATCH /endpoints/{id}: every create field except computeType; triggers a rolling release. */
export type EndpointUpdateInput = Partial<Omit<EndpointCreateInput, "computeType">>;

export interface TemplateCreateInput {
  name: string;
  imageName: string;
  category?: TemplateCategory | undefined;
  isServerless?: boolean | undefined;
  isPublic?: boolean | undefined;
  containerDiskInGb?: number | undefined;
  volumeInGb?: number | undefined;
  volumeMountPath?: string | undefined;
  containerRegistryAuthId?: string | undefined;
  dockerEntrypoint?: List | undefined;
  dockerStartCmd?: List | undefined;
  env?: Env | undefined;
  ports?: List | undefined;
  readme?: string | undefined;
  /** v2 only (never sent to v1). */
  startSsh?: boolean | undefined;
  startJupyter?: boolean | undefined;
}

/** PATCH /templates/{id}: every create field except category and isServerless. */
export type TemplateUpdateInput = Partial<Omit<TemplateCreateInput, "category" | "isServerless">>;

export interface NetworkVolumeCreateInput {
  name: string;
  /** GB, 0..4000. */
  size: number;
  /** Fixed for the volume's life. */
  dataCenterId: string;
}

/** Size can only grow. */
export interface NetworkVolumeUpdateInput {
  name?: string | undefined;
  size?: number | undefined;
}

/** There is no update: a change of any field needs a new credential. */
export interface ContainerRegistryAuthCreateInput {
  name: string;
  username: string;
  password: string;
}

// ---- query parameters -------------------------------------------------------------------------

/** includeX flags of GET /pods and GET /pods/{id}. */
export interface PodInclude {
  includeMachine?: boolean | undefined;
  includeNetworkVolume?: boolean | undefined;
  includeSavingsPlans?: boolean | undefined;
  includeTemplate?: boolean | undefined;
  includeWorkers?: boolean | undefined;
}

/** Filters of GET /pods (array filters are sent as repeated parameters). */
export interface PodListFilter extends PodInclude {
  computeType?: ComputeType | undefined;
  cpuFlavorId?: List | undefined;
  dataCenterId?: List | undefined;
  desiredStatus?: PodStatus | undefined;
  endpointId?: string | undefined;
  gpuTypeId?: List | undefined;
  id?: string | undefined;
  imageName?: string | undefined;
  name?: string | undefined;
  networkVolumeId?: string | undefined;
  templateId?: string | undefined;
}

export interface EndpointInclude {
  includeTemplate?: boolean | undefined;
  includeWorkers?: boolean | undefined;
}

export interface TemplateInclude {
  includeEndpointBoundTemplates?: boolean | undefined;
  includePublicTemplates?: boolean | undefined;
  includeServiceTemplates?: boolean | undefined;
}

/** A date-time: ISO string ("2023-01-01T00:00:00Z") or a Date. */
export type DateTimeInput = string | Date;

export interface PodBillingQuery {
  bucketSize?: BillingBucketSize | undefined;
  startTime?: DateTimeInput | undefined;
  endTime?: DateTimeInput | undefined;
  gpuTypeId?: string | undefined;
  grouping?: PodBillingGrouping | undefined;
  podId?: string | undefined;
}

export interface EndpointBillingQuery {
  bucketSize?: BillingBucketSize | undefined;
  startTime?: DateTimeInput | undefined;
  endTime?: DateTimeInput | undefined;
  dataCenterId?: List | undefined;
  endpointId?: string | undefined;
  gpuTypeId?: List | undefined;
  grouping?: EndpointBillingGrouping | undefined;
  imageName?: string | undefined;
  templateId?: string | undefined;
}

export interface NetworkVolumeBillingQuery {
  bucketSize?: BillingBucketSize | undefined;
  startTime?: DateTimeInput | undefined;
  endTime?: DateTimeInput | undefined;
}
