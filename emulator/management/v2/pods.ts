/**
 * /api/v2/pods: create, list, get, PATCH, DELETE and POST /pods/{id}/action, over the same pod
 * records as /v1 (a pod made through either is read and changed through both). A v2 request is
 * checked in v2 terms (field names in errors are v2's), then translated to the v1 operation that
 * does the work, so placement, capacity, billing and boots follow one implementation.
 */
import { randomBytes } from "node:crypto";
import { HttpError } from "../../http/errors";
import type { Operation } from "../../http/router";
import type { AccountData, PodRecord, TemplateRecord } from "../../state/model";
import { CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPES } from "../../vocabulary/catalog";
import { PodCreateInput, type PodUpdateInput } from "../../vocabulary/schemas/pod";
import { podOf, requireNetworkVolume, usableTemplate } from "../lookup";
import { createPod } from "../podCreate";
import { boot, markRunning, markStopped, reserveForStart, statusEvent } from "../podLifecycle";
import { updatePod } from "../pods";
import { isDataCenter, isPowerOfTwo, POD_CPU_IDS, supportsGlobalNetworking } from "./catalog";
import { type V2Context, defineV2Operation } from "./operation";
import { commandChange } from "./command";
import { podActions, podStatus, v2PodView } from "./podView";
import { byCreation, paginate } from "./pagination";
import { ProblemError, fieldProblem } from "./problem";
import { CreatePodRequest, ListPodsQuery, PodActionRequest, UpdatePodRequest } from "./schemas";

const TAG = "pods";

function checkDataCenters(field: string, ids: readonly string[] | undefined): void {
  for (const [i, id] of (ids ?? []).entries()) {
    if (!isDataCenter(id)) throw fieldProblem(`${field}[${i}]`, `unknown data center ${JSON.stringify(id)}; list them with GET /api/v2/catalog/datacenters`);
  }
}

function checkCuda(field: string, allowed: readonly string[] | undefined, min: string | undefined): void {
  if (allowed && allowed.length > 0 && min !== undefined && min !== "") {
    throw fieldProblem(`${field}.minCudaVersion`, `give either a non-empty ${field}.allowedCudaVersions or ${field}.minCudaVersion, not both`);
  }
}

/** v2 minCudaVersion as the v1 record keeps it: every known version at or above the floor. */
function versionsFrom(min: string): string[] {
  const [major = 0, minor = 0] = min.split(".").map(Number);
  return CUDA_VERSIONS.filter((v) => {
    const [a = 0, b = 0] = v.split(".").map(Number);
    return a > major || (a === major && b >= minor);
  });
}

/** A capacity 409 of the shared placement is a 400 in v2 (the reference lists no 409 for createPod). */
function asBadRequest<T>(run: () => T, field: string): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) throw fieldProblem(field, error.message);
    throw error;
  }
}

/**
 * The pod template a `templateId` names. CreatePodRequest.templateId: "unknown or inaccessible ID
 * → 404 [...] must not be a serverless template (→ 422)"; UpdatePodRequest.templateId likewise.
 */
function requirePodTemplate(v: V2Context, account: AccountData, id: string): TemplateRecord {
  const template = usableTemplate(v.ctx, account, id);
  if (!template) throw fieldProblem("templateId", `template ${JSON.stringify(id)} does not exist or is not readable by this account; list them with GET /api/v2/templates`, 404);
  if (template.isServerless) throw fieldProblem("templateId", `template ${id} is a serverless template; a pod needs a pod template (serverless: false)`, 422);
  return template;
}

/**
 * The variables the provisioner injects at create. CreatePodRequest.startSsh: "injects a
 * `PUBLIC_KEY` environment variable carrying your account's registered SSH public keys, unless the
 * request already sets one. Requires registered keys (PUT /v2/account/ssh-keys) — with none
 * registered the flag does nothing". startJupyter: "injects a generated `JUPYTER_PASSWORD`
 * environment variable, unless the request already sets one." Both default to false on a pod and
 * come from the template when the body omits them (templateId resolves "startSsh, startJupyter").
 */
function injectedEnv(account: AccountData, env: Record<string, string>, startSsh: boolean, startJupyter: boolean): Record<string, string> {
  const out = { ...env };
  if (startSsh && account.sshKeys.length > 0) out.PUBLIC_KEY ??= account.sshKeys.join("\n");
  if (startJupyter) out.JUPYTER_PASSWORD ??= randomBytes(12).toString("base64url");
  return out;
}

function createV2Pod(v: V2Context, account: AccountData, body: CreatePodRequest): PodRecord {
  const { ctx } = v;
  if ((body.gpu === undefined) === (body.cpu === undefined)) {
    throw fieldProblem(body.gpu ? "cpu" : "gpu", "supply exactly one of gpu (a GPU pod) or cpu (a CPU pod)");
  }
  if (body.gpu) {
    const gpu = GPU_TYPES.get(body.gpu.id);
    if (!gpu || gpu.legacy) throw fieldProblem("gpu.id", `unknown GPU type ${JSON.stringify(body.gpu.id)}; list them with GET /api/v2/catalog/gpus`);
    checkCuda("gpu", body.gpu.allowedCudaVersions, body.gpu.minCudaVersion);
  }
  if (body.cpu) {
    if (!POD_CPU_IDS.includes(body.cpu.id)) throw fieldProblem("cpu.id", `unknown CPU flavor ${JSON.stringify(body.cpu.id)}; one of ${POD_CPU_IDS.join(", ")}`);
    if (!isPowerOfTwo(body.cpu.vcpuCount)) throw fieldProblem("cpu.vcpuCount", `must be a power of two (2, 4, 8, ...), got ${body.cpu.vcpuCount}`);
    if (body.mounts?.persistent) throw fieldProblem("mounts.persistent", "CPU pods cannot have a persistent mount; use mounts.network with a network volume");
  }
  checkDataCenters("dataCenterIds", body.dataCenterIds);
  if (body.mounts?.persistent && body.mounts.network?.length) throw fieldProblem("mounts", "set at most one of mounts.persistent and mounts.network");
  const network = body.mounts?.network?.[0];
  if (network) requireNetworkVolume(account, network.volumeId, "mounts.network[0].volumeId");
  if (body.registry) requireV2Registry(account, body.registry);
  const template = body.templateId ? requirePodTemplate(v, account, body.templateId) : undefined;
  const command = commandChange(body, { entrypoint: [...(template?.dockerEntrypoint ?? [])], cmd: [...(template?.dockerStartCmd ?? [])] });
  if (!body.image && !template) throw fieldProblem("image", "image is required unless templateId names a template that has one");

  let dataCenterIds = body.dataCenterIds && body.dataCenterIds.length > 0 ? body.dataCenterIds : undefined;
  if (body.globalNetworking) {
    if (!body.gpu || !body.gpu.id.startsWith("NVIDIA")) throw fieldProblem("globalNetworking", "global networking needs an NVIDIA GPU pod");
    const eligible = (dataCenterIds ?? []).length > 0 ? (dataCenterIds ?? []).filter(supportsGlobalNetworking) : undefined;
    if (eligible && eligible.length === 0) throw fieldProblem("globalNetworking", "none of dataCenterIds supports global networking; see globalNetwork in GET /api/v2/catalog/datacenters");
    dataCenterIds = eligible ?? DATA_CENTER_IDS.filter(supportsGlobalNetworking);
  }
  const persistent = body.mounts?.persistent;
  const allowedCuda = body.gpu?.minCudaVersion ? versionsFrom(body.gpu.minCudaVersion) : body.gpu?.allowedCudaVersions;
  const v1 = PodCreateInput.parse({
    name: body.name,
    cloudType: body.cloud,
    computeType: body.cpu ? "CPU" : "GPU",
    ...(body.gpu ? { gpuTypeIds: [body.gpu.id], gpuCount: body.gpu.count } : {}),
    // Placement filters: the host's share per GPU is at least these (gpu.vcpuCount, gpu.memory report it).
    ...(body.gpu?.minRamPerGpu !== undefined ? { minRAMPerGPU: body.gpu.minRamPerGpu } : {}),
    ...(body.gpu?.minVcpuCountPerGpu !== undefined ? { minVCPUPerGPU: body.gpu.minVcpuCountPerGpu } : {}),
    ...(body.cpu ? { cpuFlavorIds: [body.cpu.id], vcpuCount: body.cpu.vcpuCount } : {}),
    ...(allowedCuda ? { allowedCudaVersions: allowedCuda } : {}),
    ...(dataCenterIds ? { dataCenterIds } : {}),
    ...(body.image !== undefined ? { imageName: body.image } : {}),
    ...(command ? { dockerEntrypoint: command.dockerEntrypoint, dockerStartCmd: command.dockerStartCmd } : {}),
    ...(body.disk !== undefined ? { containerDiskInGb: body.disk } : {}),
    env: injectedEnv(account, { ...template?.env, ...body.env }, body.startSsh ?? template?.startSsh ?? false, body.startJupyter ?? template?.startJupyter ?? false),
    ...(body.ports !== undefined ? { ports: body.ports } : template ? {} : { ports: [] }),
    ...(body.registry !== undefined ? { containerRegistryAuthId: body.registry } : {}),
    ...(body.templateId !== undefined ? { templateId: body.templateId } : {}),
    globalNetworking: body.globalNetworking,
    // v2 has no implicit volume: storage only when mounts (or the template) ask for it; "CPU pods
    // do not inherit a template's persistent mount" (CreatePodRequest.templateId).
    volumeInGb: persistent?.size ?? (network || !template || body.cpu ? 0 : template.volumeInGb),
    ...(persistent || network ? { volumeMountPath: (persistent ?? network)?.path } : {}),
    ...(network ? { networkVolumeId: network.volumeId } : {}),
  });
  const pod = asBadRequest(() => createPod(ctx, account, v1, { injectPublicKey: false }), body.gpu ? "gpu" : "cpu");
  // "The template is a one-time source of settings [...] the created pod does not retain a link
  // to the template (`template` stays null)" (CreatePodRequest.templateId): nor does the record.
  pod.templateId = null;
  if (command?.args !== undefined) pod.args = command.args;
  else if (!command && template?.args !== undefined) pod.args = template.args;
  return pod;
}

export function requireV2Registry(account: AccountData, id: string): void {
  if (!account.registryAuths.has(id)) throw fieldProblem("registry", `registry credential ${JSON.stringify(id)} does not exist in this account; create it with POST /api/v2/registries`);
}

/** What kind of storage a pod was created with: fixed for its life on v2 (Mounts, PATCH semantics). */
function mountKindOf(pod: PodRecord): "network" | "persistent" | "none" {
  return pod.networkVolumeId ? "network" : pod.volumeInGb > 0 ? "persistent" : "none";
}

/**
 * Mounts, PATCH semantics (reference Mounts): "An explicit `network: []` is rejected with 400
 * (clearing mounts is not supported). Mount kind is fixed at create — a PATCH that introduces a
 * kind not present at create (persistent on a network pod, network on a persistent pod, or any
 * mount on a previously-mountless pod) is rejected with 400. The `volumeId` of a network mount is
 * immutable; a PATCH that names a different `volumeId` is rejected with 400."
 */
function checkMountChange(pod: PodRecord, mounts: NonNullable<UpdatePodRequest["mounts"]>): void {
  if (mounts.persistent && mounts.network?.length) throw fieldProblem("mounts", "set at most one of mounts.persistent and mounts.network");
  if (mounts.network?.length === 0) throw fieldProblem("mounts.network", "clearing mounts is not supported; omit mounts to leave the mount unchanged, or create a new pod without it");
  const kind = mountKindOf(pod);
  const asked = mounts.persistent ? "persistent" : mounts.network ? "network" : undefined;
  if (asked !== undefined && asked !== kind) {
    throw fieldProblem(
      `mounts.${asked}`,
      `the mount kind of a pod is fixed at create and pod ${pod.id} was created with ${kind === "none" ? "no mount" : `a ${kind} mount`}; create a new pod to have a ${asked} mount`,
    );
  }
  const network = mounts.network?.[0];
  if (network && network.volumeId !== pod.networkVolumeId) {
    throw fieldProblem("mounts.network[0].volumeId", `the network volume of a pod is fixed at create (${pod.networkVolumeId ?? "none"}); create a new pod to change it`);
  }
}

function updateV2Pod(v: V2Context, account: AccountData, pod: PodRecord, body: UpdatePodRequest): PodRecord {
  const template = body.templateId ? requirePodTemplate(v, account, body.templateId) : undefined;
  if (body.mounts) checkMountChange(pod, body.mounts);
  if (body.registry) requireV2Registry(account, body.registry);
  const change: PodUpdateInput = {};
  // A template's container settings apply as if sent in this body; explicit fields win, env merges per key.
  if (template) {
    Object.assign(change, {
      imageName: template.imageName,
      dockerEntrypoint: [...template.dockerEntrypoint],
      dockerStartCmd: [...template.dockerStartCmd],
      containerDiskInGb: template.containerDiskInGb,
      ports: [...template.ports],
      env: { ...template.env },
      containerRegistryAuthId: template.containerRegistryAuthId,
    });
  }
  if (body.name !== undefined) change.name = body.name;
  if (body.image !== undefined) change.imageName = body.image;
  const command = commandChange(body, { entrypoint: change.dockerEntrypoint ?? pod.dockerEntrypoint, cmd: change.dockerStartCmd ?? pod.dockerStartCmd });
  if (command) {
    change.dockerEntrypoint = command.dockerEntrypoint;
    change.dockerStartCmd = command.dockerStartCmd;
  }
  if (body.disk !== undefined) change.containerDiskInGb = body.disk;
  if (body.ports !== undefined) change.ports = body.ports;
  if (body.env !== undefined) change.env = { ...change.env, ...body.env };
  if (body.registry !== undefined) change.containerRegistryAuthId = body.registry;
  if (body.locked !== undefined) change.locked = body.locked;
  const mounts = body.mounts;
  if (mounts?.network?.[0]) change.volumeMountPath = mounts.network[0].path;
  if (mounts?.persistent) {
    change.volumeInGb = mounts.persistent.size;
    change.volumeMountPath = mounts.persistent.path;
  }
  updatePod(v.ctx, account, pod, change);
  if (command) pod.args = command.args;
  else if (template) pod.args = template.args;
  // UpdatePodRequest.globalNetworking: "Takes effect on the next pod start/restart, not live": kept
  // on the record, the running boot keeps its own (podLifecycle.ts boot()).
  if (body.globalNetworking !== undefined) pod.globalNetworking = body.globalNetworking;
  return pod;
}

function actionConflict(pod: PodRecord, action: string, status: string, allowed: readonly string[]): ProblemError {
  const detail =
    `action ${JSON.stringify(action)} does not fit pod ${pod.id} in status ${status}` +
    (pod.locked && action === "stop" ? " (the pod is locked: unlock it with PATCH {\"locked\": false})" : "") +
    `; allowed now: ${allowed.length > 0 ? allowed.join(", ") : "none"}`;
  return new ProblemError(409, detail, [`invalid action: ${detail}`]);
}

export function v2PodOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    defineV2Operation({
      method: "GET",
      path: "/pods",
      operationId: "listPods",
      tag: TAG,
      scope: "pods:read",
      summary: "List pods",
      query: ListPodsQuery,
      response: { status: 200, description: "OK", schemaName: "ListPodsResponse" },
      errors: [422],
      handle({ accountId, query }) {
        // The emulator has no clusters, so includeClusterPods changes nothing but the cursor's binding.
        const { limit, cursor, ...bound } = query;
        const page = paginate([...account(accountId).pods.values()], byCreation, {
          operationId: "listPods", accountId, bound: { includeClusterPods: bound.includeClusterPods ?? false }, limit, cursor, pageSize: ctx.options.pageSize,
        });
        return { status: 200, body: { pods: page.items.map((pod) => v2PodView(ctx, pod)), pagination: page.pagination } };
      },
    }, { queryProblemStatus: 422 }),
    defineV2Operation({
      method: "POST",
      path: "/pods",
      operationId: "createPod",
      tag: TAG,
      scope: "pods:write",
      summary: "Create a pod",
      body: CreatePodRequest,
      bodyName: "CreatePodRequest",
      response: { status: 201, description: "Created", schemaName: "Pod" },
      errors: [400, 402, 404, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        return { status: 201, body: v2PodView(ctx, createV2Pod(v, acct, body)) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/pods/{id}",
      operationId: "getPod",
      tag: TAG,
      scope: "pods:read",
      summary: "Get a pod",
      response: { status: 200, description: "OK", schemaName: "Pod" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: v2PodView(ctx, podOf(account(accountId), params.id ?? "")) };
      },
    }),
    defineV2Operation({
      method: "PATCH",
      path: "/pods/{id}",
      operationId: "updatePod",
      tag: TAG,
      scope: "pods:write",
      summary: "Update a pod",
      body: UpdatePodRequest,
      bodyName: "UpdatePodRequest",
      response: { status: 200, description: "OK", schemaName: "Pod" },
      errors: [400, 404, 409, 422],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        return { status: 200, body: v2PodView(ctx, updateV2Pod(v, acct, podOf(acct, params.id ?? ""), body)) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/pods/{id}",
      operationId: "deletePod",
      tag: TAG,
      scope: "pods:write",
      summary: "Terminate a pod",
      response: { status: 204, description: "Deleted. Response has no body." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const pod = podOf(acct, params.id ?? "");
        markStopped(ctx, acct, pod, "Terminated");
        acct.pods.delete(pod.id);
        return { status: 204 };
      },
    }),
    defineV2Operation({
      method: "POST",
      path: "/pods/{id}/action",
      operationId: "podAction",
      tag: TAG,
      scope: "pods:write",
      summary: "Trigger a pod state transition",
      body: PodActionRequest,
      bodyName: "PodActionRequest",
      response: { status: 200, description: "Action applied — returns updated pod", schemaName: "Pod" },
      errors: [400, 402, 404, 409, 422],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const pod = podOf(acct, params.id ?? "");
        const status = podStatus(ctx, pod);
        const allowed = podActions(status, pod.locked);
        if (!allowed.includes(body.action)) throw actionConflict(pod, body.action, status, allowed);
        switch (body.action) {
          case "start":
            asConflict(() => reserveForStart(ctx, pod));
            markRunning(ctx, acct, pod, "Started");
            break;
          case "stop":
            markStopped(ctx, acct, pod, "Exited");
            break;
          case "restart":
            pod.lastStatusChange = statusEvent("Restarted", ctx.clock.now());
            boot(ctx, pod);
            break;
          case "terminate":
            markStopped(ctx, acct, pod, "Terminated");
            acct.pods.delete(pod.id);
            return { status: 204 };
        }
        return { status: 200, body: v2PodView(ctx, pod) };
      },
    }),
  ];
}

/** No capacity to start again on the pod's machine: the action does not fit now (409). */
function asConflict(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) throw new ProblemError(409, error.message, [`invalid action: ${error.message}`]);
    throw error;
  }
}
