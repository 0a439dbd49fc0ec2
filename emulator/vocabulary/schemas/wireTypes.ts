// The v1 response shapes as plain types, for what `startEmulator()` hands out (`inspect()`). wire.ts
// defines them as schemas (what /v1/openapi.json documents) and holds each schema's output equal to
// its type here at compile time; the public declarations name these so that zod's stay out of them.

/** A GPU type's price sheet, USD per GPU-hour. */
export interface GpuTypeSheetView {
  id: string;
  count: number;
  displayName: string;
  securePrice: number;
  communityPrice: number;
  secureSpotPrice: number;
  communitySpotPrice: number;
  oneWeekPrice: number;
  oneMonthPrice: number;
  threeMonthPrice: number;
  sixMonthPrice: number;
}

export interface CpuTypeView {
  id: string;
  displayName: string;
  cores: number;
  threadsPerCore: number;
  groupId: string;
}

/** The host a pod runs on. */
export interface Machine {
  minPodGpuCount: number;
  gpuTypeId?: string | undefined;
  gpuType?: GpuTypeSheetView | undefined;
  gpuDisplayName?: string | undefined;
  currentPricePerGpu?: number | undefined;
  gpuAvailable: number;
  cpuCount: number;
  cpuTypeId: string;
  cpuType: CpuTypeView;
  location: string;
  dataCenterId: string;
  diskThroughputMBps: number;
  maxDownloadSpeedMbps: number;
  maxUploadSpeedMbps: number;
  supportPublicIp: boolean;
  secureCloud: boolean;
  costPerHr: number;
}

export interface SavingsPlanView {
  costPerHr: number;
  endTime: string;
  gpuTypeId: string;
  id: string;
  podId: string;
  startTime: string;
}

export interface NetworkVolume {
  id: string;
  name: string;
  /** GB. */
  size: number;
  dataCenterId: string;
}

export interface Template {
  id: string;
  name: string;
  imageName: string;
  category: "NVIDIA" | "AMD" | "CPU";
  containerDiskInGb: number;
  containerRegistryAuthId?: string | undefined;
  dockerEntrypoint: string[];
  dockerStartCmd: string[];
  earned: number;
  env: Record<string, string>;
  isPublic: boolean;
  isServerless: boolean;
  ports: string[];
  readme: string;
  runtimeInMin: number;
  volumeInGb: number;
  volumeMountPath: string;
}

export interface Pod {
  id: string;
  name: string;
  desiredStatus: "RUNNING" | "EXITED" | "TERMINATED";
  image: string;
  /** Same value as `image`; some clients read this name. */
  imageName: string;
  env: Record<string, string>;
  ports: string[];
  publicIp: string | null;
  portMappings: Record<string, number> | null;
  costPerHr: number | string;
  adjustedCostPerHr: number;
  gpu?: GpuTypeSheetView | undefined;
  cpuFlavorId?: string | undefined;
  vcpuCount: number;
  memoryInGb: number;
  containerDiskInGb: number;
  volumeInGb: number;
  volumeMountPath: string;
  volumeEncrypted: boolean;
  dockerEntrypoint: string[];
  dockerStartCmd: string[];
  containerRegistryAuthId?: string | undefined;
  interruptible: boolean;
  locked: boolean;
  lastStartedAt?: string | undefined;
  lastStatusChange: string;
  machineId: string;
  consumerUserId: string;
  templateId: string | null;
  endpointId: string | null;
  aiApiId: string | null;
  slsVersion: number;
  machine?: Machine | undefined;
  networkVolume?: NetworkVolume | undefined;
  savingsPlans?: SavingsPlanView[] | undefined;
  template?: Template | undefined;
}

export interface Endpoint {
  id: string;
  name: string;
  templateId: string;
  computeType: "GPU" | "CPU";
  gpuTypeIds: string[];
  gpuCount: number;
  instanceIds?: string[] | undefined;
  /** An array; a comma-separated string with the `endpointDataCenterIdsAsString` quirk. */
  dataCenterIds: string[] | string;
  allowedCudaVersions?: string[] | undefined;
  minCudaVersion?: string | undefined;
  networkVolumeId?: string | undefined;
  networkVolumeIds?: string[] | undefined;
  env: Record<string, string>;
  executionTimeoutMs: number;
  idleTimeout: number;
  scalerType: "QUEUE_DELAY" | "REQUEST_COUNT";
  scalerValue: number;
  workersMin: number;
  workersMax: number;
  version: number;
  createdAt: string;
  userId: string;
  template?: Template | undefined;
  workers?: Pod[] | undefined;
}

export interface ContainerRegistryAuth {
  id: string;
  name: string;
}
