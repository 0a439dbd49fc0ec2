// A pod's field table: the service's create fields plus provider arguments, one row each, and the
// rules across fields. Only the fields the service's PATCH accepts update in place; everything else
// replaces the pod (reference NOTES section 1).

import { CLOUD_TYPES, COMPUTE_TYPES, CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPE_IDS, POD_CPU_FLAVOR_IDS, RENT_PRIORITIES } from "../../client/enums";
import type { PodCreateInput } from "../../client/inputs";
import type { Pod } from "../../client/schemas";
import { adoptIdRow, defineTable, readyTimeoutSecondsRow, rowsFor, triggerSame, type ArgsOf, type CrossCheckResult } from "./fieldTable";
import { argv, bool, envMap, failure, list, num, oneOf, port, str, unknownIdWarnings } from "./validation";
import { isPresent, isRecord, isUnknown, type Props } from "./values";

export const POD_DESIRED_STATUSES = ["RUNNING", "EXITED"] as const;

const { update, replace, local, output } = rowsFor<Pod>();
const id = (example: string) => str({ nonEmpty: true, example }).optional();
const gpuOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.gpu) ? pod.gpu : undefined);
const machineOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.machine) ? pod.machine : undefined);
const stringOr = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const gpuTypeOf = (pod: Pod): string | undefined => stringOr(machineOf(pod)?.["gpuTypeId"]) ?? stringOr(gpuOf(pod)?.["id"]);
const dataCenterOf = (pod: Pod): string | undefined => stringOr(machineOf(pod)?.["dataCenterId"]);
const secureCloudOf = (pod: Pod): string | undefined => {
  const secure = machineOf(pod)?.["secureCloud"];
  return typeof secure === "boolean" ? (secure ? "SECURE" : "COMMUNITY") : undefined;
};

const rows = {
  // PATCH accepts these (a PATCH may reset the pod: the container disk is wiped).
  name: update(str({ maxLength: 191, example: '"trainer"' }).optional(), { observe: (p) => p.name }),
  imageName: update(str({ nonEmpty: true, example: '"pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"' }).optional(), { observe: (p) => p.imageName }),
  // env values may be secrets (pulumi.secret): never printed.
  env: update(envMap.optional(), { envMap: true, sensitive: true, observe: (p) => p.env }),
  ports: update(list(port, { example: '["8888/http", "22/tcp"]', unique: true }).optional(), { unordered: true, resetTo: ["8888/http", "22/tcp"], observe: (p) => p.ports }),
  containerDiskInGb: update(num({ min: 1, unit: "GB", example: "50" }).optional(), { resetTo: 50, observe: (p) => p.containerDiskInGb }),
  volumeInGb: update(num({ min: 0, unit: "GB", example: "20" }).optional(), { resetTo: 20, observe: (p) => p.volumeInGb }),
  volumeMountPath: update(str({ example: '"/workspace"', pattern: { re: /^\//, hint: 'is not an absolute path; start it with "/", e.g. "/workspace"' } }).optional(), {
    resetTo: "/workspace",
    observe: (p) => p.volumeMountPath,
  }),
  dockerEntrypoint: update(argv('["bash", "-c"]').optional(), { resetTo: [], observe: (p) => p.dockerEntrypoint }),
  dockerStartCmd: update(argv('["python", "train.py"]').optional(), { resetTo: [], observe: (p) => p.dockerStartCmd }),
  containerRegistryAuthId: update(id('"clzdaifot0001l90809257ynb"'), { observe: (p) => p.containerRegistryAuthId }),
  globalNetworking: update(bool({ example: "true" }).optional(), { default: false, observe: (p) => p.globalNetworking }),
  locked: update(bool({ example: "false" }).optional(), { default: false, observe: (p) => p.locked }),
  // Create-only: a change means a new pod.
  computeType: replace(oneOf(COMPUTE_TYPES).optional(), { default: "GPU", observe: (p) => p.computeType ?? (gpuOf(p) ? "GPU" : p.cpuFlavorId ? "CPU" : undefined) }),
  cloudType: replace(oneOf(CLOUD_TYPES).optional(), { default: "SECURE", observe: (p) => p.cloudType ?? secureCloudOf(p) }),
  // gpuTypeIds, cpuFlavorIds and dataCenterIds are options the service picks one of; it reports the
  // pick, never the list, so adoption checks the pick is among them (and refresh keeps the list).
  gpuTypeIds: replace(list(str({ nonEmpty: true, example: '"NVIDIA GeForce RTX 4090"' }), { example: '["NVIDIA GeForce RTX 4090"]', unique: true }).optional(), { chosen: gpuTypeOf }),
  gpuTypePriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability" }),
  gpuCount: replace(num({ min: 1, unit: "GPUs", example: "1" }).optional(), { default: 1, observe: (p) => p.gpuCount ?? gpuOf(p)?.["count"] }),
  allowedCudaVersions: replace(list(str({ nonEmpty: true, example: '"12.4"' }), { example: '["12.4"]', unique: true }).optional(), { unordered: true }),
  cpuFlavorIds: replace(list(str({ nonEmpty: true, example: '"cpu3c"' }), { example: '["cpu3c"]', unique: true }).optional(), { chosen: (p) => p.cpuFlavorId }),
  cpuFlavorPriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability" }),
  // Reported for every pod, but it is the request only on a CPU pod (a GPU pod reports its host's share).
  vcpuCount: replace(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), { default: 2, observe: (p) => (p.cpuFlavorId ? p.vcpuCount : undefined) }),
  dataCenterIds: replace(list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(), { chosen: dataCenterOf }),
  dataCenterPriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability" }),
  countryCodes: replace(
    list(str({ example: '"US"', pattern: { re: /^[A-Z]{2}$/, hint: 'is not a two-letter country code; use upper case, e.g. "US"' } }), { example: '["US", "CA"]', unique: true }).optional(),
    { unordered: true },
  ),
  interruptible: replace(bool({ example: "false" }).optional(), { default: false, observe: (p) => p.interruptible }),
  networkVolumeId: replace(id('"agv6w2qcg7"'), { observe: (p) => p.networkVolumeId ?? stringOr(p.networkVolume?.id) }),
  templateId: replace(id('"30zmvf89kd"'), { observe: (p) => p.templateId }),
  supportPublicIp: replace(bool({ example: "true" }).optional()),
  minRAMPerGPU: replace(num({ min: 1, unit: "GB", example: "8" }).optional(), { default: 8 }),
  minVCPUPerGPU: replace(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), { default: 2 }),
  minDiskBandwidthMBps: replace(num({ min: 0, unit: "MBps", integer: false, example: "500" }).optional()),
  minDownloadMbps: replace(num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional()),
  minUploadMbps: replace(num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional()),
  // Provider arguments.
  readyTimeoutSeconds: readyTimeoutSecondsRow,
  desiredStatus: local("update", oneOf(POD_DESIRED_STATUSES).optional(), { default: "RUNNING", alwaysObserved: true, observe: (p) => p.desiredStatus }),
  restartTrigger: local("update", str({ example: '"2024-07-01"' }).optional(), { same: triggerSame }),
  resetTrigger: local("update", str({ example: '"2024-07-01"' }).optional(), { same: triggerSame }),
  adoptId: adoptIdRow,
  // What the service reports.
  publicIp: output((p) => p.publicIp),
  portMappings: output((p) => (p.portMappings && Object.keys(p.portMappings).length > 0 ? p.portMappings : undefined)),
  costPerHr: output((p) => p.costPerHr),
  adjustedCostPerHr: output((p) => p.adjustedCostPerHr),
  machineId: output((p) => p.machineId),
  gpuTypeId: output(gpuTypeOf),
  gpuDisplayName: output((p) => stringOr(gpuOf(p)?.["displayName"]) ?? stringOr(machineOf(p)?.["gpuDisplayName"])),
  cpuFlavorId: output((p) => p.cpuFlavorId),
  dataCenterId: output(dataCenterOf),
  memoryInGb: output((p) => p.memoryInGb),
  lastStartedAt: output((p) => p.lastStartedAt),
  lastStatusChange: output((p) => p.lastStatusChange),
};

function crossCheck(args: Props): CrossCheckResult {
  const failures = [];
  if (!isPresent(args, "imageName") && !isPresent(args, "templateId")) {
    failures.push(failure(["imageName"], 'is required unless templateId is set; set the container image, e.g. "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"'));
  }
  const warnings = [
    ...unknownIdWarnings("pod", "gpuTypeIds", args["gpuTypeIds"], GPU_TYPE_IDS),
    ...unknownIdWarnings("pod", "dataCenterIds", args["dataCenterIds"], DATA_CENTER_IDS),
    ...unknownIdWarnings("pod", "allowedCudaVersions", args["allowedCudaVersions"], CUDA_VERSIONS),
    ...unknownIdWarnings("pod", "cpuFlavorIds", args["cpuFlavorIds"], POD_CPU_FLAVOR_IDS),
  ];
  const compute = args["computeType"];
  if (compute === "CPU" && isPresent(args, "gpuTypeIds") && !isUnknown(args["gpuTypeIds"])) warnings.push("pod gpuTypeIds is ignored by the service for a CPU pod (computeType \"CPU\")");
  if ((compute === undefined || compute === "GPU") && isPresent(args, "cpuFlavorIds") && !isUnknown(args["cpuFlavorIds"])) warnings.push("pod cpuFlavorIds is ignored by the service for a GPU pod; set computeType: \"CPU\" for a CPU pod");
  return { failures, warnings };
}

export const podTable = defineTable<PodCreateInput, Pod>()({ noun: "pod", rows, crossCheck });
export type PodArgs = ArgsOf<typeof rows>;
