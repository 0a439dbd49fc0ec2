// A pod's arguments (the service's create fields plus provider arguments), their checks and their
// policy table. Only the fields the service's PATCH accepts update in place; everything else
// replaces the pod (reference NOTES section 1).

import { z } from "zod";
import { CLOUD_TYPES, COMPUTE_TYPES, CPU_FLAVOR_IDS_FOR_PODS, CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPE_IDS, RENT_PRIORITIES } from "./catalog";
import type { Pod } from "../../client/schemas";
import { adoptIdArg, adoptIdPolicy, readyTimeoutSecondsArg, readyTimeoutSecondsPolicy } from "./commonArgs";
import { replace, serverManaged, triggerSame, update, type ResourcePolicy } from "./fieldPolicy";
import type { CrossCheckResult, ResourceDefinition } from "./resourceBase";
import { argv, bool, envMap, failure, list, num, oneOf, port, str } from "./validation";
import { isUnknown } from "./unknown";
import { isPresent, isRecord, type Props } from "./values";
import { unknownIdWarnings } from "./catalogWarnings";

export const POD_DESIRED_STATUSES = ["RUNNING", "EXITED"] as const;

const id = (example: string) => str({ nonEmpty: true, example }).optional();

export const podArgsSchema = z.object({
  name: str({ maxLength: 191, example: '"trainer"' }).optional(),
  imageName: str({ nonEmpty: true, example: '"pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"' }).optional(),
  computeType: oneOf(COMPUTE_TYPES).optional(),
  cloudType: oneOf(CLOUD_TYPES).optional(),
  gpuTypeIds: list(str({ nonEmpty: true, example: '"NVIDIA GeForce RTX 4090"' }), { example: '["NVIDIA GeForce RTX 4090"]', unique: true }).optional(),
  gpuTypePriority: oneOf(RENT_PRIORITIES).optional(),
  gpuCount: num({ min: 1, unit: "GPUs", example: "1" }).optional(),
  allowedCudaVersions: list(oneOf(CUDA_VERSIONS), { example: '["12.4"]', unique: true }).optional(),
  cpuFlavorIds: list(oneOf(CPU_FLAVOR_IDS_FOR_PODS), { example: '["cpu3c"]', unique: true }).optional(),
  cpuFlavorPriority: oneOf(RENT_PRIORITIES).optional(),
  vcpuCount: num({ min: 1, unit: "vCPUs", example: "2" }).optional(),
  dataCenterIds: list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(),
  dataCenterPriority: oneOf(RENT_PRIORITIES).optional(),
  countryCodes: list(str({ example: '"US"', pattern: { re: /^[A-Z]{2}$/, hint: 'is not a two-letter country code; use upper case, e.g. "US"' } }), { example: '["US", "CA"]', unique: true }).optional(),
  interruptible: bool({ example: "false" }).optional(),
  locked: bool({ example: "false" }).optional(),
  containerDiskInGb: num({ min: 1, unit: "GB", example: "50" }).optional(),
  volumeInGb: num({ min: 0, unit: "GB", example: "20" }).optional(),
  volumeMountPath: str({ example: '"/workspace"', pattern: { re: /^\//, hint: 'is not an absolute path; start it with "/", e.g. "/workspace"' } }).optional(),
  networkVolumeId: id('"agv6w2qcg7"'),
  templateId: id('"30zmvf89kd"'),
  containerRegistryAuthId: id('"clzdaifot0001l90809257ynb"'),
  env: envMap.optional(),
  ports: list(port, { example: '["8888/http", "22/tcp"]', unique: true }).optional(),
  dockerEntrypoint: argv('["bash", "-c"]').optional(),
  dockerStartCmd: argv('["python", "train.py"]').optional(),
  globalNetworking: bool({ example: "true" }).optional(),
  supportPublicIp: bool({ example: "true" }).optional(),
  minRAMPerGPU: num({ min: 1, unit: "GB", example: "8" }).optional(),
  minVCPUPerGPU: num({ min: 1, unit: "vCPUs", example: "2" }).optional(),
  minDiskBandwidthMBps: num({ min: 0, unit: "MBps", integer: false, example: "500" }).optional(),
  minDownloadMbps: num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional(),
  minUploadMbps: num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional(),
  // Provider arguments.
  readyTimeoutSeconds: readyTimeoutSecondsArg,
  desiredStatus: oneOf(POD_DESIRED_STATUSES).optional(),
  restartTrigger: str({ example: '"2024-07-01"' }).optional(),
  resetTrigger: str({ example: '"2024-07-01"' }).optional(),
  adoptId: adoptIdArg,
});

export type PodArgs = z.output<typeof podArgsSchema>;

const gpuOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.gpu) ? pod.gpu : undefined);
const machineOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.machine) ? pod.machine : undefined);
const stringOr = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export const podPolicy: ResourcePolicy<Pod> = {
  noun: "pod",
  fields: {
    // PATCH accepts these (a PATCH may reset the pod: the container disk is wiped).
    name: update({ observe: (p) => p.name }),
    imageName: update({ observe: (p) => p.imageName }),
    env: update({ envMap: true, observe: (p) => p.env }),
    ports: update({ unordered: true, resetTo: ["8888/http", "22/tcp"], observe: (p) => p.ports }),
    containerDiskInGb: update({ resetTo: 50, observe: (p) => p.containerDiskInGb }),
    volumeInGb: update({ resetTo: 20, observe: (p) => p.volumeInGb }),
    volumeMountPath: update({ resetTo: "/workspace", observe: (p) => p.volumeMountPath }),
    dockerEntrypoint: update({ resetTo: [], observe: (p) => p.dockerEntrypoint }),
    dockerStartCmd: update({ resetTo: [], observe: (p) => p.dockerStartCmd }),
    containerRegistryAuthId: update({ observe: (p) => p.containerRegistryAuthId }),
    globalNetworking: update({ default: false, observe: (p) => p.globalNetworking }),
    locked: update({ default: false, observe: (p) => p.locked }),
    // Create-only: a change means a new pod.
    computeType: replace({ default: "GPU", observe: (p) => p.computeType ?? (gpuOf(p) ? "GPU" : p.cpuFlavorId ? "CPU" : undefined) }),
    cloudType: replace({
      default: "SECURE",
      observe: (p) => p.cloudType ?? (typeof machineOf(p)?.["secureCloud"] === "boolean" ? (machineOf(p)?.["secureCloud"] ? "SECURE" : "COMMUNITY") : undefined),
    }),
    gpuTypeIds: replace({}),
    gpuTypePriority: replace({ default: "availability" }),
    gpuCount: replace({ default: 1, observe: (p) => p.gpuCount ?? gpuOf(p)?.["count"] }),
    allowedCudaVersions: replace({ unordered: true }),
    cpuFlavorIds: replace({}),
    cpuFlavorPriority: replace({ default: "availability" }),
    vcpuCount: replace({ default: 2 }),
    dataCenterIds: replace({}),
    dataCenterPriority: replace({ default: "availability" }),
    countryCodes: replace({ unordered: true }),
    interruptible: replace({ default: false, observe: (p) => p.interruptible }),
    networkVolumeId: replace({ observe: (p) => p.networkVolumeId ?? stringOr(p.networkVolume?.id) }),
    templateId: replace({ observe: (p) => p.templateId }),
    supportPublicIp: replace({}),
    minRAMPerGPU: replace({ default: 8 }),
    minVCPUPerGPU: replace({ default: 2 }),
    minDiskBandwidthMBps: replace({}),
    minDownloadMbps: replace({}),
    minUploadMbps: replace({}),
    // Provider arguments.
    readyTimeoutSeconds: readyTimeoutSecondsPolicy(),
    desiredStatus: update({ local: true, default: "RUNNING", alwaysObserved: true, observe: (p) => p.desiredStatus }),
    restartTrigger: update({ local: true, same: triggerSame }),
    resetTrigger: update({ local: true, same: triggerSame }),
    adoptId: adoptIdPolicy(),
    // What the service reports.
    publicIp: serverManaged((p) => p.publicIp),
    portMappings: serverManaged((p) => (p.portMappings && Object.keys(p.portMappings).length > 0 ? p.portMappings : undefined)),
    costPerHr: serverManaged((p) => p.costPerHr),
    adjustedCostPerHr: serverManaged((p) => p.adjustedCostPerHr),
    machineId: serverManaged((p) => p.machineId),
    gpuTypeId: serverManaged((p) => stringOr(machineOf(p)?.["gpuTypeId"]) ?? stringOr(gpuOf(p)?.["id"])),
    gpuDisplayName: serverManaged((p) => stringOr(gpuOf(p)?.["displayName"]) ?? stringOr(machineOf(p)?.["gpuDisplayName"])),
    cpuFlavorId: serverManaged((p) => p.cpuFlavorId),
    dataCenterId: serverManaged((p) => stringOr(machineOf(p)?.["dataCenterId"])),
    memoryInGb: serverManaged((p) => p.memoryInGb),
    lastStartedAt: serverManaged((p) => p.lastStartedAt),
    lastStatusChange: serverManaged((p) => p.lastStatusChange),
  },
};

function crossCheck(args: Props): CrossCheckResult {
  const failures = [];
  if (!isPresent(args, "imageName") && !isPresent(args, "templateId")) {
    failures.push(failure(["imageName"], 'is required unless templateId is set; set the container image, e.g. "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"'));
  }
  const warnings = [
    ...unknownIdWarnings("pod", "gpuTypeIds", args["gpuTypeIds"], GPU_TYPE_IDS),
    ...unknownIdWarnings("pod", "dataCenterIds", args["dataCenterIds"], DATA_CENTER_IDS),
  ];
  const compute = args["computeType"];
  if (compute === "CPU" && isPresent(args, "gpuTypeIds") && !isUnknown(args["gpuTypeIds"])) warnings.push("pod gpuTypeIds is ignored by the service for a CPU pod (computeType \"CPU\")");
  if ((compute === undefined || compute === "GPU") && isPresent(args, "cpuFlavorIds") && !isUnknown(args["cpuFlavorIds"])) warnings.push("pod cpuFlavorIds is ignored by the service for a GPU pod; set computeType: \"CPU\" for a CPU pod");
  return { failures, warnings };
}

// env values may be secrets (pulumi.secret): their failures must not make the engine print them.
export const podDefinition: ResourceDefinition<PodArgs, Pod> = { policy: podPolicy, schema: podArgsSchema, crossCheck, sensitive: ["env"] };
