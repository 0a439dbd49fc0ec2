/**
 * Management v2 request bodies and query parameters, field for field as the reference's
 * CreatePodRequest, UpdateEndpointRequest, ... (management-api-v2-schemas.txt): names, types,
 * bounds, enums and defaults. A body that does not fit its schema is a 422 listing every field
 * at fault (management/v2/operation.ts, http/validation.ts); checks that need the account's state are 400s, made by
 * the management commands.
 */
import { z } from "zod";
import { BUCKET_SIZES } from "../billing";

/** The reference's largest and default page size (PaginationLimit); management/lists.ts serves pages of it. */
export const PAGE_LIMIT_MAX = 1000;

// ---- enums (one declaration each; responses use the same ones) ----

export const Cloud = z.enum(["SECURE", "COMMUNITY"]);
export const PodStatus = z.enum(["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"]);
export const PodAction = z.enum(["start", "stop", "restart", "terminate"]);
export const FlashBoot = z.enum(["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"]);
export const EndpointType = z.enum(["QUEUE", "LOAD_BALANCER"]);
export const TemplateCategory = z.enum(["CPU", "NVIDIA", "AMD"]);
export const VolumeType = z.enum(["STANDARD", "HIGH_PERFORMANCE"]);
export const BillingBucketSize = z.enum(BUCKET_SIZES);
export const Product = z.enum(["POD", "CLUSTER", "SERVERLESS"]);
export const CpuProduct = z.enum(["POD", "SERVERLESS"]);
export const CatalogInclude = z.enum(["AVAILABILITY"]);
export const DataCenterInclude = z.enum(["GPU_AVAILABILITY", "CPU_AVAILABILITY"]);
export const AvailabilityLevel = z.enum(["NONE", "LOW", "MEDIUM", "HIGH"]);
export const GpuCloudFilter = z.enum(["SECURE", "COMMUNITY"]);
export const DataCenterRegion = z.enum([
  "NORTH_AMERICA",
  "SOUTH_AMERICA",
  "EUROPE",
  "ASIA",
  "MIDDLE_EAST",
  "AFRICA",
  "OCEANIA",
  "ANTARCTICA",
  "UNKNOWN",
]);
export const Compliance = z.enum([
  "GDPR",
  "ISO_IEC_27001",
  "ISO_14001",
  "PCI_DSS",
  "HITRUST",
  "SOC_1_TYPE_2",
  "SOC_2_TYPE_2",
  "SOC_3_TYPE_2",
  "ITAR",
  "FISMA_HIGH",
  "HIPAA",
  "RENEWABLE",
]);

// ---- shared pieces ----

const cudaVersion = z.string().regex(/^\d+\.\d+$/, 'must be a CUDA version "major.minor", such as "12.8"');

/** ContainerConfig: the container settings templates, pods and endpoints share. */
const container = {
  image: z.string().min(1).optional(),
  args: z.string().optional(),
  /** Container disk in GB (ephemeral, wiped on restart). */
  disk: z.int().min(1).optional(),
  env: z.record(z.string().min(1), z.string()).optional(),
  ports: z.array(z.string().regex(/^\d{1,5}\/(http|tcp|udp)$/, 'must look like "8888/http" or "22/tcp"')).optional(),
  /** Container registry credential id; null clears it. */
  registry: z.string().min(1).nullable().optional(),
};

/**
 * The command as v2 takes it since the 2026-09 description (reference today section 5.1): `cmd`
 * and `entrypoint` in exec form beside `args`, the raw stored string, on every body built on the
 * container config: pods, templates and serverless endpoints (management/command.ts reads them).
 */
const command = {
  cmd: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
};

export const PersistentMount = z.strictObject({ size: z.int().min(10), path: z.string().min(1) });
export const NetworkMount = z.strictObject({ volumeId: z.string().min(1), path: z.string().min(1) });
export const Mounts = z.strictObject({ persistent: PersistentMount.optional(), network: z.array(NetworkMount).max(1).optional() });
export type Mounts = z.infer<typeof Mounts>;
export const TemplateMounts = z.strictObject({ persistent: PersistentMount.optional() });

// ---- pods ----

/** Strict: any unknown key inside `gpu` is a 422 (reference today 5.2, `unevaluatedProperties: false`). */
export const CreateGpuConfig = z.strictObject({
  id: z.string().min(1),
  count: z.int().min(1).default(1),
  allowedCudaVersions: z.array(cudaVersion).optional(),
  minCudaVersion: cudaVersion.optional(),
  /** Placement filters (host RAM GB / vCPUs per GPU), not requests; never returned (today 5.2). */
  minRamPerGpu: z.int().min(1).optional(),
  minVcpuCountPerGpu: z.int().min(1).optional(),
});
export const CreateCpuConfig = z.strictObject({ id: z.string().min(1), vcpuCount: z.int().min(2) });

export const CreatePodRequest = z.strictObject({
  ...container,
  ...command,
  name: z.string().min(1),
  cloud: Cloud.default("SECURE"),
  cpu: CreateCpuConfig.optional(),
  dataCenterIds: z.array(z.string()).optional(),
  globalNetworking: z.boolean().default(false),
  gpu: CreateGpuConfig.optional(),
  mounts: Mounts.optional(),
  // Absent: the template's flag, else false (resolved by management/pods/create.ts).
  startJupyter: z.boolean().optional().meta({ default: false }),
  startSsh: z.boolean().optional().meta({ default: false }),
  templateId: z.string().min(1).optional(),
});
export type CreatePodRequest = z.infer<typeof CreatePodRequest>;

export const UpdatePodRequest = z.strictObject({
  ...container,
  ...command,
  globalNetworking: z.boolean().optional(),
  locked: z.boolean().optional(),
  mounts: Mounts.optional(),
  name: z.string().min(1).optional(),
  templateId: z.string().optional(),
});
export type UpdatePodRequest = z.infer<typeof UpdatePodRequest>;

/** PUT /account/ssh-keys: the whole set, authorized_keys lines (reference UpdateSshKeysRequest). */
export const UpdateSshKeysRequest = z.strictObject({
  keys: z.array(
    z
      .string()
      .regex(
        /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/,
        'must be an authorized_keys line "<type> <base64-key> [comment]", e.g. "ssh-ed25519 AAAA... me@laptop"',
      ),
  ),
});

export const PodActionRequest = z.strictObject({ action: PodAction });

// ---- serverless endpoints ----

export const QueueDelayScaling = z.strictObject({ type: z.literal("QUEUE_DELAY"), queueDelay: z.number().min(0.5) });
export const RequestCountScaling = z.strictObject({ type: z.literal("REQUEST_COUNT"), requestCount: z.int().min(1) });
export const EndpointScaling = z.discriminatedUnion("type", [QueueDelayScaling, RequestCountScaling]);
export type EndpointScaling = z.infer<typeof EndpointScaling>;

export const EndpointWorkers = z.strictObject({
  min: z.int().min(0).optional(),
  max: z.int().min(0).optional(),
  /** Seconds before idle workers scale down. */
  idleTimeout: z.int().min(1).max(3600).optional(),
});

// BaseEndpointGpuConfig.excludedTypes: items match `^\s*[^-\s]` and the list has `uniqueItems`;
// management-api-v2-today.md 5.3: "surrounding whitespace trimmed". Trimmed here, so " NVIDIA L4"
// and "NVIDIA L4" are the same item (the emulator's reading of uniqueItems after the trim).
const excludedType = z
  .string()
  .regex(/^\s*[^-\s]/, "must be a GPU type id (not empty, not starting with '-' or whitespace only)")
  .transform((id) => id.trim());
const excludedTypes = z
  .array(excludedType)
  .refine((ids) => new Set(ids).size === ids.length, "must not list a GPU type twice (uniqueItems)");

export const CreateEndpointGpuConfig = z.strictObject({
  pools: z.array(z.string()).min(1),
  excludedTypes: excludedTypes.optional(),
  count: z.int().min(1).default(1),
  allowedCudaVersions: z.array(cudaVersion).optional(),
  minCudaVersion: cudaVersion.optional(),
});
/**
 * UpdateEndpointGpuConfig: "`excludedTypes` requires `pools`, because the two are one selection and
 * only a supplied `pools` replaces it" (a `dependentRequired` of the schema, so a 422 like any other
 * schema violation).
 */
export const UpdateEndpointGpuConfig = z
  .strictObject({
    pools: z.array(z.string()).min(1).optional(),
    excludedTypes: excludedTypes.optional(),
    count: z.int().min(1).optional(),
    allowedCudaVersions: z.array(cudaVersion).optional(),
    minCudaVersion: z
      .string()
      .regex(/^$|^\d+\.\d+$/, 'must be "" (no floor) or a CUDA version "major.minor"')
      .optional(),
  })
  .refine((gpu) => gpu.excludedTypes === undefined || gpu.pools !== undefined, {
    path: ["excludedTypes"],
    message: "needs gpu.pools in the same PATCH: pools and exclusions are one selection, replaced together",
  });

export const ENDPOINT_DEFAULTS = { timeout: 300_000, workersMin: 0, workersMax: 3, idleTimeout: 10 } as const;

export const CreateEndpointRequest = z.strictObject({
  ...container,
  ...command,
  gpu: CreateEndpointGpuConfig.optional(),
  name: z.string().min(1),
  scaling: EndpointScaling,
  type: EndpointType,
  cpu: z.array(CreateCpuConfig).min(1).optional(),
  dataCenterIds: z.array(z.string()).optional(),
  flashboot: FlashBoot.default("OFF"),
  networkVolumes: z.array(z.string()).optional(),
  templateId: z.string().min(1).optional(),
  /** Per-request execution timeout in ms. */
  timeout: z.int().min(1).default(ENDPOINT_DEFAULTS.timeout),
  workers: z
    .strictObject({
      min: z.int().min(0).default(ENDPOINT_DEFAULTS.workersMin),
      max: z.int().min(0).default(ENDPOINT_DEFAULTS.workersMax),
      idleTimeout: z.int().min(1).max(3600).optional().meta({ default: ENDPOINT_DEFAULTS.idleTimeout }),
    })
    .optional(),
});
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequest>;

export const UpdateEndpointRequest = z.strictObject({
  ...container,
  ...command,
  cpu: z.array(CreateCpuConfig).min(1).optional(),
  dataCenterIds: z.array(z.string()).optional(),
  flashboot: FlashBoot.optional(),
  gpu: UpdateEndpointGpuConfig.optional(),
  name: z.string().min(1).optional(),
  networkVolumes: z.array(z.string()).optional(),
  scaling: EndpointScaling.optional(),
  templateId: z.string().optional(),
  timeout: z.int().min(1).optional(),
  workers: EndpointWorkers.optional(),
});
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequest>;

// ---- templates, network volumes, registries ----

export const CreateTemplateRequest = z.strictObject({
  ...container,
  ...command,
  name: z.string().min(1),
  image: z.string().min(1),
  allowedCudaVersions: z.array(cudaVersion).optional(),
  category: TemplateCategory.default("NVIDIA"),
  mounts: TemplateMounts.optional(),
  public: z.boolean().default(false),
  serverless: z.boolean().default(false),
  startJupyter: z.boolean().default(true),
  startSsh: z.boolean().default(true),
});
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

export const UpdateTemplateRequest = z.strictObject({
  ...container,
  ...command,
  allowedCudaVersions: z.array(cudaVersion).optional(),
  category: TemplateCategory.optional(),
  mounts: TemplateMounts.optional(),
  name: z.string().min(1).optional(),
  public: z.boolean().optional(),
  serverless: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
});
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;

export const NETWORK_VOLUME_SIZE_GB = { min: 10, max: 4096 } as const;
const volumeSize = z.int().min(NETWORK_VOLUME_SIZE_GB.min).max(NETWORK_VOLUME_SIZE_GB.max);

export const CreateNetworkVolumeRequest = z.strictObject({
  dataCenter: z.string().min(1),
  name: z.string().min(1),
  size: volumeSize,
  type: VolumeType.optional(),
});
export const UpdateNetworkVolumeRequest = z
  .strictObject({ name: z.string().min(1).optional(), size: volumeSize.optional() })
  .refine((body) => body.name !== undefined || body.size !== undefined, "must change name or size (an empty body changes nothing)");

/** management-api-v2-today.md 5.5: "`name` ≤ 191, `username` ≤ 191, `password` ≤ 16,384 chars; unknown keys rejected". */
export const REGISTRY_LIMITS = { name: 191, username: 191, password: 16_384 } as const;
export const CreateRegistryRequest = z.strictObject({
  name: z.string().min(1).max(REGISTRY_LIMITS.name),
  password: z.string().min(1).max(REGISTRY_LIMITS.password),
  username: z.string().min(1).max(REGISTRY_LIMITS.username),
});

// ---- query parameters (values arrive as strings; lists comma-separated or repeated) ----

function last(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    const parts = Array.isArray(value) ? value : [value];
    return parts.flatMap((part) => (typeof part === "string" ? part.split(",").filter((p) => p !== "") : [part]));
  }, z.array(item).optional());
/** `documented` is the default the handler applies to an absent parameter, for the OpenAPI document. */
const queryInt = (min: number, documented?: number) =>
  z.preprocess((v) => (typeof last(v) === "string" ? Number(last(v)) : last(v)), z.int().min(min).optional().meta({ default: documented }));
const queryBool = (documented?: boolean) =>
  z.preprocess(
    (v) => {
      const text = last(v);
      return text === "true" ? true : text === "false" ? false : text;
    },
    z.boolean().optional().meta({ default: documented }),
  );
const queryText = () => z.preprocess(last, z.string().min(1).optional());
const queryTime = () =>
  z.preprocess(
    last,
    z
      .string()
      .refine(
        (text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)),
        'must be an RFC 3339 date-time such as "2026-11-01T00:00:00Z"',
      )
      .transform((text) => Date.parse(text))
      .optional()
      .meta({ format: "date-time" }),
  );

/**
 * `limit` (1..max, default max) and `cursor` of the paginated lists (management-api-v2-today.md 1.1:
 * PaginationLimit, PaginationCursor; `max` is 1000, 100 for builds: PaginationLimitBuilds). Other
 * query parameters these lists do not define are ignored, not refused (1.3).
 */
export const pageQueryOf = (max: number) => ({
  limit: z.preprocess(
    (v) => (typeof last(v) === "string" ? Number(last(v)) : last(v)),
    z.int().min(1).max(max).optional().meta({ default: max }),
  ),
  cursor: queryText(),
});
const pageQuery = pageQueryOf(PAGE_LIMIT_MAX);
export const ListPodsQuery = z.object({ includeClusterPods: queryBool(false), ...pageQuery });
export type ListPodsQuery = z.infer<typeof ListPodsQuery>;
export const ListPageQuery = z.object(pageQuery);
export type ListPageQuery = z.infer<typeof ListPageQuery>;

const billingWindow = {
  startTime: queryTime(),
  endTime: queryTime(),
  bucketSize: z.preprocess(last, BillingBucketSize.default("day")),
  lastN: queryInt(1),
};
export const BillingQuery = z.object(billingWindow);
export const PodBillingQuery = z.object({ ...billingWindow, podId: queryText() });
export const ServerlessBillingQuery = z.object({ ...billingWindow, serverlessId: queryText() });
export const NetworkVolumeBillingQuery = z.object({ ...billingWindow, networkVolumeId: queryText() });
export type BillingQuery = z.infer<typeof BillingQuery>;
export type PodBillingQuery = z.infer<typeof PodBillingQuery>;
export type ServerlessBillingQuery = z.infer<typeof ServerlessBillingQuery>;
export type NetworkVolumeBillingQuery = z.infer<typeof NetworkVolumeBillingQuery>;

export const GpuCatalogQuery = z.object({
  include: queryList(CatalogInclude),
  product: queryList(Product),
  /** GPUs per pod for availability (default 1). */
  count: queryInt(1, 1),
  cloud: z.preprocess(last, GpuCloudFilter.optional()),
  countryCodes: queryList(z.string().regex(/^[A-Z]{2}$/, "must be an upper-case two-letter country code")),
  cudaVersions: queryList(cudaVersion),
  minCudaVersion: z.preprocess(
    last,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be "12" or "12.1"')
      .optional(),
  ),
});
export type GpuCatalogQuery = z.infer<typeof GpuCatalogQuery>;
export const CpuCatalogQuery = z.object({ include: queryList(CatalogInclude), product: queryList(CpuProduct), vcpuCount: queryInt(2) });
export type CpuCatalogQuery = z.infer<typeof CpuCatalogQuery>;
export const DataCenterQuery = z.object({
  include: queryList(DataCenterInclude),
  regions: queryList(DataCenterRegion),
  networkVolumeTypes: queryList(VolumeType),
  compliance: queryList(Compliance),
  globalNetwork: queryBool(),
});
export type DataCenterQuery = z.infer<typeof DataCenterQuery>;
export const DataCenterGetQuery = DataCenterQuery.pick({ include: true });

/** listPublicTemplates' `source`: "`official` (the default) is the service-curated templates, `verified` [...], `community` [...]". */
export const PublicTemplateSource = z.enum(["official", "verified", "community"]);
export const PublicTemplatesQuery = z.object({ source: z.preprocess(last, PublicTemplateSource.default("official")) });
export type PublicTemplatesQuery = z.infer<typeof PublicTemplatesQuery>;
