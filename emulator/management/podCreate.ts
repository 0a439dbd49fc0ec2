/**
 * Creating a pod: resolve the template and references, narrow the data centers (network volume,
 * countryCodes), place it by the priority lists, take the capacity, start billing and the boot.
 */
import { badRequest, conflict } from "../http/errors";
import { newId } from "../ids";
import type { AccountData, PodRecord } from "../state/model";
import { CPU_FLAVORS, DATA_CENTER_IDS, DEFAULT_RAM_PER_GPU_GB, DEFAULT_VCPU_PER_GPU, countryOf } from "../vocabulary/catalog";
import { POD_DEFAULTS, type PodCreateInput } from "../vocabulary/schemas/pod";
import type { ManagementContext } from "./context";
import { requireNetworkVolume, requireRegistryAuth, requireTemplate } from "./lookup";
import { checkSpendCap } from "./account/limits";
import { markRunning } from "./podLifecycle";

/** A fixed-per-account stand-in for the SSH key the platform injects. */
function publicKeyFor(accountId: string): string {
  return `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${accountId.slice(5, 25)} emulator@gpucloud`;
}

/** `injectPublicKey: false`: the caller has decided the env (v2's startSsh does it from the account's keys). */
export function createPod(ctx: ManagementContext, account: AccountData, body: PodCreateInput, options: { injectPublicKey?: boolean } = {}): PodRecord {
  const template = body.templateId ? requireTemplate(ctx, account, body.templateId) : undefined;
  const imageName = body.imageName ?? template?.imageName;
  if (!imageName) throw badRequest("invalid imageName: imageName is required (or give a templateId whose template has one)");
  const registryAuthId = body.containerRegistryAuthId ?? template?.containerRegistryAuthId ?? null;
  if (registryAuthId !== null) requireRegistryAuth(account, registryAuthId);

  let dataCenterIds: string[] = body.dataCenterIds ?? [...DATA_CENTER_IDS];
  const volume = body.networkVolumeId ? requireNetworkVolume(account, body.networkVolumeId) : undefined;
  if (volume) {
    // A network volume lives in one data center; the pod has to run there.
    if (!dataCenterIds.includes(volume.dataCenterId)) {
      throw badRequest(
        `invalid dataCenterIds: network volume ${volume.id} is in ${volume.dataCenterId}, which is not in dataCenterIds; ` +
          `add ${volume.dataCenterId} or leave dataCenterIds out`,
      );
    }
    dataCenterIds = [volume.dataCenterId];
  }
  if (body.countryCodes && body.countryCodes.length > 0) {
    const countries = new Set(body.countryCodes.map((code) => code.toUpperCase()));
    dataCenterIds = dataCenterIds.filter((dc) => countries.has(countryOf(dc)));
    if (dataCenterIds.length === 0) {
      throw badRequest(`invalid countryCodes: no allowed data center is in ${[...countries].join(", ")}`);
    }
  }

  const gpu = body.computeType === "GPU";
  const vcpuCount = gpu ? body.gpuCount * Math.max(body.minVCPUPerGPU, DEFAULT_VCPU_PER_GPU) : body.vcpuCount;
  const choice = ctx.capacity.choose({
    computeType: body.computeType,
    gpuTypeIds: body.gpuTypeIds ?? [],
    gpuCount: body.gpuCount,
    cpuFlavorIds: body.cpuFlavorIds ?? [],
    vcpuCount,
    dataCenterIds,
    cloudType: body.cloudType,
    interruptible: body.interruptible,
    minDownloadMbps: body.minDownloadMbps,
    minUploadMbps: body.minUploadMbps,
    minDiskBandwidthMBps: body.minDiskBandwidthMBps,
  });
  if ("error" in choice) throw conflict(choice.error);
  checkSpendCap(ctx, account, choice.costPerHr, `pod "${body.name}"`);

  const env: Record<string, string> = { ...template?.env, ...body.env };
  if (ctx.options.quirks.injectPodPublicKey && options.injectPublicKey !== false) env.PUBLIC_KEY ??= publicKeyFor(account.accountId);
  const now = ctx.clock.now();
  const pod: PodRecord = {
    id: newId("pod", (candidate) => account.pods.has(candidate)),
    accountId: account.accountId,
    createdAtMs: now,
    name: body.name,
    imageName,
    env,
    ports: body.ports ?? (template ? [...template.ports] : [...POD_DEFAULTS.ports]),
    containerDiskInGb: body.containerDiskInGb ?? template?.containerDiskInGb ?? POD_DEFAULTS.containerDiskInGb,
    volumeInGb: body.volumeInGb ?? template?.volumeInGb ?? POD_DEFAULTS.volumeInGb,
    volumeMountPath: body.volumeMountPath ?? template?.volumeMountPath ?? POD_DEFAULTS.volumeMountPath,
    dockerEntrypoint: body.dockerEntrypoint ?? [...(template?.dockerEntrypoint ?? [])],
    dockerStartCmd: body.dockerStartCmd ?? [...(template?.dockerStartCmd ?? [])],
    containerRegistryAuthId: registryAuthId,
    globalNetworking: body.globalNetworking,
    locked: body.locked,
    computeType: body.computeType,
    cloudType: body.cloudType,
    interruptible: body.interruptible,
    gpuCount: gpu ? body.gpuCount : 0,
    vcpuCount,
    memoryInGb: gpu
      ? body.gpuCount * Math.max(body.minRAMPerGPU, DEFAULT_RAM_PER_GPU_GB)
      : vcpuCount * (CPU_FLAVORS.get(choice.typeId)?.ramPerVcpuGb ?? 2),
    networkVolumeId: volume?.id ?? null,
    templateId: template?.id ?? null,
    supportPublicIp: body.supportPublicIp ?? null,
    gpuTypeIds: body.gpuTypeIds ?? [],
    cpuFlavorIds: body.cpuFlavorIds ?? [],
    dataCenterIds,
    countryCodes: body.countryCodes ?? [],
    allowedCudaVersions: body.allowedCudaVersions ?? [],
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
  ctx.capacity.reserve(choice.kind, choice.typeId, choice.dataCenterId, choice.units);
  account.pods.set(pod.id, pod);
  markRunning(ctx, account, pod, "Rented");
  return pod;
}
