// Zod schemas of the management API v2's answers (management-api-v2-schemas.txt): the nested
// shapes, read tolerantly like the v1 ones (wire.ts): only `id` is required where the reference
// requires it, null means absent, and fields not listed pass through.

import { z } from "zod";
import type {
  AccountBillingHistory,
  ClusterBillingHistory,
  NetworkVolumeBillingHistory,
  PodBillingHistory,
  PublicEndpointBillingHistory,
  ServerlessBillingHistory,
} from "./billingV2Types";
import type { CpuTypeV2, DataCenterV2, GpuTypeV2, PublicTemplate } from "./catalogTypes";
import type { EndpointRelease, EndpointWorker, EndpointWorkers, RolloutSummary } from "./workerTypes";
import type { Assert, Equals } from "./sameType";
import { looseEnum, wireBoolean, wireEnv, wireNumber, wireStringList } from "./wire";

const loose = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema.optional());

const container = {
  image: optional(z.string()),
  args: optional(z.string()),
  // Exec form, element for element (a comma or blank inside an element is part of it).
  cmd: optional(z.array(z.string())),
  entrypoint: optional(z.array(z.string())),
  disk: optional(wireNumber),
  env: optional(wireEnv),
  ports: optional(wireStringList),
  registry: optional(z.string()),
};

export const PodStatusesV2 = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;

export const RuntimePortV2Schema = loose({
  private: wireNumber,
  public: optional(wireNumber),
  type: optional(z.string()),
  ip: optional(z.string()),
});

export const MountsV2Schema = loose({
  persistent: optional(loose({ size: optional(wireNumber), path: optional(z.string()) })),
  network: optional(z.array(loose({ volumeId: z.string(), path: optional(z.string()) }))),
});

export const PodV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  status: optional(looseEnum(PodStatusesV2)),
  /** The actions the pod's status allows now (any other is a 409). */
  actions: optional(z.array(z.string())),
  ...container,
  mounts: optional(MountsV2Schema),
  gpu: optional(
    loose({ id: optional(z.string()), count: optional(wireNumber), vcpuCount: optional(wireNumber), memory: optional(wireNumber) }),
  ),
  cpu: optional(loose({ id: optional(z.string()), vcpuCount: optional(wireNumber), memory: optional(wireNumber) })),
  cloud: optional(z.string()),
  dataCenterId: optional(z.string()),
  /** The host's CUDA version, kept while the pod is stopped; null when unknown (CPU pods). */
  cudaVersion: optional(z.string()),
  template: optional(z.string()),
  cost: optional(wireNumber),
  locked: optional(wireBoolean),
  globalNetworking: optional(loose({ enabled: optional(wireBoolean) })),
  runtime: optional(loose({ ports: optional(z.array(RuntimePortV2Schema)) })),
  createdAt: optional(z.string()),
  startedAt: optional(z.string()),
});

export const EndpointV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  type: optional(z.string()),
  requestUrls: optional(z.record(z.string(), z.string())),
  ...container,
  gpu: optional(
    loose({
      pools: optional(wireStringList),
      excludedTypes: optional(wireStringList),
      count: optional(wireNumber),
      allowedCudaVersions: optional(wireStringList),
      minCudaVersion: optional(z.string()),
    }),
  ),
  cpu: optional(z.array(loose({ id: z.string(), vcpuCount: optional(wireNumber) }))),
  workers: optional(loose({ min: optional(wireNumber), max: optional(wireNumber), idleTimeout: optional(wireNumber) })),
  scaling: optional(loose({ type: z.string(), queueDelay: optional(wireNumber), requestCount: optional(wireNumber) })),
  dataCenterIds: optional(wireStringList),
  networkVolumes: optional(wireStringList),
  timeout: optional(wireNumber),
  flashboot: optional(z.string()),
  createdAt: optional(z.string()),
});

export const WorkerV2Schema = loose({
  id: z.string(),
  status: z.string(),
  isStale: optional(wireBoolean),
  version: optional(wireNumber),
  gpuCount: optional(wireNumber),
  image: optional(z.string()),
  uptimeSeconds: optional(wireNumber),
  gpuTypeId: optional(z.string()),
  dataCenterId: optional(z.string()),
  startedAt: optional(z.string()),
});
const WorkerSummaryV2Schema = loose({
  running: optional(wireNumber),
  idle: optional(wireNumber),
  initializing: optional(wireNumber),
  throttled: optional(wireNumber),
  unhealthy: optional(wireNumber),
  total: optional(wireNumber),
});
export const WorkersV2Schema = loose({
  workers: z.array(WorkerV2Schema),
  summary: optional(WorkerSummaryV2Schema),
  endpointVersion: optional(wireNumber),
});
export const RolloutV2Schema = loose({
  inProgress: wireBoolean,
  workersOnLatest: wireNumber,
  workersTotal: wireNumber,
  percentOnLatest: optional(wireNumber),
});
const ReleaseDiffEntryV2Schema = loose({ field: z.string(), old: z.unknown().optional(), new: z.unknown().optional() });
export const ReleaseV2Schema = loose({
  id: z.string(),
  version: optional(wireNumber),
  source: optional(z.string()),
  buildId: optional(z.string()),
  createdByUserId: optional(z.string()),
  workerCount: optional(wireNumber),
  createdAt: optional(z.string()),
  diff: optional(z.array(ReleaseDiffEntryV2Schema)),
});
/** One page of the release history: the rollout and the endpoint's version are the same on every page. */
export const ReleasesV2Schema = loose({
  endpointVersion: optional(wireNumber),
  rollout: RolloutV2Schema,
  releases: optional(z.array(ReleaseV2Schema)),
});
type _WorkerMatches = Assert<Equals<z.output<typeof WorkerV2Schema>, EndpointWorker>>;
type _WorkersMatch = Assert<Equals<z.output<typeof WorkersV2Schema>, EndpointWorkers>>;
type _ReleaseMatches = Assert<Equals<z.output<typeof ReleaseV2Schema>, EndpointRelease>>;
type _RolloutMatches = Assert<Equals<z.output<typeof RolloutV2Schema>, RolloutSummary>>;

export const TemplateV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  ...container,
  mounts: optional(MountsV2Schema),
  serverless: optional(wireBoolean),
  public: optional(wireBoolean),
  category: optional(z.string()),
});

/** A template of the public catalog (listPublicTemplates); its `registry` is always null (not the account's). */
export const PublicTemplateV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  image: optional(z.string()),
  args: optional(z.string()),
  disk: optional(wireNumber),
  ports: optional(wireStringList),
  env: optional(wireEnv),
  mounts: z.unknown().optional(),
  serverless: optional(wireBoolean),
  public: optional(wireBoolean),
  category: optional(z.string()),
  startSsh: optional(wireBoolean),
  startJupyter: optional(wireBoolean),
  allowedCudaVersions: optional(wireStringList),
});
type _PublicTemplateMatches = Assert<Equals<z.output<typeof PublicTemplateV2Schema>, PublicTemplate>>;

export const NetworkVolumeV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  size: optional(wireNumber),
  dataCenter: optional(z.string()),
  type: optional(z.string()),
});

/** The account's registered SSH public keys (SshKeys), one authorized_keys line each. */
export const SshKeysV2Schema = loose({ keys: z.array(z.string()) });

export const RegistryV2Schema = loose({ id: z.string(), name: optional(z.string()) });

export const GpuTypeV2Schema = loose({
  id: z.string(),
  name: optional(z.string()),
  pool: optional(z.string()),
  memory: optional(wireNumber),
});
export const CpuTypeV2Schema = loose({ id: z.string(), name: optional(z.string()), group: optional(z.string()) });
export const DataCenterV2Schema = loose({ id: z.string(), name: optional(z.string()), region: optional(z.string()) });

const amounts = { totalAmount: wireNumber };
const window = { startTime: z.string(), endTime: z.string() };
const part = optional(wireNumber);
export const AccountBillingRecordV2Schema = loose({
  ...window,
  ...amounts,
  podGpuAmount: part,
  podCpuAmount: part,
  podDiskAmount: part,
  serverlessGpuAmount: part,
  serverlessCpuAmount: part,
  serverlessDiskAmount: part,
  serverlessFeeAmount: part,
  storageStandardAmount: part,
  storageHighPerformanceAmount: part,
  endpointAmount: part,
  clusterGpuAmount: part,
  clusterDiskAmount: part,
  clusterNetworkingAmount: part,
});
export const PodBillingRecordV2Schema = loose({
  ...window,
  ...amounts,
  podId: optional(z.string()),
  gpuAmount: part,
  cpuAmount: part,
  diskAmount: part,
});
export const ServerlessBillingRecordV2Schema = loose({
  ...window,
  ...amounts,
  serverlessId: optional(z.string()),
  gpuAmount: part,
  cpuAmount: part,
  diskAmount: part,
  feeAmount: part,
});
export const PublicEndpointBillingRecordV2Schema = loose({ ...window, ...amounts });
export const NetworkVolumeBillingRecordV2Schema = loose({
  ...window,
  ...amounts,
  networkVolumeId: optional(z.string()),
  standardAmount: part,
  highPerformanceAmount: part,
});
export const ClusterBillingRecordV2Schema = loose({
  ...window,
  ...amounts,
  clusterId: optional(z.string()),
  gpuAmount: part,
  diskAmount: part,
  networkingAmount: part,
});
const BillingMetadataV2Schema = loose({
  query: optional(
    loose({
      ...window,
      bucketSize: optional(z.string()),
      podId: optional(z.string()),
      serverlessId: optional(z.string()),
      networkVolumeId: optional(z.string()),
      clusterId: optional(z.string()),
    }),
  ),
  recordCount: part,
  uniquePodCount: part,
  uniqueServerlessCount: part,
  uniqueNetworkVolumeCount: part,
  uniqueClusterCount: part,
  totals: optional(z.record(z.string(), wireNumber)),
});
/** A history's answer `{records, metadata}`; the records alone are required (a host may send no metadata). */
const billing = <T extends z.ZodType>(record: T) => z.object({ records: z.array(record), metadata: optional(BillingMetadataV2Schema) });

/** A list answer `{"<key>": [...]}`, unwrapped to its items. */
const listOf = <T extends z.ZodType>(key: string, item: T) =>
  loose({ [key]: z.array(item) }).transform((body) => body[key] as z.output<T>[]);

export const GpuTypeListV2Schema = listOf("gpus", GpuTypeV2Schema);
export const CpuTypeListV2Schema = listOf("cpus", CpuTypeV2Schema);
export const DataCenterListV2Schema = listOf("dataCenters", DataCenterV2Schema);
export const AccountBillingV2Schema = billing(AccountBillingRecordV2Schema);
export const PodBillingV2Schema = billing(PodBillingRecordV2Schema);
export const ServerlessBillingV2Schema = billing(ServerlessBillingRecordV2Schema);
export const PublicEndpointBillingV2Schema = billing(PublicEndpointBillingRecordV2Schema);
export const NetworkVolumeBillingV2Schema = billing(NetworkVolumeBillingRecordV2Schema);
export const ClusterBillingV2Schema = billing(ClusterBillingRecordV2Schema);
export const PublicTemplateListV2Schema = listOf("templates", PublicTemplateV2Schema);
type _AccountBillingMatches = Assert<Equals<z.output<typeof AccountBillingV2Schema>, AccountBillingHistory>>;
type _PodBillingMatches = Assert<Equals<z.output<typeof PodBillingV2Schema>, PodBillingHistory>>;
type _ServerlessBillingMatches = Assert<Equals<z.output<typeof ServerlessBillingV2Schema>, ServerlessBillingHistory>>;
type _PublicEndpointBillingMatches = Assert<Equals<z.output<typeof PublicEndpointBillingV2Schema>, PublicEndpointBillingHistory>>;
type _NetworkVolumeBillingMatches = Assert<Equals<z.output<typeof NetworkVolumeBillingV2Schema>, NetworkVolumeBillingHistory>>;
type _ClusterBillingMatches = Assert<Equals<z.output<typeof ClusterBillingV2Schema>, ClusterBillingHistory>>;

export type PodV2 = z.output<typeof PodV2Schema>;
export type EndpointV2 = z.output<typeof EndpointV2Schema>;
export type TemplateV2 = z.output<typeof TemplateV2Schema>;
export type NetworkVolumeV2 = z.output<typeof NetworkVolumeV2Schema>;
export type RegistryV2 = z.output<typeof RegistryV2Schema>;
export type WorkerV2 = z.output<typeof WorkerV2Schema>;
export type RolloutV2 = z.output<typeof RolloutV2Schema>;
export type { CpuTypeV2, DataCenterV2, GpuTypeV2 } from "./catalogTypes";
type _GpuTypeV2Matches = Assert<Equals<z.output<typeof GpuTypeV2Schema>, GpuTypeV2>>;
type _CpuTypeV2Matches = Assert<Equals<z.output<typeof CpuTypeV2Schema>, CpuTypeV2>>;
type _DataCenterV2Matches = Assert<Equals<z.output<typeof DataCenterV2Schema>, DataCenterV2>>;

// ---- account (management-api-v2-today.md sections 2 and 3) -------------------------------------

/** An account secret: never its value, which no answer carries. */
export const SecretV2Schema = loose({
  id: z.string(),
  name: z.string(),
  description: optional(z.string()),
  createdAt: optional(z.string()),
  valueLastUpdatedAt: optional(z.string()),
});
export const SecretListV2Schema = listOf("secrets", SecretV2Schema);
export type SecretV2 = z.output<typeof SecretV2Schema>;

/**
 * One limit of `GET /account/limits`. The reference shows only that `spendRate` and
 * `serverlessWorkers` are objects; their inner fields are unverified, so each is read tolerantly:
 * `limit` (the cap) and `current` (the use now) when the answer has them, nothing assumed otherwise.
 */
const AccountLimitV2Schema = loose({ limit: optional(wireNumber), current: optional(wireNumber) });
export const AccountLimitsV2Schema = loose({ spendRate: AccountLimitV2Schema, serverlessWorkers: AccountLimitV2Schema });
export type AccountLimitsV2 = z.output<typeof AccountLimitsV2Schema>;
