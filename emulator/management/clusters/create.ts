/**
 * Creating a cluster (createCluster): "`compute` sets the homogeneous pod shape; the container
 * configuration applies to every pod" (management-api-v2-paths.txt). The whole cluster is placed
 * at once, in one data center ("a cluster is always placed within a single data center", Cluster
 * .dataCenterId), and checked against the spend cap as a whole, before any member exists; then each
 * member is made as a pod (pods/create.ts), so capacity, billing, boots, secrets and pod faults are
 * a pod's. What the reference leaves open is listed in emulator/README.md, "Clusters: assumptions".
 */
import { randomInt } from "node:crypto";
import { newId } from "../../ids";
import type { AccountData, ClusterRecord, PodClusterMembership, PodRecord, TemplateRecord } from "../../state/model";
import { DATA_CENTER_IDS, gpuPrice } from "../../vocabulary/catalog";
import { maxCount } from "../../vocabulary/catalogEntries";
import type { ClusterType, CreateClusterRequest } from "../../vocabulary/schemas/v2/clusters";
import { checkSpendCap } from "../account/limits";
import { requireRentableGpu } from "../compute";
import type { ManagementContext } from "../context";
import { invalid } from "../errors";
import { requireDataCenters, requireNetworkVolume, usableTemplate } from "../lookup";
import type { PlacementWords } from "../placement";
import { terminatePod } from "../pods/actions";
import { type PodCreateRules, type PodCreation, createPod } from "../pods/create";
import { provisioningOf } from "../templateRecords";

/** How a failed placement names the cluster body's fields. */
const CLUSTER_PLACEMENT_WORDS: PlacementWords = {
  gpuTypes: "compute.gpuTypeId",
  gpuCount: "compute.podCount x compute.gpuCountPerPod =",
  cpuTypes: "cpu",
  vcpuCount: "cpu",
  dataCenters: "dataCenterIds",
  typeAdvice: "Choose another",
};

/** Members are v2 pods: no template link of their own (the cluster keeps it), v2's access flags. */
const MEMBER_RULES: PodCreateRules = {
  keepTemplateLink: false,
  checkGlobalNetworking: false,
  access: "flags",
  unplaced: "invalid",
  placementWords: CLUSTER_PLACEMENT_WORDS,
};

/** today 5.4: templateId is "Mutually exclusive with `image`, `args`, `entrypoint`, `cmd`, `disk`, `env`, `ports`, `mounts` (400)". */
const SET_BY_TEMPLATE = ["image", "args", "entrypoint", "cmd", "disk", "env", "ports", "mounts"] as const;

/** The overlay every cluster gets (assumption: the reference shows no CIDR; one /24 holds the 250 members). */
const OVERLAY_CIDR = "10.65.0.0/24";
const overlayIp = (rank: number) => `10.65.0.${rank + 1}`;
/** The IANA port for VXLAN. */
const VXLAN_PORT = 4789;

/** PodClusterRole: "Assigned for SLURM and RAY clusters; omitted for TRAINING/APPLICATION members"; rank 0 is the controller / head. */
function roleOf(type: ClusterType, rank: number): PodClusterMembership["role"] {
  if (type === "SLURM") return rank === 0 ? "SLURM_CONTROLLER" : "SLURM_COMPUTE";
  if (type === "RAY") return rank === 0 ? "RAY_HEAD" : "RAY_WORKER";
  return undefined;
}

/**
 * today 5.4: "every member pod is provisioned from that pod template, which also supplies the
 * registry credential [...] Must be a non-serverless pod template the caller can read." An unknown
 * or serverless one is 400 (assumption: createCluster documents no 404, and a schema-valid body
 * whose template the account cannot use is a value the account rejects).
 */
function templateFor(ctx: ManagementContext, account: AccountData, body: CreateClusterRequest): TemplateRecord | undefined {
  if (body.templateId === undefined) {
    if (!body.image) throw invalid("image", "image is required unless templateId names a pod template");
    return undefined;
  }
  const given = SET_BY_TEMPLATE.filter((field) => body[field] !== undefined);
  if (given.length > 0)
    throw invalid(
      "templateId",
      `templateId cannot be combined with ${given.join(", ")}: the template supplies every member's container settings; drop those fields or templateId`,
    );
  const template = usableTemplate(ctx, account.accountId, body.templateId);
  if (!template)
    throw invalid(
      "templateId",
      `template ${JSON.stringify(body.templateId)} does not exist or is not readable by this account; list them with GET /api/v2/templates`,
    );
  if (template.isServerless)
    throw invalid("templateId", `template ${template.id} is a serverless template; a cluster needs a pod template (serverless: false)`);
  return template;
}

/** The data centers the cluster may go to: those asked for (all when none), narrowed to its network volume's. */
function candidateCenters(account: AccountData, body: CreateClusterRequest): string[] {
  requireDataCenters(body.dataCenterIds);
  const asked: readonly string[] = body.dataCenterIds && body.dataCenterIds.length > 0 ? body.dataCenterIds : DATA_CENTER_IDS;
  const mount = body.mounts?.network?.[0];
  if (!mount) return [...asked];
  const volume = requireNetworkVolume(account, mount.volumeId, "mounts.network[0].volumeId");
  if (!asked.includes(volume.dataCenterId))
    throw invalid(
      "dataCenterIds",
      `network volume ${volume.id} is in ${volume.dataCenterId}, which is not in dataCenterIds; add ${volume.dataCenterId} or leave dataCenterIds out`,
    );
  return [volume.dataCenterId];
}

export function createCluster(ctx: ManagementContext, account: AccountData, body: CreateClusterRequest): ClusterRecord {
  const { gpuTypeId, gpuCountPerPod, podCount } = body.compute;
  const gpu = requireRentableGpu(gpuTypeId, "compute.gpuTypeId");
  // ClusterCompute.gpuCountPerPod: "Bounded above by the GPU type's per-cloud maximum (GpuType.maxCount); the upstream rejects values beyond it."
  if (gpuCountPerPod > maxCount(gpu))
    throw invalid(
      "compute.gpuCountPerPod",
      `at most ${maxCount(gpu)} GPUs of type "${gpuTypeId}" fit one pod (maxCount in GET /api/v2/catalog/gpus), got ${gpuCountPerPod}; lower it or add pods`,
    );
  const template = templateFor(ctx, account, body);
  const choice = ctx.capacity.choose(
    {
      computeType: "GPU",
      gpuTypeIds: [gpuTypeId],
      gpuCount: podCount * gpuCountPerPod,
      cpuFlavorIds: [],
      vcpuCount: 0,
      dataCenterIds: candidateCenters(account, body),
      cloudType: "SECURE",
      interruptible: false,
      cudaVersions: template ? provisioningOf(template).allowedCudaVersions : undefined,
    },
    CLUSTER_PLACEMENT_WORDS,
  );
  if ("error" in choice) throw invalid("compute", choice.error);
  // Every member is billed (and counts against the cap) as the pod it is.
  checkSpendCap(ctx, account, podCount * gpuPrice(gpuTypeId, gpuCountPerPod, "SECURE", false), `cluster "${body.name}" (${podCount} pods)`);

  const id = newId("cluster", (candidate) => account.clusters.has(candidate));
  const members: PodRecord[] = [];
  try {
    for (let rank = 0; rank < podCount; rank++) {
      const role = roleOf(body.type, rank);
      const membership: PodClusterMembership = { id, rank, ip: overlayIp(rank), ...(role ? { role } : {}) };
      members.push(
        createPod(ctx, account, memberCreation(body, template, choice.dataCenterId, `${body.name}-${rank}`, membership), MEMBER_RULES),
      );
    }
  } catch (error) {
    // All or nothing: a member refused (e.g. its mounts) takes the others with it.
    for (const member of members) terminatePod(ctx, account, member);
    throw error;
  }
  const cluster: ClusterRecord = {
    id,
    accountId: account.accountId,
    createdAtMs: ctx.clock.now(),
    name: body.name,
    type: body.type,
    gpuTypeId,
    gpuCountPerPod,
    podCount,
    templateId: template?.id ?? null,
    dataCenterId: choice.dataCenterId,
    memberIds: members.map((member) => member.id),
    network: { cidr: OVERLAY_CIDR, vxlanId: randomInt(1, 2 ** 24), vxlanPort: VXLAN_PORT },
  };
  account.clusters.set(id, cluster);
  return cluster;
}

/** One member as a pod create: the cluster's shape and container settings, in the data center chosen for all. */
function memberCreation(
  body: CreateClusterRequest,
  template: TemplateRecord | undefined,
  dataCenterId: string,
  name: string,
  cluster: PodClusterMembership,
): PodCreation {
  return {
    name,
    template,
    computeType: "GPU",
    gpu: { gpuTypeIds: [body.compute.gpuTypeId], gpuCount: body.compute.gpuCountPerPod, minVcpuPerGpu: 2, minRamPerGpu: 8 },
    cpuFlavorIds: [],
    vcpuCount: 2,
    imageName: body.image,
    env: body.env ?? {},
    // As on a v2 pod: "`ports` has no default on v2" (today 6.1 #8), so none without a template.
    ports: body.ports ?? (template ? undefined : []),
    containerDiskInGb: body.disk,
    command: body,
    // The template's credential (today 5.4), or none: the body cannot name one.
    containerRegistryAuthId: undefined,
    storage: { mounts: body.mounts },
    cloudType: "SECURE",
    interruptible: false,
    dataCenterIds: [dataCenterId],
    countryCodes: undefined,
    supportPublicIp: null,
    allowedCudaVersions: undefined,
    globalNetworking: false,
    locked: false,
    startSsh: body.startSsh,
    startJupyter: body.startJupyter,
    cluster,
  };
}
