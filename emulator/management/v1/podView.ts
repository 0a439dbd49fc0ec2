/** The /v1 Pod wire shape, for pods and for serverless workers shown as pods. */
import type { EndpointSpec, WorkerView } from "../../serverless/contract";
import type { AccountData, PodRecord } from "../../state/model";
import {
  CPU_FLAVORS,
  DEFAULT_RAM_PER_GPU_GB,
  DEFAULT_VCPU_PER_GPU,
  GPU_TYPES,
  countryOf,
  gpuPrice,
  gpuTypeSheet,
  machineProfile,
  priceFactor,
  roundMoney,
} from "../../vocabulary/catalog";
import type { Machine, Pod } from "../../vocabulary/schemas/wire";
import { type ManagementContext, isoTime } from "../context";
import { usableTemplate } from "../lookup";
import { isBooted } from "../pods/lifecycle";
import { templateView } from "./views";

export interface PodIncludes {
  includeMachine: boolean;
  includeNetworkVolume: boolean;
  includeSavingsPlans: boolean;
  includeTemplate: boolean;
}

const CPU_TYPES = {
  gpuHost: { id: "AMD EPYC 7543 32-Core Processor", displayName: "AMD EPYC 7543", cores: 32, threadsPerCore: 2, groupId: "AMD EPYC 7003" },
  gen3: { id: "AMD EPYC 7B13 64-Core Processor", displayName: "AMD EPYC 7B13", cores: 64, threadsPerCore: 2, groupId: "AMD EPYC 7003" },
  gen5: { id: "AMD EPYC 9754 128-Core Processor", displayName: "AMD EPYC 9754", cores: 128, threadsPerCore: 2, groupId: "AMD EPYC 9004" },
} as const;

function costField(ctx: ManagementContext, costPerHr: number): number | string {
  return ctx.options.quirks.costPerHrAsString ? String(costPerHr) : costPerHr;
}

function machineView(ctx: ManagementContext, pod: PodRecord): Machine {
  const profile = machineProfile(pod.dataCenterId);
  const gpu = pod.gpuTypeId === null ? undefined : GPU_TYPES.get(pod.gpuTypeId);
  const cpuType = gpu ? CPU_TYPES.gpuHost : pod.cpuFlavorId?.startsWith("cpu5") ? CPU_TYPES.gen5 : CPU_TYPES.gen3;
  const machine: Machine = {
    minPodGpuCount: gpu ? 1 : 0,
    gpuAvailable: gpu ? Math.max(0, ctx.capacity.free("gpu", gpu.id, pod.dataCenterId)) : 0,
    cpuCount: cpuType.cores,
    cpuTypeId: cpuType.id,
    cpuType: { ...cpuType },
    location: countryOf(pod.dataCenterId),
    dataCenterId: pod.dataCenterId,
    ...profile,
    supportPublicIp: pod.cloudType === "SECURE" || pod.supportPublicIp !== false,
    secureCloud: pod.cloudType === "SECURE",
    costPerHr: pod.costPerHr,
  };
  if (gpu) {
    machine.gpuTypeId = gpu.id;
    machine.gpuType = gpuTypeSheet(gpu, 1);
    machine.gpuDisplayName = gpu.displayName;
    machine.currentPricePerGpu = gpuPrice(gpu.id, 1, pod.cloudType, pod.interruptible);
  }
  return machine;
}

export function podView(ctx: ManagementContext, account: AccountData, pod: PodRecord, include: PodIncludes): Pod {
  const booted = isBooted(pod, ctx.clock.now());
  const view: Pod = {
    id: pod.id,
    name: pod.name,
    desiredStatus: pod.desiredStatus,
    image: pod.imageName,
    imageName: pod.imageName,
    env: { ...pod.env },
    ports: [...pod.ports],
    publicIp: booted ? (pod.boot?.publicIp ?? null) : null,
    portMappings: booted && pod.boot ? { ...pod.boot.portMappings } : {},
    costPerHr: costField(ctx, pod.costPerHr),
    adjustedCostPerHr: pod.costPerHr,
    vcpuCount: pod.vcpuCount,
    memoryInGb: pod.memoryInGb,
    containerDiskInGb: pod.containerDiskInGb,
    volumeInGb: pod.volumeInGb,
    volumeMountPath: pod.volumeMountPath,
    volumeEncrypted: false,
    dockerEntrypoint: [...pod.dockerEntrypoint],
    dockerStartCmd: [...pod.dockerStartCmd],
    interruptible: pod.interruptible,
    locked: pod.locked,
    lastStatusChange: pod.lastStatusChange,
    machineId: pod.machineId,
    consumerUserId: pod.accountId,
    templateId: pod.templateId,
    endpointId: null,
    aiApiId: null,
    slsVersion: 0,
  };
  const gpu = pod.gpuTypeId === null ? undefined : GPU_TYPES.get(pod.gpuTypeId);
  if (gpu) view.gpu = gpuTypeSheet(gpu, pod.gpuCount);
  if (pod.cpuFlavorId !== null) view.cpuFlavorId = pod.cpuFlavorId;
  if (pod.containerRegistryAuthId !== null) view.containerRegistryAuthId = pod.containerRegistryAuthId;
  if (pod.lastStartedAtMs !== null) view.lastStartedAt = isoTime(pod.lastStartedAtMs);
  if (include.includeMachine) view.machine = machineView(ctx, pod);
  if (include.includeNetworkVolume && pod.networkVolumeId !== null) {
    const volume = account.networkVolumes.get(pod.networkVolumeId);
    if (volume) view.networkVolume = { id: volume.id, name: volume.name, size: volume.size, dataCenterId: volume.dataCenterId };
  }
  if (include.includeSavingsPlans) view.savingsPlans = [];
  if (include.includeTemplate && pod.templateId !== null) {
    const template = usableTemplate(ctx, account.accountId, pod.templateId);
    if (template) view.template = templateView(template);
  }
  return view;
}

/** A serverless worker in Pod shape (endpoint includeWorkers, pod list includeWorkers). */
export function workerPodView(ctx: ManagementContext, spec: EndpointSpec, worker: WorkerView, include: PodIncludes): Pod {
  const gpu = worker.gpuTypeId === null ? undefined : GPU_TYPES.get(worker.gpuTypeId);
  const flavor = spec.computeType === "CPU" ? CPU_FLAVORS.get(spec.cpuFlavorIds[0] ?? "cpu3c") : undefined;
  const view: Pod = {
    id: worker.id,
    name: `${spec.name} worker`,
    desiredStatus: "RUNNING",
    image: spec.imageName,
    imageName: spec.imageName,
    env: { ...spec.env },
    ports: [],
    publicIp: null,
    portMappings: null,
    costPerHr: costField(ctx, worker.costPerHr),
    adjustedCostPerHr: worker.costPerHr,
    vcpuCount: gpu ? spec.gpuCount * DEFAULT_VCPU_PER_GPU : 2,
    memoryInGb: gpu ? spec.gpuCount * DEFAULT_RAM_PER_GPU_GB : 2 * (flavor?.ramPerVcpuGb ?? 2),
    containerDiskInGb: 0,
    volumeInGb: 0,
    volumeMountPath: "/workspace",
    volumeEncrypted: false,
    dockerEntrypoint: [],
    dockerStartCmd: [],
    interruptible: false,
    locked: false,
    lastStartedAt: isoTime(worker.createdAtMs),
    lastStatusChange: `Worker ${worker.status}`,
    machineId: worker.id.slice(0, 12),
    consumerUserId: spec.accountId,
    templateId: spec.templateId,
    endpointId: spec.id,
    aiApiId: spec.id,
    // The version this worker was started with: older ones are still running a rolling release out.
    slsVersion: worker.version ?? spec.version,
  };
  if (gpu) view.gpu = gpuTypeSheet(gpu, spec.gpuCount);
  if (include.includeMachine) {
    const profile = machineProfile(worker.dataCenterId);
    view.machine = {
      minPodGpuCount: gpu ? 1 : 0,
      gpuAvailable: gpu ? Math.max(0, ctx.capacity.free("gpu", gpu.id, worker.dataCenterId)) : 0,
      cpuCount: CPU_TYPES.gpuHost.cores,
      cpuTypeId: CPU_TYPES.gpuHost.id,
      cpuType: { ...CPU_TYPES.gpuHost },
      location: countryOf(worker.dataCenterId),
      dataCenterId: worker.dataCenterId,
      ...profile,
      supportPublicIp: false,
      secureCloud: true,
      costPerHr: worker.costPerHr,
    };
    if (gpu) {
      view.machine.gpuTypeId = gpu.id;
      view.machine.gpuType = gpuTypeSheet(gpu, 1);
      view.machine.gpuDisplayName = gpu.displayName;
      view.machine.currentPricePerGpu = roundMoney(gpu.securePrice * priceFactor("SECURE", false));
    }
  }
  if (include.includeSavingsPlans) view.savingsPlans = [];
  return view;
}
