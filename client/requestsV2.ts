// The request bodies of the management API v2 operations the client calls, field for field as the
// reference's schemas name them (management-api-v2-schemas.txt, with the fields
// management-api-v2-today.md section 5 adds: `cmd`, `entrypoint`, `gpu.minRamPerGpu`, ...). Types
// only: a body written with a field the reference does not have fails to compile. Answers are the
// zod schemas of schemasV2.ts. The field tables' v2 wire paths are typed as the dotted paths of
// these types (wirePathsV2.ts), so they are held to the same names.

/** ContainerConfig (BaseContainerConfig plus `registry`; `cmd` / `entrypoint` since SPEC-0922). */
export interface ContainerConfigV2 {
  image?: string;
  /** The command as one raw string (management-api-v2-today.md 5.1). */
  args?: string;
  /** CMD in exec form; `[]` clears. */
  cmd?: string[];
  /** ENTRYPOINT in exec form; `[]` clears. */
  entrypoint?: string[];
  /** Container disk in GB. */
  disk?: number;
  env?: Record<string, string>;
  ports?: string[];
  /** Registry credential id; null clears. */
  registry?: string | null;
}

export interface MountsV2 {
  persistent?: { size: number; path: string };
  network?: Array<{ volumeId: string; path: string }>;
}

export interface CreateGpuConfigV2 {
  id: string;
  count?: number;
  allowedCudaVersions?: string[];
  minCudaVersion?: string;
  minRamPerGpu?: number;
  minVcpuCountPerGpu?: number;
}

export interface CpuConfigV2 {
  id: string;
  /** vCPUs, a power of two, at least 2. */
  vcpuCount: number;
}

export interface CreatePodRequestV2 extends ContainerConfigV2 {
  name: string;
  cloud?: "SECURE" | "COMMUNITY";
  cpu?: CpuConfigV2;
  dataCenterIds?: string[];
  globalNetworking?: boolean;
  gpu?: CreateGpuConfigV2;
  mounts?: MountsV2;
  startJupyter?: boolean;
  startSsh?: boolean;
  templateId?: string;
}

export interface UpdatePodRequestV2 extends ContainerConfigV2 {
  globalNetworking?: boolean;
  locked?: boolean;
  mounts?: MountsV2;
  name?: string;
  templateId?: string;
}

export interface PodActionRequestV2 {
  action: "start" | "stop" | "restart" | "terminate";
}

/** PUT /account/ssh-keys: the whole set of public keys (`[]` removes every key). */
export interface UpdateSshKeysRequestV2 {
  keys: readonly string[];
}

export type EndpointScalingV2 = { type: "QUEUE_DELAY"; queueDelay: number } | { type: "REQUEST_COUNT"; requestCount: number };

export interface EndpointWorkersV2 {
  min?: number;
  max?: number;
  /** Seconds; refused for queue endpoints scaling on REQUEST_COUNT. */
  idleTimeout?: number;
}

/** BaseEndpointGpuConfig + the CUDA constraints of CreateEndpointGpuConfig. */
export interface CreateEndpointGpuConfigV2 {
  pools: string[];
  excludedTypes?: string[];
  count?: number;
  allowedCudaVersions?: string[];
  minCudaVersion?: string;
}

/** UpdateEndpointGpuConfig: every field optional; `excludedTypes` needs `pools`; `[]` / `""` clear the CUDA fields. */
export interface UpdateEndpointGpuConfigV2 {
  pools?: string[];
  excludedTypes?: string[];
  count?: number;
  allowedCudaVersions?: string[];
  minCudaVersion?: string;
}

export type FlashBootV2 = "OFF" | "FLASHBOOT" | "PRIORITY_FLASHBOOT";

export interface CreateEndpointRequestV2 extends ContainerConfigV2 {
  name: string;
  type: "QUEUE" | "LOAD_BALANCER";
  scaling: EndpointScalingV2;
  gpu?: CreateEndpointGpuConfigV2;
  cpu?: CpuConfigV2[];
  dataCenterIds?: string[];
  flashboot?: FlashBootV2;
  networkVolumes?: string[];
  templateId?: string;
  /** Per-request execution timeout in ms. */
  timeout?: number;
  workers?: EndpointWorkersV2;
}

export interface UpdateEndpointRequestV2 extends ContainerConfigV2 {
  cpu?: CpuConfigV2[];
  dataCenterIds?: string[];
  flashboot?: FlashBootV2;
  gpu?: UpdateEndpointGpuConfigV2;
  name?: string;
  networkVolumes?: string[];
  scaling?: EndpointScalingV2;
  templateId?: string;
  timeout?: number;
  workers?: EndpointWorkersV2;
}

export interface CreateTemplateRequestV2 extends ContainerConfigV2 {
  name: string;
  image: string;
  allowedCudaVersions?: string[];
  category?: "CPU" | "NVIDIA" | "AMD";
  mounts?: Pick<MountsV2, "persistent">;
  public?: boolean;
  serverless?: boolean;
  startJupyter?: boolean;
  startSsh?: boolean;
}

export interface UpdateTemplateRequestV2 extends ContainerConfigV2 {
  allowedCudaVersions?: string[];
  category?: "CPU" | "NVIDIA" | "AMD";
  mounts?: Pick<MountsV2, "persistent">;
  name?: string;
  public?: boolean;
  serverless?: boolean;
  startJupyter?: boolean;
  startSsh?: boolean;
}

export interface CreateNetworkVolumeRequestV2 {
  dataCenter: string;
  name: string;
  /** GB, 10..4096. */
  size: number;
  /** Omitted: the data center's primary tier. */
  type?: "STANDARD" | "HIGH_PERFORMANCE";
}

export interface UpdateNetworkVolumeRequestV2 {
  name?: string;
  /** GB, grow only, at most 4096. */
  size?: number;
}

export interface CreateRegistryRequestV2 {
  /** At most 191 characters. */
  name: string;
  /** At most 191 characters. */
  username: string;
  /** At most 16,384 characters. */
  password: string;
}

/** An account secret's create body; `value` is write-only (no answer carries it). */
export interface SecretCreateBody {
  name: string;
  value: string;
  description?: string;
}

/** An update: `value` rotates it, `description` ("" clears it); at least one of them. */
export type SecretUpdateBody = { value: string; description?: never } | { value?: never; description: string };
