/**
 * Management v2 response shapes, as the reference's Pod, Endpoint, Template, ... The views are
 * typed with these, and /api/v2/openapi.json is generated from them, so what is sent and what is
 * documented are one definition.
 */
import { z } from "zod";
import { Account, AccountLimits, ListSecretsResponse, Secret } from "./account";
import { Build, ListBuildsResponse } from "./builds";
import { GlobalVolume, ListGlobalVolumesResponse } from "./globalVolumes";
import { Pagination } from "./pagination";
import { EcrDelegation, ListDelegationsResponse } from "./registryDelegations";
import {
  AvailabilityLevel,
  Cloud,
  Compliance,
  DataCenterRegion,
  EndpointScaling,
  EndpointType,
  FlashBoot,
  Mounts,
  PodAction,
  PodStatus,
  TemplateCategory,
  TemplateMounts,
  VolumeType,
} from "./requests";

const container = {
  image: z.string(),
  args: z.string(),
  disk: z.int(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  registry: z.string().nullable(),
};

/** The decoded command beside `args` (reference today 5.1: responses always return all three). */
const command = { cmd: z.array(z.string()), entrypoint: z.array(z.string()) };

const dateTime = z.string().meta({ format: "date-time" });

// ---- pods ----

export const PodRuntimePort = z.object({ private: z.int(), public: z.int().nullable(), type: z.string(), ip: z.string().nullable() });
export const PodRuntime = z.object({
  uptime: z.int(),
  gpus: z.array(z.object({ util: z.int(), memoryUtil: z.int() })),
  cpu: z.object({ util: z.int() }),
  memory: z.object({ util: z.int() }),
  ports: z.array(PodRuntimePort),
});
/** Cluster membership: the reference omits it from a standalone pod; a member's (management/clusters/) carries it. */
export const PodClusterRole = z.enum(["SLURM_CONTROLLER", "SLURM_COMPUTE", "RAY_HEAD", "RAY_WORKER"]);
export type PodClusterRole = z.infer<typeof PodClusterRole>;
const PodCluster = z.object({
  id: z.string(),
  rank: z.int().nullable(),
  role: PodClusterRole.optional(),
  ip: z.string().optional(),
});
const PodSshEndpoint = z.object({ host: z.string(), port: z.int(), username: z.string(), command: z.string() });

export const Pod = z.object({
  id: z.string(),
  name: z.string(),
  status: PodStatus,
  actions: z.array(PodAction),
  ...container,
  ...command,
  mounts: Mounts,
  /** vcpuCount and memory (GB) are the host's share for all the pod's GPUs (reference today 5.2). */
  gpu: z.object({ id: z.string(), count: z.int(), vcpuCount: z.number(), memory: z.number() }).optional(),
  cpu: z.object({ id: z.string(), vcpuCount: z.int(), memory: z.int() }).optional(),
  cloud: Cloud,
  dataCenterId: z.string().nullable(),
  cudaVersion: z.string().nullable(),
  ssh: z.object({ proxy: PodSshEndpoint.nullable(), direct: PodSshEndpoint.nullable() }),
  template: z.string().nullable(),
  cluster: PodCluster.optional(),
  cost: z.number(),
  locked: z.boolean(),
  globalNetworking: z.object({ enabled: z.boolean(), ip: z.string().optional(), internalDns: z.string().optional() }),
  runtime: PodRuntime.nullable(),
  createdAt: dateTime,
  startedAt: dateTime.nullable(),
});
export type Pod = z.infer<typeof Pod>;

// ---- serverless endpoints ----

export const QueueBasedRequestUrls = z.object({
  run: z.string(),
  runSync: z.string(),
  status: z.string(),
  stream: z.string(),
  cancel: z.string(),
  retry: z.string(),
  purgeQueue: z.string(),
  health: z.string(),
});
export const LoadBalancingRequestUrls = z.object({ base: z.string(), health: z.string() });

export const Endpoint = z.object({
  id: z.string(),
  name: z.string(),
  type: EndpointType,
  requestUrls: z.union([QueueBasedRequestUrls, LoadBalancingRequestUrls]),
  ...container,
  ...command,
  gpu: z
    .object({
      pools: z.array(z.string()),
      excludedTypes: z.array(z.string()).optional(),
      count: z.int(),
      allowedCudaVersions: z.array(z.string()),
      minCudaVersion: z.string().nullable(),
    })
    .nullable()
    .optional(),
  cpu: z.array(z.object({ id: z.string(), vcpuCount: z.int(), memory: z.int() })).optional(),
  workers: z.object({ min: z.int(), max: z.int(), idleTimeout: z.int().optional() }),
  scaling: EndpointScaling,
  dataCenterIds: z.array(z.string()),
  networkVolumes: z.array(z.string()),
  timeout: z.int(),
  flashboot: FlashBoot,
  createdAt: dateTime,
});
export type Endpoint = z.infer<typeof Endpoint>;

export const WorkerStatus = z.enum(["RUNNING", "IDLE", "INITIALIZING", "THROTTLED", "UNHEALTHY"]);
export const Worker = z.object({
  id: z.string(),
  status: WorkerStatus,
  isStale: z.boolean(),
  version: z.int().nullable(),
  gpuCount: z.int(),
  image: z.string().nullable(),
  uptimeSeconds: z.int().nullable(),
  gpuTypeId: z.string().nullable(),
  dataCenterId: z.string().nullable(),
  startedAt: dateTime.nullable(),
});
export type Worker = z.infer<typeof Worker>;
export const WorkerSummary = z.object({
  running: z.int(),
  idle: z.int(),
  initializing: z.int(),
  throttled: z.int(),
  unhealthy: z.int(),
  total: z.int(),
});
export const ListEndpointWorkersResponse = z.object({
  workers: z.array(Worker),
  summary: WorkerSummary,
  endpointVersion: z.int().nullable(),
});

export const Release = z.object({
  id: z.string(),
  version: z.int().nullable(),
  source: z.enum(["GIT_BUILD", "MANUAL"]),
  buildId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  workerCount: z.int(),
  createdAt: dateTime,
  diff: z.array(z.object({ field: z.string(), old: z.unknown(), new: z.unknown() })),
});
export const RolloutSummary = z.object({
  inProgress: z.boolean(),
  workersOnLatest: z.int(),
  workersTotal: z.int(),
  percentOnLatest: z.int(),
});

export const ListEndpointReleasesResponse = z.object({
  endpointVersion: z.int().nullable(),
  rollout: RolloutSummary,
  releases: z.array(Release),
  pagination: Pagination,
});

// ---- templates, network volumes, registries ----

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  ...container,
  ...command,
  mounts: TemplateMounts,
  serverless: z.boolean(),
  public: z.boolean(),
  category: TemplateCategory,
  startSsh: z.boolean(),
  startJupyter: z.boolean(),
  allowedCudaVersions: z.array(z.string()),
});
export type Template = z.infer<typeof Template>;

export const SshKeys = z.object({ keys: z.array(z.string()) });

export const NetworkVolume = z.object({ id: z.string(), name: z.string(), size: z.int(), dataCenter: z.string(), type: VolumeType });
export type NetworkVolume = z.infer<typeof NetworkVolume>;
export const Registry = z.object({ id: z.string(), name: z.string() });

// ---- catalog ----

const DataCenterAvailability = z.object({ id: z.string(), name: z.string(), availability: AvailabilityLevel });
export const GpuType = z.object({
  id: z.string(),
  name: z.string(),
  pool: z.string().nullable(),
  manufacturer: z.enum(["NVIDIA", "AMD", "UNKNOWN"]),
  memory: z.int(),
  secure: z.boolean(),
  community: z.boolean(),
  price: z.object({ secure: z.number(), community: z.number(), serverless: z.number().optional() }),
  maxCount: z.object({ secure: z.int(), community: z.int() }),
  availability: AvailabilityLevel.optional(),
  dataCenters: z.array(DataCenterAvailability).optional(),
  cudaVersions: z.array(z.object({ version: z.string(), available: z.boolean() })).optional(),
});
export type GpuType = z.infer<typeof GpuType>;
export const CpuType = z.object({
  id: z.string(),
  name: z.string(),
  group: z.string(),
  vcpu: z.object({ min: z.int(), max: z.int() }),
  ramGbPerVcpu: z.number(),
  price: z.object({ securePerVcpu: z.number(), serverlessPerVcpu: z.number() }),
  availability: AvailabilityLevel.optional(),
  dataCenters: z.array(DataCenterAvailability).optional(),
});
export type CpuType = z.infer<typeof CpuType>;
const CatalogResourceAvailability = DataCenterAvailability;
export const DataCenter = z.object({
  id: z.string(),
  name: z.string(),
  region: DataCenterRegion,
  globalNetwork: z.boolean(),
  networkVolumeTypes: z.array(VolumeType),
  compliance: z.array(Compliance),
  gpuAvailability: z.array(CatalogResourceAvailability).optional(),
  cpuAvailability: z.array(CatalogResourceAvailability).optional(),
});
export type DataCenter = z.infer<typeof DataCenter>;

// ---- billing ----

const timeRange = { startTime: dateTime, endTime: dateTime };
const amount = z.number();
const query = { ...timeRange, bucketSize: z.enum(["hour", "day", "week", "month", "year"]) };

export const PodBillingRecord = z.object({
  ...timeRange,
  podId: z.string(),
  totalAmount: amount,
  gpuAmount: amount,
  cpuAmount: amount,
  diskAmount: amount,
});
export const ListPodBillingResponse = z.object({
  records: z.array(PodBillingRecord),
  metadata: z.object({
    query: z.object({ ...query, podId: z.string().nullable().optional() }),
    recordCount: z.int(),
    uniquePodCount: z.int(),
    totals: z.object({ totalAmount: amount, gpuAmount: amount, cpuAmount: amount, diskAmount: amount }),
  }),
});
const serverlessAmounts = { totalAmount: amount, gpuAmount: amount, cpuAmount: amount, diskAmount: amount, feeAmount: amount };
export const ServerlessBillingRecord = z.object({ ...timeRange, serverlessId: z.string(), ...serverlessAmounts });
export const ListServerlessBillingResponse = z.object({
  records: z.array(ServerlessBillingRecord),
  metadata: z.object({
    query: z.object({ ...query, serverlessId: z.string().nullable().optional() }),
    recordCount: z.int(),
    uniqueServerlessCount: z.int(),
    totals: z.object(serverlessAmounts),
  }),
});
const volumeAmounts = { totalAmount: amount, standardAmount: amount, highPerformanceAmount: amount };
export const NetworkVolumeBillingRecord = z.object({ ...timeRange, networkVolumeId: z.string(), ...volumeAmounts });
export const ListNetworkVolumeBillingResponse = z.object({
  records: z.array(NetworkVolumeBillingRecord),
  metadata: z.object({
    query: z.object({ ...query, networkVolumeId: z.string().nullable().optional() }),
    recordCount: z.int(),
    uniqueNetworkVolumeCount: z.int(),
    totals: z.object(volumeAmounts),
  }),
});

/** BillingAmounts: every family's components; the aggregate record's amounts and its totals. */
export const BILLING_AMOUNT_FIELDS = [
  "totalAmount",
  "podGpuAmount",
  "podCpuAmount",
  "podDiskAmount",
  "serverlessGpuAmount",
  "serverlessCpuAmount",
  "serverlessDiskAmount",
  "serverlessFeeAmount",
  "storageStandardAmount",
  "storageHighPerformanceAmount",
  "endpointAmount",
  "clusterGpuAmount",
  "clusterDiskAmount",
  "clusterNetworkingAmount",
] as const;
export type BillingAmountField = (typeof BILLING_AMOUNT_FIELDS)[number];
const billingAmounts = z.object(
  Object.fromEntries(BILLING_AMOUNT_FIELDS.map((field) => [field, amount])) as Record<BillingAmountField, typeof amount>,
);
export const BillingRecord = z.object({ ...timeRange, ...billingAmounts.shape });
export const ListBillingResponse = z.object({
  records: z.array(BillingRecord),
  metadata: z.object({ query: z.object(query), recordCount: z.int(), totals: billingAmounts }),
});
export const EndpointBillingRecord = z.object({ ...timeRange, totalAmount: amount });
export const ListEndpointBillingResponse = z.object({
  records: z.array(EndpointBillingRecord),
  metadata: z.object({ query: z.object(query), recordCount: z.int(), totals: z.object({ totalAmount: amount }) }),
});

// ---- errors and list wrappers ----

export const ErrorResponse = z.object({ title: z.string(), status: z.int(), detail: z.string(), errors: z.array(z.string()).optional() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

// Paginated (management-api-v2-today.md 1.3): pods, endpoints, templates (and releases above).
export const ListPodsResponse = z.object({ pods: z.array(Pod), pagination: Pagination });
export const ListEndpointsResponse = z.object({ endpoints: z.array(Endpoint), pagination: Pagination });
export const ListTemplatesResponse = z.object({ templates: z.array(Template), pagination: Pagination });
// Not paginated: the bare shape (the public template catalog answers the templates alone: today 1.2).
export const TemplateList = z.object({ templates: z.array(Template) });
export const ListNetworkVolumesResponse = z.object({ networkVolumes: z.array(NetworkVolume) });
export const ListRegistriesResponse = z.object({ registries: z.array(Registry) });
export const ListGpuTypesResponse = z.object({ gpus: z.array(GpuType) });
export const ListCpuTypesResponse = z.object({ cpus: z.array(CpuType) });
export const ListDataCentersResponse = z.object({ dataCenters: z.array(DataCenter) });

/** Every response schema by the reference's name (components.schemas of /api/v2/openapi.json). */
export const RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  Pod,
  ListPodsResponse,
  Endpoint,
  ListEndpointsResponse,
  ListEndpointWorkersResponse,
  ListEndpointReleasesResponse,
  Template,
  ListTemplatesResponse,
  NetworkVolume,
  ListNetworkVolumesResponse,
  Registry,
  ListRegistriesResponse,
  GpuType,
  ListGpuTypesResponse,
  CpuType,
  ListCpuTypesResponse,
  DataCenter,
  ListDataCentersResponse,
  SshKeys,
  ListPodBillingResponse,
  ListServerlessBillingResponse,
  ListNetworkVolumeBillingResponse,
  ListBillingResponse,
  ListEndpointBillingResponse,
  TemplateList,
  GlobalVolume,
  ListGlobalVolumesResponse,
  Build,
  ListBuildsResponse,
  EcrDelegation,
  ListDelegationsResponse,
  ErrorResponse,
  Account,
  AccountLimits,
  Secret,
  ListSecretsResponse,
};
