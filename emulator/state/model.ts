/**
 * The management side's records, one account at a time. Records are plain JSON-able objects so
 * the state file is just these records written out (see snapshot.ts). Wire shapes are built from
 * them by the *View functions in management/; nothing here knows about HTTP.
 */
import type { CloudType } from "../vocabulary/catalog";
import type { ClusterType } from "../vocabulary/schemas/v2/clusters";
import type { PodClusterRole } from "../vocabulary/schemas/v2/wire";

export type ComputeType = "GPU" | "CPU";
export type PodStatus = "RUNNING" | "EXITED" | "TERMINATED";

/** Network identity of a booting or booted pod; hidden on the wire until `readyAtMs`. */
export interface PodBoot {
  /** Service time at which the pod has its public IP and port mappings. */
  readyAtMs: number;
  publicIp: string | null;
  portMappings: Record<string, number>;
  /**
   * The environment the container booted with: the pod's env with secret placeholders resolved at
   * this boot (a rotated secret reaches only the next one). Not on the wire; see emu.inspect().
   */
  env?: Record<string, string>;
  /** Global networking as in force for this boot: a PATCH takes effect at the next start or restart. */
  globalNetworking?: boolean;
  /** Service time at which this boot's container fails (a pod fault, faults/podFaults.ts): ERROR from then. */
  failsAtMs?: number;
}

export interface PodRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  // Fields PATCH may change.
  name: string;
  imageName: string;
  env: Record<string, string>;
  ports: string[];
  containerDiskInGb: number;
  volumeInGb: number;
  volumeMountPath: string;
  dockerEntrypoint: string[];
  dockerStartCmd: string[];
  /** v2 `args` as last sent, when it still describes the two lists above (management/command.ts). */
  args?: string | undefined;
  containerRegistryAuthId: string | null;
  /** Declared global networking; the running container has the value of its boot (`boot.globalNetworking`). */
  globalNetworking: boolean;
  locked: boolean;
  // Fields fixed at create.
  computeType: ComputeType;
  cloudType: CloudType;
  interruptible: boolean;
  gpuCount: number;
  vcpuCount: number;
  memoryInGb: number;
  networkVolumeId: string | null;
  templateId: string | null;
  supportPublicIp: boolean | null;
  gpuTypeIds: string[];
  cpuFlavorIds: string[];
  dataCenterIds: string[];
  countryCodes: string[];
  allowedCudaVersions: string[];
  // Placement.
  gpuTypeId: string | null;
  cpuFlavorId: string | null;
  dataCenterId: string;
  machineId: string;
  costPerHr: number;
  // Lifecycle.
  desiredStatus: PodStatus;
  lastStartedAtMs: number | null;
  lastStatusChange: string;
  /** Set while RUNNING (capacity held, billing open); null otherwise. */
  boot: PodBoot | null;
  /** Why the pod is in ERROR (v2 status; stopped, nothing held), until it is started again. */
  error?: string | undefined;
  /** Set on a cluster's member pod (management/clusters/): which cluster, its rank, role and overlay address. */
  cluster?: PodClusterMembership;
}

/** A member pod's place in its cluster (v2 Pod.cluster, PodCluster). */
export interface PodClusterMembership {
  id: string;
  rank: number;
  role?: PodClusterRole;
  ip: string;
}

/**
 * A cluster (/api/v2/clusters): identity and homogeneous shape; its member pods are PodRecords of
 * the same account (`memberIds`, in rank order), so capacity, billing, boots and faults are theirs.
 */
export interface ClusterRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  /** The only field a PATCH changes. */
  name: string;
  type: ClusterType;
  gpuTypeId: string;
  gpuCountPerPod: number;
  podCount: number;
  /** The pod template the members were made from; kept as a link (Cluster.template). */
  templateId: string | null;
  dataCenterId: string;
  memberIds: string[];
  network: { cidr: string; vxlanId: number; vxlanPort: number };
}

export type ScalerType = "QUEUE_DELAY" | "REQUEST_COUNT";

export interface EndpointRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  /** Last create/update/worker activity; drives the optional idle workersMax decay quirk. */
  lastActivityMs: number;
  name: string;
  templateId: string;
  computeType: ComputeType;
  gpuTypeIds: string[];
  gpuCount: number;
  cpuFlavorIds: string[];
  vcpuCount: number;
  dataCenterIds: string[];
  allowedCudaVersions: string[] | null;
  minCudaVersion: string | null;
  networkVolumeId: string | null;
  networkVolumeIds: string[] | null;
  executionTimeoutMs: number;
  flashboot: boolean;
  idleTimeout: number;
  scalerType: ScalerType;
  scalerValue: number;
  workersMin: number;
  workersMax: number;
  /** Endpoint-level env (not settable through the API today; overlays the template's). */
  env: Record<string, string>;
  version: number;
  type: "QUEUE" | "LOAD_BALANCER";
  /** Management v2: flashboot with priority capacity (PRIORITY_FLASHBOOT); implies `flashboot`. */
  flashbootPriority?: boolean;
  /** Management v2: the release history recorded by v2 changes (versions without one were made through v1). */
  releases?: EndpointRelease[];
}

/** One configuration version of an endpoint, as /api/v2/serverless/{id}/releases lists it. */
export interface EndpointRelease {
  id: string;
  version: number;
  createdAtMs: number;
  diff: Array<{ field: string; old: unknown; new: unknown }>;
}

export type TemplateCategory = "NVIDIA" | "AMD" | "CPU";

export interface TemplateRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  name: string;
  imageName: string;
  category: TemplateCategory;
  containerDiskInGb: number;
  containerRegistryAuthId: string | null;
  dockerEntrypoint: string[];
  dockerStartCmd: string[];
  /** v2 `args` as last sent, when it still describes the two lists above (management/command.ts). */
  args?: string | undefined;
  env: Record<string, string>;
  isPublic: boolean;
  isServerless: boolean;
  ports: string[];
  readme: string;
  volumeInGb: number;
  volumeMountPath: string;
  /** Management v2 fields (absent on templates made through v1: defaults true, true, []). */
  startSsh?: boolean;
  startJupyter?: boolean;
  allowedCudaVersions?: string[];
  /** Set on the template an endpoint made or changed through v2 owns (deleted with the endpoint). */
  boundEndpointId?: string;
}

export interface NetworkVolumeRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  name: string;
  size: number;
  dataCenterId: string;
  /** Management v2 storage tier, fixed at create (absent: STANDARD). */
  type?: "STANDARD" | "HIGH_PERFORMANCE";
}

/** The password is checked for presence and then dropped: nothing pulls images, nothing returns it. */
export interface RegistryAuthRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  name: string;
  username: string;
}

/**
 * An account secret (/api/v2/account/secrets). The value is write-only on the wire; it is kept here
 * (and so in the state file) because pods and workers receive it when they boot.
 */
export interface SecretRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  /** Immutable; unique per account, compared case-insensitively. */
  name: string;
  description: string | null;
  value: string;
  valueLastUpdatedAtMs: number;
}

/**
 * A global volume (/api/v2/global-volumes; management-api-v2-today.md section 4): storage tied to no
 * data center, with a name and nothing else the reference defines (no size, no mount).
 */
export interface GlobalVolumeRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  /** Trimmed, as the service stores it; not unique. */
  name: string;
  /** Who created it: the account (the emulator knows no users besides it). */
  createdByUserId: string;
}

/**
 * A delegation of pull access to an image of a cloud account's container registry
 * (/api/v2/registries/delegations): what the registered resource name says, nothing pulled.
 */
export interface RegistryDelegationRecord {
  id: string;
  accountId: string;
  createdAtMs: number;
  name: string | null;
  /** The resource name as registered. */
  resource: string;
  repository: string;
  tag: string;
  region: string;
  /** The principal the delegation grants pull access to (the reference's `awsUser`). */
  principal: string;
}

/** A pod's RUNNING time at one price. `endMs` null while it is still running. */
export interface PodUsageInterval {
  podId: string;
  gpuTypeId: string | null;
  cpuFlavorId: string | null;
  dataCenterId: string;
  costPerHr: number;
  diskGb: number;
  startMs: number;
  endMs: number | null;
  /** A cluster member's interval: billed under /api/v2/billing/clusters, not /billing/pods. */
  clusterId?: string;
}

/** A serverless worker's up time (from the job side's recordWorkerUsage). */
export interface WorkerUsageInterval {
  endpointId: string;
  workerId: string;
  templateId: string;
  imageName: string;
  gpuTypeId: string | null;
  dataCenterId: string;
  costPerHr: number;
  startMs: number;
  endMs: number;
}

/** A network volume existing at one size. `endMs` null while it exists at that size. */
export interface VolumeUsageInterval {
  volumeId: string;
  dataCenterId: string;
  sizeGb: number;
  startMs: number;
  endMs: number | null;
}

export interface Ledger {
  pods: PodUsageInterval[];
  workers: WorkerUsageInterval[];
  volumes: VolumeUsageInterval[];
}

export interface AccountData {
  accountId: string;
  pods: Map<string, PodRecord>;
  endpoints: Map<string, EndpointRecord>;
  templates: Map<string, TemplateRecord>;
  networkVolumes: Map<string, NetworkVolumeRecord>;
  registryAuths: Map<string, RegistryAuthRecord>;
  secrets: Map<string, SecretRecord>;
  clusters: Map<string, ClusterRecord>;
  globalVolumes: Map<string, GlobalVolumeRecord>;
  registryDelegations: Map<string, RegistryDelegationRecord>;
  /** Registered SSH public keys (v2 PUT /account/ssh-keys), provisioned into pods created with startSsh. */
  sshKeys: string[];
  ledger: Ledger;
  /** Open pod/volume intervals by resource id (derived; rebuilt on load, never persisted). */
  openIntervals: Map<string, PodUsageInterval | VolumeUsageInterval>;
}

export function emptyAccount(accountId: string): AccountData {
  return {
    accountId,
    pods: new Map(),
    endpoints: new Map(),
    templates: new Map(),
    networkVolumes: new Map(),
    registryAuths: new Map(),
    secrets: new Map(),
    clusters: new Map(),
    globalVolumes: new Map(),
    registryDelegations: new Map(),
    sshKeys: [],
    ledger: { pods: [], workers: [], volumes: [] },
    openIntervals: new Map(),
  };
}

/** Every account's records. Accounts appear on first use. */
export class ManagementStore {
  readonly accounts = new Map<string, AccountData>();

  account(accountId: string): AccountData {
    let account = this.accounts.get(accountId);
    if (!account) {
      account = emptyAccount(accountId);
      this.accounts.set(accountId, account);
    }
    return account;
  }
}
