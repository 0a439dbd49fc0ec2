/**
 * Response shapes. The view functions are typed with these (z.output), so what the emulator sends
 * and what /v1/openapi.json documents come from one definition. Field names and types follow the
 * service's schemas; `imageName` on Pod and `template` on Pod (includeTemplate) are the two
 * additions, both reported from the live service.
 */
import { z } from "zod";
import type { Assert, Equals } from "../../sameType";
import type * as View from "./wireTypes";

const money = z.number();

export const GpuTypeSheet = z.object({
  id: z.string(),
  count: z.int(),
  displayName: z.string(),
  securePrice: money,
  communityPrice: money,
  secureSpotPrice: money,
  communitySpotPrice: money,
  oneWeekPrice: money,
  oneMonthPrice: money,
  threeMonthPrice: money,
  sixMonthPrice: money,
});

export const CpuType = z.object({
  id: z.string(),
  displayName: z.string(),
  cores: z.int(),
  threadsPerCore: z.int(),
  groupId: z.string(),
});

export const Machine = z.object({
  minPodGpuCount: z.int(),
  gpuTypeId: z.string().optional(),
  gpuType: GpuTypeSheet.optional(),
  gpuDisplayName: z.string().optional(),
  currentPricePerGpu: money.optional(),
  gpuAvailable: z.int(),
  cpuCount: z.int(),
  cpuTypeId: z.string(),
  cpuType: CpuType,
  location: z.string(),
  dataCenterId: z.string(),
  diskThroughputMBps: z.int(),
  maxDownloadSpeedMbps: z.int(),
  maxUploadSpeedMbps: z.int(),
  supportPublicIp: z.boolean(),
  secureCloud: z.boolean(),
  costPerHr: money,
});
export type Machine = View.Machine;
type _MachineMatches = Assert<Equals<z.output<typeof Machine>, View.Machine>>;

type _GpuTypeSheetMatches = Assert<Equals<z.output<typeof GpuTypeSheet>, View.GpuTypeSheetView>>;
type _CpuTypeMatches = Assert<Equals<z.output<typeof CpuType>, View.CpuTypeView>>;

export const SavingsPlan = z.object({
  costPerHr: money,
  endTime: z.string(),
  gpuTypeId: z.string(),
  id: z.string(),
  podId: z.string(),
  startTime: z.string(),
});

type _SavingsPlanMatches = Assert<Equals<z.output<typeof SavingsPlan>, View.SavingsPlanView>>;

export const NetworkVolume = z.object({
  id: z.string(),
  name: z.string(),
  size: z.int(),
  dataCenterId: z.string(),
});
export type NetworkVolume = View.NetworkVolume;
type _NetworkVolumeMatches = Assert<Equals<z.output<typeof NetworkVolume>, View.NetworkVolume>>;

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  imageName: z.string(),
  category: z.enum(["NVIDIA", "AMD", "CPU"]),
  containerDiskInGb: z.int(),
  containerRegistryAuthId: z.string().optional(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  earned: money,
  env: z.record(z.string(), z.string()),
  isPublic: z.boolean(),
  isServerless: z.boolean(),
  ports: z.array(z.string()),
  readme: z.string(),
  runtimeInMin: z.int(),
  volumeInGb: z.int(),
  volumeMountPath: z.string(),
});
export type Template = View.Template;
type _TemplateMatches = Assert<Equals<z.output<typeof Template>, View.Template>>;

export const Pod = z.object({
  id: z.string(),
  name: z.string(),
  desiredStatus: z.enum(["RUNNING", "EXITED", "TERMINATED"]),
  image: z.string(),
  /** Same value as `image`; some clients read this name. */
  imageName: z.string(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  publicIp: z.string().nullable(),
  portMappings: z.record(z.string(), z.int()).nullable(),
  costPerHr: z.union([money, z.string()]),
  adjustedCostPerHr: money,
  gpu: GpuTypeSheet.optional(),
  cpuFlavorId: z.string().optional(),
  vcpuCount: z.number(),
  memoryInGb: z.number(),
  containerDiskInGb: z.int(),
  volumeInGb: z.int(),
  volumeMountPath: z.string(),
  volumeEncrypted: z.boolean(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  containerRegistryAuthId: z.string().optional(),
  interruptible: z.boolean(),
  locked: z.boolean(),
  lastStartedAt: z.string().optional(),
  lastStatusChange: z.string(),
  machineId: z.string(),
  consumerUserId: z.string(),
  templateId: z.string().nullable(),
  endpointId: z.string().nullable(),
  aiApiId: z.string().nullable(),
  slsVersion: z.int(),
  machine: Machine.optional(),
  networkVolume: NetworkVolume.optional(),
  savingsPlans: z.array(SavingsPlan).optional(),
  template: Template.optional(),
});
export type Pod = View.Pod;
type _PodMatches = Assert<Equals<z.output<typeof Pod>, View.Pod>>;

export const Endpoint = z.object({
  id: z.string(),
  name: z.string(),
  templateId: z.string(),
  computeType: z.enum(["GPU", "CPU"]),
  gpuTypeIds: z.array(z.string()),
  gpuCount: z.int(),
  instanceIds: z.array(z.string()).optional(),
  /** An array; a comma-separated string with the `endpointDataCenterIdsAsString` quirk. */
  dataCenterIds: z.union([z.array(z.string()), z.string()]),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().optional(),
  networkVolumeId: z.string().optional(),
  networkVolumeIds: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()),
  executionTimeoutMs: z.int(),
  idleTimeout: z.int(),
  scalerType: z.enum(["QUEUE_DELAY", "REQUEST_COUNT"]),
  scalerValue: z.int(),
  workersMin: z.int(),
  workersMax: z.int(),
  version: z.int(),
  createdAt: z.string(),
  userId: z.string(),
  template: Template.optional(),
  workers: z.array(Pod).optional(),
});
export type Endpoint = View.Endpoint;
type _EndpointMatches = Assert<Equals<z.output<typeof Endpoint>, View.Endpoint>>;

export const ContainerRegistryAuth = z.object({
  id: z.string(),
  name: z.string(),
});
export type ContainerRegistryAuth = View.ContainerRegistryAuth;
type _ContainerRegistryAuthMatches = Assert<Equals<z.output<typeof ContainerRegistryAuth>, View.ContainerRegistryAuth>>;

export const BillingRecord = z.object({
  amount: money,
  diskSpaceBilledGb: z.int(),
  endpointId: z.string().optional(),
  gpuTypeId: z.string().optional(),
  podId: z.string().optional(),
  time: z.string().meta({ format: "date-time" }),
  timeBilledMs: z.int(),
});

export const NetworkVolumeBillingRecord = z.object({
  amount: money,
  diskSpaceBilledGb: z.int(),
  highPerformanceStorageAmount: money,
  highPerformanceStorageDiskSpaceBilledGb: z.int(),
  time: z.string().meta({ format: "date-time" }),
});

export const ErrorBody = z.object({
  error: z.string(),
  status: z.int(),
});
