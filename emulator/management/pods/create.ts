/**
 * Creating a pod (v1 POST /pods, v2 createPod): the template fills what the request leaves out,
 * the data centers narrow (network volume, countries, global networking), placement picks a type
 * and data center by the priority lists, the spend cap is checked, and the pod starts (capacity,
 * billing, boot). The surfaces resolve the template a request names (each words an unknown one its
 * own way) and say, in `rules`, where their APIs differ.
 */
import { randomBytes } from "node:crypto";
import type { AccountData, NetworkVolumeRecord, PodClusterMembership, PodRecord, TemplateRecord } from "../../state/model";
import { newId } from "../../ids";
import {
  CPU_FLAVORS,
  type CloudType,
  DATA_CENTER_IDS,
  DEFAULT_RAM_PER_GPU_GB,
  DEFAULT_VCPU_PER_GPU,
  countryOf,
} from "../../vocabulary/catalog";
import { POD_DEFAULTS } from "../../vocabulary/schemas/pod";
import type { Mounts } from "../../vocabulary/schemas/v2/requests";
import { checkSpendCap } from "../account/limits";
import { type CommandInput, commandOf } from "../command";
import type { ManagementContext } from "../context";
import { NoCapacity, invalid } from "../errors";
import { requireNetworkVolume, requireRegistryAuth } from "../lookup";
import type { PlacementWords } from "../placement";
import { provisioningOf, templateRegistry } from "../templateRecords";
import { globalNetworkingCenters } from "./globalNetworking";
import { markRunning } from "./lifecycle";

/** Where /v1 and /api/v2 create pods differently; each surface states its own once. */
export interface PodCreateRules {
  /**
   * v1 keeps the pod's `templateId`. v2 CreatePodRequest.templateId: "The template is a one-time
   * source of settings [...] the created pod does not retain a link to the template (`template`
   * stays null)".
   */
  keepTemplateLink: boolean;
  /**
   * v2 CreatePodRequest.globalNetworking: "Requires an NVIDIA GPU and a global-networking-enabled
   * data center (both enforced upstream)" (globalNetworking.ts). v1 stores the flag as given.
   */
  checkGlobalNetworking: boolean;
  /**
   * Who provides SSH access. "platform": the key the platform injects into every pod (NOTES.md
   * section 1, "The platform injects env keys the user never set (PUBLIC_KEY into pods)"; quirk
   * injectPodPublicKey). "flags": v2's startSsh / startJupyter (CreatePodRequest).
   */
  access: "platform" | "flags";
  /**
   * A create that cannot be placed. "conflict": v1's 409 (no capacity). "invalid": v2's 400 naming
   * the family (`gpu` or `cpu`): the reference lists no 409 for createPod (5.2).
   */
  unplaced: "conflict" | "invalid";
  /** How the failure names the request's fields, in the surface's words (placement.ts, the one place that decides). */
  placementWords: PlacementWords;
}

interface GpuRequest {
  gpuTypeIds: string[];
  gpuCount: number;
  /** Placement filters: the host's share per GPU is at least these (v1 minVCPUPerGPU / minRAMPerGPU). */
  minVcpuPerGpu: number;
  minRamPerGpu: number;
}

export interface PodCreation {
  name: string;
  template: TemplateRecord | undefined;
  computeType: "GPU" | "CPU";
  gpu: GpuRequest;
  cpuFlavorIds: string[];
  vcpuCount: number;
  /** Container settings; each left undefined comes from the template, else the documented default. */
  imageName: string | undefined;
  env: Readonly<Record<string, string>>;
  ports: string[] | undefined;
  containerDiskInGb: number | undefined;
  /** The command as arrays (v1 dockerEntrypoint / dockerStartCmd) or as v2's args, cmd, entrypoint. */
  command: CommandInput;
  /** null or undefined: the template's (a body's `null` names no registry of its own). */
  containerRegistryAuthId: string | null | undefined;
  /** Storage as v1 states it (sizes and path, a network volume by id), or as v2's mounts. */
  storage:
    | { volumeInGb: number | undefined; volumeMountPath: string | undefined; networkVolumeId: string | undefined }
    | { mounts: Mounts | undefined };
  cloudType: CloudType;
  interruptible: boolean;
  /** undefined: every data center. */
  dataCenterIds: readonly string[] | undefined;
  countryCodes: readonly string[] | undefined;
  minDownloadMbps?: number | undefined;
  minUploadMbps?: number | undefined;
  minDiskBandwidthMBps?: number | undefined;
  supportPublicIp: boolean | null;
  /** undefined: the template's on a GPU pod (v2 templateId), else none. */
  allowedCudaVersions: string[] | undefined;
  globalNetworking: boolean;
  locked: boolean;
  /** v2 flags (access "flags"); undefined: the template's, else false. */
  startSsh?: boolean | undefined;
  startJupyter?: boolean | undefined;
  /** A cluster member's place in its cluster (management/clusters/create.ts), set before it starts so its billing is the cluster's. */
  cluster?: PodClusterMembership;
}

/** A fixed-per-account stand-in for the SSH key the platform injects. */
function publicKeyFor(accountId: string): string {
  return `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${accountId.slice(5, 25)} emulator@gpucloud`;
}

/**
 * The variables the provisioner injects at create. CreatePodRequest.startSsh: "injects a
 * `PUBLIC_KEY` environment variable carrying your account's registered SSH public keys, unless the
 * request already sets one. Requires registered keys (PUT /v2/account/ssh-keys) — with none
 * registered the flag does nothing". startJupyter: "injects a generated `JUPYTER_PASSWORD`
 * environment variable, unless the request already sets one." Both default to false on a pod and
 * come from the template when the body omits them (templateId resolves "startSsh, startJupyter"),
 * as the template states them (Template.startSsh: "Whether containers created from this template
 * get SSH access provisioned at startup"), a /v1 template's defaults included.
 */
function injectAccess(
  ctx: ManagementContext,
  account: AccountData,
  creation: PodCreation,
  rules: PodCreateRules,
  env: Record<string, string>,
): void {
  if (rules.access === "platform") {
    if (ctx.options.quirks.injectPodPublicKey) env.PUBLIC_KEY ??= publicKeyFor(account.accountId);
    return;
  }
  const template = creation.template ? provisioningOf(creation.template) : undefined;
  if ((creation.startSsh ?? template?.startSsh ?? false) && account.sshKeys.length > 0) env.PUBLIC_KEY ??= account.sshKeys.join("\n");
  if (creation.startJupyter ?? template?.startJupyter ?? false) env.JUPYTER_PASSWORD ??= randomBytes(12).toString("base64url");
}

/**
 * v2 Mounts as the record keeps storage. "v2 has no implicit volume": storage only when mounts (or
 * the template) ask for it; "CPU pods do not inherit a template's persistent mount"
 * (CreatePodRequest.templateId); a CPU pod cannot have a persistent mount at all.
 */
function storageOf(creation: PodCreation): {
  volumeInGb: number | undefined;
  volumeMountPath: string | undefined;
  networkVolumeId: string | undefined;
} {
  const { storage, template } = creation;
  if (!("mounts" in storage)) return storage;
  const persistent = storage.mounts?.persistent;
  const network = storage.mounts?.network?.[0];
  if (persistent && network) throw invalid("mounts", "set at most one of mounts.persistent and mounts.network");
  if (persistent && creation.computeType === "CPU")
    throw invalid("mounts.persistent", "CPU pods cannot have a persistent mount; use mounts.network with a network volume");
  return {
    volumeInGb: persistent?.size ?? (network || !template || creation.computeType === "CPU" ? 0 : template.volumeInGb),
    volumeMountPath: (persistent ?? network)?.path,
    networkVolumeId: network?.volumeId,
  };
}

/**
 * The data centers the pod may be placed in: those asked for (all by default), narrowed to the
 * network volume's (a volume lives in one data center, the pod has to run there), to the countries
 * asked for, and (v2) to those that offer global networking.
 */
function dataCentersFor(creation: PodCreation, rules: PodCreateRules, volume: NetworkVolumeRecord | undefined): string[] {
  let dataCenterIds: string[] = creation.dataCenterIds ? [...creation.dataCenterIds] : [...DATA_CENTER_IDS];
  if (rules.checkGlobalNetworking && creation.globalNetworking) {
    const gpu = creation.computeType === "GPU" ? creation.gpu.gpuTypeIds[0] : undefined;
    dataCenterIds = globalNetworkingCenters(gpu, dataCenterIds, "none of dataCenterIds supports global networking");
  }
  if (volume) {
    if (!dataCenterIds.includes(volume.dataCenterId)) {
      throw invalid(
        "dataCenterIds",
        `network volume ${volume.id} is in ${volume.dataCenterId}, which is not in dataCenterIds; add ${volume.dataCenterId} or leave dataCenterIds out`,
      );
    }
    dataCenterIds = [volume.dataCenterId];
  }
  if (creation.countryCodes && creation.countryCodes.length > 0) {
    const countries = new Set(creation.countryCodes.map((code) => code.toUpperCase()));
    dataCenterIds = dataCenterIds.filter((dc) => countries.has(countryOf(dc)));
    if (dataCenterIds.length === 0) throw invalid("countryCodes", `no allowed data center is in ${[...countries].join(", ")}`);
  }
  return dataCenterIds;
}

/**
 * The CUDA versions a pod takes from its template when the request states none. CreatePodRequest
 * .templateId resolves "allowedCudaVersions" with the other settings; Template.allowedCudaVersions:
 * "Expanded into GPU pod and serverless endpoint creates; CPU pods ignore it."
 */
function cudaFromTemplate({ template, computeType }: PodCreation): string[] {
  return template && computeType === "GPU" ? provisioningOf(template).allowedCudaVersions : [];
}

export function createPod(ctx: ManagementContext, account: AccountData, creation: PodCreation, rules: PodCreateRules): PodRecord {
  const { template, gpu: gpuRequest } = creation;
  const storage = storageOf(creation);
  const imageName = creation.imageName ?? template?.imageName;
  if (!imageName) throw invalid("imageName", "imageName is required (or give a templateId whose template has one)");
  // A template of another account gives no registry ("`registry` is always null for templates you
  // don't own", listPublicTemplates): the pod pulls without one, or with the body's own.
  const registryAuthId = creation.containerRegistryAuthId ?? (template ? templateRegistry(template, account.accountId) : null);
  if (registryAuthId !== null) requireRegistryAuth(account, registryAuthId);
  const volumeField = "mounts" in creation.storage ? "mounts.network[0].volumeId" : "networkVolumeId";
  const volume = storage.networkVolumeId ? requireNetworkVolume(account, storage.networkVolumeId, volumeField) : undefined;
  const command = commandOf(creation.command, template);
  const dataCenterIds = dataCentersFor(creation, rules, volume);

  const gpu = creation.computeType === "GPU";
  const vcpuCount = gpu ? gpuRequest.gpuCount * Math.max(gpuRequest.minVcpuPerGpu, DEFAULT_VCPU_PER_GPU) : creation.vcpuCount;
  const allowedCudaVersions = creation.allowedCudaVersions ?? cudaFromTemplate(creation);
  const choice = ctx.capacity.choose(
    {
      computeType: creation.computeType,
      gpuTypeIds: gpuRequest.gpuTypeIds,
      gpuCount: gpuRequest.gpuCount,
      cpuFlavorIds: creation.cpuFlavorIds,
      vcpuCount,
      dataCenterIds,
      cloudType: creation.cloudType,
      interruptible: creation.interruptible,
      minDownloadMbps: creation.minDownloadMbps,
      minUploadMbps: creation.minUploadMbps,
      minDiskBandwidthMBps: creation.minDiskBandwidthMBps,
      cudaVersions: allowedCudaVersions,
    },
    rules.placementWords,
  );
  if ("error" in choice) {
    throw rules.unplaced === "invalid"
      ? invalid(creation.computeType === "GPU" ? "gpu" : "cpu", choice.error)
      : new NoCapacity(choice.error);
  }
  checkSpendCap(ctx, account, choice.costPerHr, `pod "${creation.name}"`);

  const env: Record<string, string> = { ...template?.env, ...creation.env };
  injectAccess(ctx, account, creation, rules, env);
  const pod: PodRecord = {
    id: newId("pod", (candidate) => account.pods.has(candidate)),
    accountId: account.accountId,
    createdAtMs: ctx.clock.now(),
    name: creation.name,
    imageName,
    env,
    ports: creation.ports ?? (template ? [...template.ports] : [...POD_DEFAULTS.ports]),
    containerDiskInGb: creation.containerDiskInGb ?? template?.containerDiskInGb ?? POD_DEFAULTS.containerDiskInGb,
    volumeInGb: storage.volumeInGb ?? template?.volumeInGb ?? POD_DEFAULTS.volumeInGb,
    volumeMountPath: storage.volumeMountPath ?? template?.volumeMountPath ?? POD_DEFAULTS.volumeMountPath,
    dockerEntrypoint: command.dockerEntrypoint,
    dockerStartCmd: command.dockerStartCmd,
    containerRegistryAuthId: registryAuthId,
    globalNetworking: creation.globalNetworking,
    locked: creation.locked,
    computeType: creation.computeType,
    cloudType: creation.cloudType,
    interruptible: creation.interruptible,
    gpuCount: gpu ? gpuRequest.gpuCount : 0,
    vcpuCount,
    memoryInGb: gpu
      ? gpuRequest.gpuCount * Math.max(gpuRequest.minRamPerGpu, DEFAULT_RAM_PER_GPU_GB)
      : vcpuCount * (CPU_FLAVORS.get(choice.typeId)?.ramPerVcpuGb ?? 2),
    networkVolumeId: volume?.id ?? null,
    templateId: rules.keepTemplateLink ? (template?.id ?? null) : null,
    supportPublicIp: creation.supportPublicIp,
    gpuTypeIds: gpuRequest.gpuTypeIds,
    cpuFlavorIds: creation.cpuFlavorIds,
    dataCenterIds,
    countryCodes: creation.countryCodes ? [...creation.countryCodes] : [],
    allowedCudaVersions,
    gpuTypeId: choice.kind === "gpu" ? choice.typeId : null,
    cpuFlavorId: choice.kind === "cpu" ? choice.typeId : null,
    dataCenterId: choice.dataCenterId,
    machineId: newId("machine", () => false),
    costPerHr: choice.costPerHr,
    desiredStatus: "EXITED",
    lastStartedAtMs: null,
    lastStatusChange: "",
    boot: null,
  };
  if (command.args !== undefined) pod.args = command.args;
  if (creation.cluster) pod.cluster = creation.cluster;
  ctx.capacity.reserve(choice.kind, choice.typeId, choice.dataCenterId, choice.units);
  account.pods.set(pod.id, pod);
  markRunning(ctx, account, pod, "Rented");
  return pod;
}
