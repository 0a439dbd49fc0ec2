/**
 * Pod request bodies and queries (PodCreateInput, PodUpdateInput, list/get filters).
 * Fields a template may supply (image, env, ports, disks, docker overrides, registry auth) carry
 * no zod default: the handler fills them from the template first and from the documented
 * defaults (POD_DEFAULTS) after. Their documented defaults still appear in the OpenAPI output.
 */
import { z } from "zod";
import { POD_CPU_FLAVOR_IDS } from "../catalog";
import {
  cudaVersion,
  dataCenterIdsField,
  envField,
  gpuTypeIdsField,
  nameField,
  portsField,
  queryEnum,
  queryFlag,
  queryList,
  queryString,
  refField,
  stringList,
} from "./common";

export const POD_DEFAULTS = {
  containerDiskInGb: 50,
  volumeInGb: 20,
  volumeMountPath: "/workspace",
  ports: ["8888/http", "22/tcp"],
  name: "my pod",
} as const;

const diskField = z.int().min(0).nullish();
const priority = z.enum(["availability", "custom"]).default("availability");

export const PodCreateInput = z.strictObject({
  allowedCudaVersions: z.array(cudaVersion).optional(),
  cloudType: z.enum(["SECURE", "COMMUNITY"]).default("SECURE"),
  computeType: z.enum(["GPU", "CPU"]).default("GPU"),
  containerDiskInGb: diskField.meta({ default: POD_DEFAULTS.containerDiskInGb }),
  containerRegistryAuthId: refField,
  countryCodes: z.array(z.string().regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")).optional(),
  cpuFlavorIds: z.array(z.enum(POD_CPU_FLAVOR_IDS)).optional(),
  cpuFlavorPriority: priority,
  dataCenterIds: dataCenterIdsField.optional(),
  dataCenterPriority: priority,
  dockerEntrypoint: stringList.optional().meta({ default: [] }),
  dockerStartCmd: stringList.optional().meta({ default: [] }),
  env: envField.optional().meta({ default: {} }),
  globalNetworking: z.boolean().default(false),
  gpuCount: z.int().min(1).default(1),
  gpuTypeIds: gpuTypeIdsField.optional(),
  gpuTypePriority: priority,
  imageName: z.string().min(1).optional(),
  interruptible: z.boolean().default(false),
  locked: z.boolean().default(false),
  minDiskBandwidthMBps: z.number().min(0).optional(),
  minDownloadMbps: z.number().min(0).optional(),
  minRAMPerGPU: z.int().min(0).default(8),
  minUploadMbps: z.number().min(0).optional(),
  minVCPUPerGPU: z.int().min(0).default(2),
  name: nameField.default(POD_DEFAULTS.name),
  networkVolumeId: refField,
  ports: portsField.optional().meta({ default: POD_DEFAULTS.ports }),
  supportPublicIp: z.boolean().nullish(),
  templateId: refField,
  vcpuCount: z.int().min(1).default(2),
  volumeInGb: diskField.meta({ default: POD_DEFAULTS.volumeInGb }),
  volumeMountPath: z.string().min(1).optional().meta({ default: POD_DEFAULTS.volumeMountPath }),
});
export type PodCreateInput = z.infer<typeof PodCreateInput>;

/** PodUpdateInput: the only fields PATCH accepts; name and locked alone never reset the pod. */
export const PodUpdateInput = z.strictObject({
  containerDiskInGb: diskField,
  containerRegistryAuthId: refField,
  dockerEntrypoint: stringList.optional(),
  dockerStartCmd: stringList.optional(),
  env: envField.optional(),
  globalNetworking: z.boolean().optional(),
  imageName: z.string().min(1).optional(),
  locked: z.boolean().optional(),
  name: nameField.optional(),
  ports: portsField.optional(),
  volumeInGb: diskField,
  volumeMountPath: z.string().min(1).optional(),
});
export type PodUpdateInput = z.infer<typeof PodUpdateInput>;

/** Fields that never reset a running pod when changed. */
export const POD_IN_PLACE_FIELDS: ReadonlySet<string> = new Set(["name", "locked"]);

/** Create-only fields: named in the 400 so the caller knows a replacement is needed. */
export const POD_CREATE_ONLY_HINTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(PodCreateInput.shape)
    .filter((key) => !(key in PodUpdateInput.shape))
    .map((key) => [key, `${key} can only be set when the pod is created; create a new pod to change it`]),
);

const includeFlags = {
  includeMachine: queryFlag(),
  includeNetworkVolume: queryFlag(),
  includeSavingsPlans: queryFlag(),
  includeTemplate: queryFlag(),
  includeWorkers: queryFlag(),
};

export const PodGetQuery = z.object(includeFlags);
export type PodGetQuery = z.infer<typeof PodGetQuery>;

export const PodListQuery = z.object({
  computeType: queryEnum(["GPU", "CPU"]),
  cpuFlavorId: queryList(z.string()),
  dataCenterId: queryList(z.string()),
  desiredStatus: queryEnum(["RUNNING", "EXITED", "TERMINATED"]),
  endpointId: queryString(),
  gpuTypeId: queryList(z.string()),
  id: queryString(),
  imageName: queryString(),
  ...includeFlags,
  name: queryString(),
  networkVolumeId: queryString(),
  templateId: queryString(),
});
export type PodListQuery = z.infer<typeof PodListQuery>;
