// A pod's field table: the service's create fields plus provider arguments, one row each, and the
// rules across fields. Only the fields the service's PATCH accepts update in place; everything else
// replaces the pod (reference NOTES section 1).

import {
  CLOUD_TYPES,
  COMPUTE_TYPES,
  CUDA_VERSIONS,
  DATA_CENTER_IDS,
  GPU_TYPE_IDS,
  POD_CPU_FLAVOR_IDS,
  RENT_PRIORITIES,
} from "../../../client/enums";
import type { PodCreateInput } from "../../../client/inputs";
import type { Pod } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import {
  adoptIdRow,
  defineTable,
  type Backend,
  type WireMapping,
  readyTimeoutSecondsRow,
  rowsFor,
  triggerSame,
  type ArgsOf,
  type CrossCheckResult,
  type OutputArgumentKeys,
} from "../../fields/fieldTable";
import { bool, failure, image, list, num, oneOf, str, unknownIdWarnings } from "../../fields/validation";
import { isPresent, isRecord, isUnknown, type Props } from "../../fields/values";
import { COST_ESTIMATE } from "../../fields/estimateOutput";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { OWNER_MARKER_ENV } from "../index";
import { createBodyFailure } from "./podBodyV2";
import { containerRows } from "../../fields/containerRows";
import { atMostOne, firstOf, getPath, listOfOne, vcpuCountRefusal } from "../../fields/wireV2";

export const POD_DESIRED_STATUSES = ["RUNNING", "EXITED"] as const;

const { update, replace, local, output } = rowsFor<Pod, SentPathV2<"createPod" | "updatePod">, AnswerPathV2<"getPod">>();
const id = (example: string) => str({ nonEmpty: true, example }).optional();
const gpuOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.gpu) ? pod.gpu : undefined);
const machineOf = (pod: Pod): Record<string, unknown> | undefined => (isRecord(pod.machine) ? pod.machine : undefined);
const stringOr = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
// The GPU type and data center a pod got: v1 reports them in `machine` (or `gpu`); the v2 backend
// hands the lifecycle objects under the provider's output names (`gpuTypeId`, `dataCenterId`).
const gpuTypeOf = (pod: Pod): string | undefined =>
  stringOr(machineOf(pod)?.["gpuTypeId"]) ?? stringOr(gpuOf(pod)?.["id"]) ?? stringOr((pod as Props)["gpuTypeId"]);
const dataCenterOf = (pod: Pod): string | undefined =>
  stringOr(machineOf(pod)?.["dataCenterId"]) ?? stringOr((pod as Props)["dataCenterId"]);
const secureCloudOf = (pod: Pod): string | undefined => {
  const secure = machineOf(pod)?.["secureCloud"];
  return typeof secure === "boolean" ? (secure ? "SECURE" : "COMMUNITY") : undefined;
};

/** What v2 cannot express for pods, and what to do instead. */
const noMachineConstraints = {
  unsupported: "v2 places pods by GPU type and data center only: remove it and choose gpuTypeIds and dataCenterIds instead",
};
const onePlacement = { unsupported: "v2 takes one GPU type or CPU flavor and any of dataCenterIds, without a priority: remove it" };

/**
 * v2's pod status as the provider's desiredStatus: a pod on its way up is meant to run; a pod in
 * ERROR holds nothing and takes `start` like an EXITED one (podAction), so it reads EXITED: a pod
 * declared RUNNING shows a change after refresh and the update starts it (backend/v2Backend.ts).
 */
function desiredStatusOf(wire: Props): unknown {
  const status = wire["status"];
  if (status === "ERROR") return "EXITED";
  return status === "EXITED" || status === "TERMINATED" ? status : status === undefined ? undefined : "RUNNING";
}

/**
 * The pod's public address: the IP of a tcp port that has a public port (runtime.ports, null until
 * RUNNING). An http port reports the service's shared proxy address in 100.64.0.0/10 instead, not
 * the pod's (reference today 6.1 #10), so it never counts; an http-only pod has no public IP.
 */
function publicIpOf(wire: Props): unknown {
  const ports = getPath(wire, "runtime.ports");
  if (!Array.isArray(ports)) return undefined;
  return ports
    .filter((p: unknown): p is Props => isRecord(p) && p["type"] !== "http" && typeof p["public"] === "number")
    .map((p) => p["ip"])
    .find((ip) => typeof ip === "string" && ip !== "");
}

/** runtime.ports as v1's portMappings: private port -> public port. */
function portMappingsOf(wire: Props): unknown {
  const ports = getPath(wire, "runtime.ports");
  if (!Array.isArray(ports)) return undefined;
  const out: Record<string, number> = {};
  for (const p of ports) if (isRecord(p) && typeof p["public"] === "number") out[String(p["private"])] = p["public"];
  return out;
}

// A pod's disk sizes and command come from its template when it has one: removing a declared value resets it.
const container = containerRows({
  noun: "pod",
  absent: "resetTo",
  injectedKeys: ["PUBLIC_KEY", "JUPYTER_PASSWORD", OWNER_MARKER_ENV],
  startCmdExample: '["python", "train.py"]',
});

const rows = {
  // PATCH accepts these (a PATCH may reset the pod: the container disk is wiped).
  name: update(str({ maxLength: 191, example: '"trainer"' }).optional(), { observe: (p) => p.name, v2: { path: "name" } }),
  imageName: update(image({ example: '"pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"' }).optional(), {
    observe: (p) => p.imageName,
    v2: { path: "image" },
  }),
  // The platform adds PUBLIC_KEY (SSH) and, on v2 with startJupyter, JUPYTER_PASSWORD.
  env: container.env,
  ports: container.ports,
  containerDiskInGb: container.containerDiskInGb,
  volumeInGb: container.volumeInGb,
  volumeMountPath: container.volumeMountPath,
  dockerEntrypoint: container.dockerEntrypoint,
  dockerStartCmd: container.dockerStartCmd,
  containerRegistryAuthId: update(id('"clzdaifot0001l90809257ynb"'), {
    observe: (p) => p.containerRegistryAuthId,
    // updatePod: "set `registry` to `null` [...] to clear a field".
    v2: { path: "registry", resetTo: null },
  }),
  globalNetworking: update(bool({ example: "true" }).optional(), {
    default: false,
    observe: (p) => p.globalNetworking,
    v2: { path: "globalNetworking", fromWire: (v) => (isRecord(v) ? v["enabled"] : v) },
  }),
  locked: update(bool({ example: "false" }).optional(), { default: false, observe: (p) => p.locked, v2: { path: "locked" } }),
  // Create-only: a change means a new pod.
  computeType: replace(oneOf(COMPUTE_TYPES).optional(), {
    default: "GPU",
    observe: (p) => p.computeType ?? (gpuOf(p) ? "GPU" : p.cpuFlavorId ? "CPU" : undefined),
    // Sent as the choice of `gpu` or `cpu` (backend/v2Backend.ts).
    v2: { read: (w) => (isRecord(w["cpu"]) ? "CPU" : isRecord(w["gpu"]) ? "GPU" : undefined) },
  }),
  cloudType: replace(oneOf(CLOUD_TYPES).optional(), {
    default: "SECURE",
    observe: (p) => p.cloudType ?? secureCloudOf(p),
    v2: { path: "cloud" },
  }),
  // gpuTypeIds, cpuFlavorIds and dataCenterIds are options the service picks one of; it reports the
  // pick, never the list, so adoption checks the pick is among them (and refresh keeps the list).
  gpuTypeIds: replace(
    list(str({ nonEmpty: true, example: '"NVIDIA GeForce RTX 4090"' }), {
      example: '["NVIDIA GeForce RTX 4090"]',
      unique: true,
    }).optional(),
    {
      chosen: gpuTypeOf,
      v2: { path: "gpu.id", toWire: firstOf, fromWire: listOfOne, refuse: atMostOne("pod (gpu.id)") },
    },
  ),
  gpuTypePriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability", v2: onePlacement }),
  gpuCount: replace(num({ min: 1, unit: "GPUs", example: "1" }).optional(), {
    default: 1,
    observe: (p) => p.gpuCount ?? gpuOf(p)?.["count"],
    v2: { path: "gpu.count" },
  }),
  allowedCudaVersions: replace(list(str({ nonEmpty: true, example: '"12.4"' }), { example: '["12.4"]', unique: true }).optional(), {
    unordered: true,
    v2: { path: "gpu.allowedCudaVersions" },
  }),
  cpuFlavorIds: replace(list(str({ nonEmpty: true, example: '"cpu3c"' }), { example: '["cpu3c"]', unique: true }).optional(), {
    chosen: (p) => p.cpuFlavorId,
    v2: { path: "cpu.id", toWire: firstOf, fromWire: listOfOne, refuse: atMostOne("CPU pod (cpu.id)") },
  }),
  cpuFlavorPriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability", v2: onePlacement }),
  // Reported for every pod, but it is the request only on a CPU pod (a GPU pod reports its host's share).
  vcpuCount: replace(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), {
    default: 2,
    observe: (p) => (p.cpuFlavorId ? p.vcpuCount : undefined),
    v2: { path: "cpu.vcpuCount", refuse: vcpuCountRefusal },
  }),
  dataCenterIds: replace(list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(), {
    chosen: dataCenterOf,
    v2: { path: "dataCenterIds" },
  }),
  dataCenterPriority: replace(oneOf(RENT_PRIORITIES).optional(), { default: "availability", v2: onePlacement }),
  countryCodes: replace(
    list(str({ example: '"US"', pattern: { re: /^[A-Z]{2}$/, hint: 'is not a two-letter country code; use upper case, e.g. "US"' } }), {
      example: '["US", "CA"]',
      unique: true,
    }).optional(),
    {
      unordered: true,
      v2: {
        unsupported: "v2 places pods by data center: remove countryCodes and list the data centers in dataCenterIds (see getDataCenters)",
      },
    },
  ),
  interruptible: replace(bool({ example: "false" }).optional(), {
    default: false,
    observe: (p) => p.interruptible,
    // The v1 API is retired (410 Gone since 2026-11-15, today 6.2): it is no way to spot pods either.
    v2: { unsupported: "the service has no spot (interruptible) pods any more: remove interruptible (the pod then runs on demand)" },
  }),
  networkVolumeId: replace(id('"agv6w2qcg7"'), {
    observe: (p) => p.networkVolumeId ?? stringOr(p.networkVolume?.id),
    // Mounted at volumeMountPath (backend/v2Backend.ts adds the path).
    v2: { path: "mounts.network.0.volumeId" },
  }),
  // v2 create-time flags (CreatePodRequest startSsh/startJupyter): "not part of the pod's readable
  // config — never returned by GET and not changeable by PATCH", so never read back. startSsh
  // defaults to true here (the service's default is false) so that a pod exposing 22/tcp has SSH
  // as on v1, where the key is always injected; an absent value in older state equals it.
  startSsh: replace(bool({ example: "false" }).optional(), {
    default: true,
    v2Only: true,
    v1Refuse: (v) =>
      v === false
        ? "the v1 API always provisions SSH (PUBLIC_KEY): set gpucloud:apiUrl to the /v2 URL for a pod without it, or remove startSsh"
        : undefined,
    v2: { path: "startSsh" },
  }),
  startJupyter: replace(bool({ example: "true" }).optional(), {
    default: false,
    v2Only: true,
    v1Refuse: (v) =>
      v === true ? "the v1 API has no startJupyter: set JUPYTER_PASSWORD in env instead, or set gpucloud:apiUrl to the /v2 URL" : undefined,
    v2: { path: "startJupyter" },
  }),
  templateId: replace(id('"30zmvf89kd"'), {
    observe: (p) => p.templateId,
    v2: { path: "templateId", read: (w) => w["template"] ?? undefined },
  }),
  supportPublicIp: replace(bool({ example: "true" }).optional(), {
    v2: { unsupported: "v2 gives secure-cloud pods a public IP; remove supportPublicIp" },
  }),
  minRAMPerGPU: replace(num({ min: 1, unit: "GB", example: "8" }).optional(), { default: 8, v2: noMachineConstraints }),
  minVCPUPerGPU: replace(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), { default: 2, v2: noMachineConstraints }),
  minDiskBandwidthMBps: replace(num({ min: 0, unit: "MBps", integer: false, example: "500" }).optional(), { v2: noMachineConstraints }),
  minDownloadMbps: replace(num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional(), { v2: noMachineConstraints }),
  minUploadMbps: replace(num({ min: 0, unit: "Mbps", integer: false, example: "1000" }).optional(), { v2: noMachineConstraints }),
  // Provider arguments.
  readyTimeoutSeconds: readyTimeoutSecondsRow,
  desiredStatus: local("update", oneOf(POD_DESIRED_STATUSES).optional(), {
    default: "RUNNING",
    alwaysObserved: true,
    observe: (p) => p.desiredStatus,
    v2: { read: desiredStatusOf },
  }),
  restartTrigger: local("update", str({ example: '"2024-07-01"' }).optional(), { same: triggerSame }),
  resetTrigger: local("update", str({ example: '"2024-07-01"' }).optional(), {
    same: triggerSame,
    v2: { unsupported: "v2 pods have no reset: use restartTrigger (restarts the container) or replace the pod for a fresh disk" },
  }),
  adoptId: adoptIdRow,
  // What the service reports.
  publicIp: output((p) => p.publicIp, { v2: { read: publicIpOf } }),
  portMappings: output((p) => (p.portMappings && Object.keys(p.portMappings).length > 0 ? p.portMappings : undefined), {
    v2: { read: portMappingsOf },
  }),
  // Computed by check from the catalog (model/cost), never read from the service.
  [COST_ESTIMATE]: output(() => undefined),
  costPerHr: output((p) => p.costPerHr, { v2: { path: "cost" } }),
  adjustedCostPerHr: output((p) => p.adjustedCostPerHr),
  machineId: output((p) => p.machineId),
  gpuTypeId: output(gpuTypeOf, { v2: { path: "gpu.id" } }),
  gpuDisplayName: output((p) => stringOr(gpuOf(p)?.["displayName"]) ?? stringOr(machineOf(p)?.["gpuDisplayName"])),
  cpuFlavorId: output((p) => p.cpuFlavorId, { v2: { path: "cpu.id" } }),
  dataCenterId: output(dataCenterOf, { v2: { path: "dataCenterId" } }),
  memoryInGb: output((p) => p.memoryInGb, { v2: { path: "cpu.memory" } }),
  // v2 only (reference: Pod.cudaVersion); the v1 API does not report it.
  cudaVersion: output(() => undefined, { v2: { path: "cudaVersion" } }),
  lastStartedAt: output((p) => p.lastStartedAt, { v2: { path: "startedAt" } }),
  lastStatusChange: output((p) => p.lastStatusChange),
};

/** Why an update field's change replaces the pod on this backend (said at preview beside the plan). */
function replacementReasons(args: Props, olds: Props, backend: Backend): string[] {
  if (backend !== "v2" || Object.keys(olds).length === 0) return [];
  const reasons: string[] = [];
  for (const [name, row] of Object.entries(rows) as Array<[string, { v2?: WireMapping }]>) {
    const m = row.v2;
    if (!m || "unsupported" in m || !m.replaceIf || isUnknown(args[name])) continue;
    const reason = m.replaceIf(olds[name] ?? m.default, args[name] ?? m.default);
    if (reason !== undefined) reasons.push(`pod ${name}: ${reason}`);
  }
  return reasons;
}

/**
 * What a v2 CPU pod cannot have: persistent storage (PersistentMount: "Disallowed on CPU pods") and
 * global networking (CreatePodRequest.globalNetworking: "Requires an NVIDIA GPU"). The service
 * refuses the create; check says so at preview, with the fix.
 */
function cpuPodRefusals(args: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const volume = args["volumeInGb"];
  if (typeof volume === "number" && volume > 0 && !isUnknown(volume))
    failures.push(
      failure(
        ["volumeInGb"],
        `${volume} GB of persistent storage cannot be given to a CPU pod on the v2 API (the service keeps it for GPU pods only); ` +
          "remove volumeInGb (or set it to 0), and mount a network volume (networkVolumeId) for data that must outlive the pod",
      ),
    );
  if (args["globalNetworking"] === true)
    failures.push(
      failure(
        ["globalNetworking"],
        "true cannot be set on a CPU pod on the v2 API (global networking needs an NVIDIA GPU); remove globalNetworking, or make it a GPU pod (gpuTypeIds)",
      ),
    );
  return failures;
}

function crossCheck(args: Props, olds: Props, backend: Backend = "v1"): CrossCheckResult {
  const failures = [];
  if (backend === "v2" && args["computeType"] !== "CPU" && !isPresent(args, "gpuTypeIds")) {
    failures.push(
      failure(
        ["gpuTypeIds"],
        'is required for a GPU pod on the v2 API, which takes one GPU type (gpu.id); set it, e.g. ["NVIDIA GeForce RTX 4090"] (see getGpuTypes)',
      ),
    );
  }
  if (backend === "v2" && args["computeType"] === "CPU" && !isPresent(args, "cpuFlavorIds")) {
    failures.push(
      failure(["cpuFlavorIds"], 'is required for a CPU pod on the v2 API, which takes one CPU flavor (cpu.id); set it, e.g. ["cpu3c"]'),
    );
  }
  if (backend === "v2" && args["computeType"] === "CPU") failures.push(...cpuPodRefusals(args));
  if (!isPresent(args, "imageName") && !isPresent(args, "templateId")) {
    failures.push(
      failure(
        ["imageName"],
        'is required unless templateId is set; set the container image, e.g. "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"',
      ),
    );
  }
  // The service limits the size of a create (POST /v2/pods) only: measured for a pod about to be
  // created (no earlier inputs, not adopted), once the cross rules above hold. An update is a PATCH,
  // which the limit does not concern; a replacement that is too large fails at its create, before
  // the old pod is deleted.
  const creating = Object.keys(olds).length === 0 && !isPresent(args, "adoptId");
  if (backend === "v2" && creating && failures.length === 0) {
    const tooLarge = createBodyFailure(podTable, args);
    if (tooLarge) failures.push(tooLarge);
  }
  const warnings = [
    ...replacementReasons(args, olds, backend),
    ...unknownIdWarnings("pod", "gpuTypeIds", args["gpuTypeIds"], GPU_TYPE_IDS),
    ...unknownIdWarnings("pod", "dataCenterIds", args["dataCenterIds"], DATA_CENTER_IDS),
    ...unknownIdWarnings("pod", "allowedCudaVersions", args["allowedCudaVersions"], CUDA_VERSIONS),
    ...unknownIdWarnings("pod", "cpuFlavorIds", args["cpuFlavorIds"], POD_CPU_FLAVOR_IDS),
  ];
  const compute = args["computeType"];
  if (compute === "CPU" && isPresent(args, "gpuTypeIds") && !isUnknown(args["gpuTypeIds"]))
    warnings.push('pod gpuTypeIds is ignored by the service for a CPU pod (computeType "CPU")');
  if ((compute === undefined || compute === "GPU") && isPresent(args, "cpuFlavorIds") && !isUnknown(args["cpuFlavorIds"]))
    warnings.push('pod cpuFlavorIds is ignored by the service for a GPU pod; set computeType: "CPU" for a CPU pod');
  return { failures, warnings };
}

export const podTable = defineTable<PodCreateInput, Pod>()({ noun: "pod", rows, crossCheck });
export type PodArgs = ArgsOf<typeof rows>;
export type { PodOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type PodRowOutputArguments = OutputArgumentKeys<typeof rows>;
