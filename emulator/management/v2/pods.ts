/**
 * /api/v2/pods: the domain's pod commands (management/pods/) over the same records as /v1, read
 * from v2 requests (nested `gpu`/`cpu`, container settings, `mounts`) and answered in v2 shapes.
 */
import type { Operation } from "../../http/router";
import type { AccountData } from "../../state/model";
import { CreatePodRequest, ListPodsQuery, PodActionRequest, UpdatePodRequest } from "../../vocabulary/schemas/v2/requests";
import { requirePodCompute, versionsFrom } from "../compute";
import { podOf, requireDataCenters, requireImage, requireRegistry, requireTemplateOfKind } from "../lookup";
import { SPEND_CAP_STATUS } from "../account/limits";
import { standalonePodOf } from "../clusters/membership";
import { applyAction, terminatePod } from "../pods/actions";
import { POD_START_REFUSALS } from "../pods/lifecycle";
import { type PodCreateRules, type PodCreation, createPod } from "../pods/create";
import { type PodFields, updatePod } from "../pods/update";
import { byCreation } from "../lists";
import { listPage, type V2Context } from "./operation";
import { containerFieldsOf } from "./container";
import { CREATE_POD_BODY_LIMIT, checkExpandedBody } from "./podBodyLimit";
import { v2PodView } from "./podView";

const V2_POD_RULES: PodCreateRules = {
  keepTemplateLink: false,
  checkGlobalNetworking: true,
  access: "flags",
  unplaced: "invalid",
  placementWords: {
    gpuTypes: "gpu.id",
    gpuCount: "gpu.count",
    cpuTypes: "cpu.id",
    vcpuCount: "cpu.vcpuCount",
    dataCenters: "dataCenterIds",
    typeAdvice: "Choose another",
  },
};

/** `sent`: the body as the client sent it, which the template's expansion is measured on (podBodyLimit.ts). */
function creationOf(v: V2Context, account: AccountData, body: CreatePodRequest, sent: Readonly<Record<string, unknown>>): PodCreation {
  const { gpu, cpu } = body;
  requirePodCompute(gpu, cpu);
  requireDataCenters(body.dataCenterIds);
  if (body.registry) requireRegistry(account, body.registry);
  const template = body.templateId ? requireTemplateOfKind(v.ctx, account, body.templateId, "pod") : undefined;
  if (template) checkExpandedBody(sent, template, account.accountId);
  requireImage(body.image, template);
  return {
    name: body.name,
    template,
    computeType: cpu ? "CPU" : "GPU",
    // Placement filters: the host's share per GPU is at least these (gpu.vcpuCount, gpu.memory report it).
    gpu: {
      gpuTypeIds: gpu ? [gpu.id] : [],
      gpuCount: gpu?.count ?? 1,
      minVcpuPerGpu: gpu?.minVcpuCountPerGpu ?? 2,
      minRamPerGpu: gpu?.minRamPerGpu ?? 8,
    },
    cpuFlavorIds: cpu ? [cpu.id] : [],
    vcpuCount: cpu?.vcpuCount ?? 2,
    imageName: body.image,
    env: body.env ?? {},
    // "`ports` has no default on v2" (management-api-v2-today.md 6.1 #8): none without a template.
    ports: body.ports ?? (template ? undefined : []),
    containerDiskInGb: body.disk,
    command: body,
    containerRegistryAuthId: body.registry,
    storage: { mounts: body.mounts },
    cloudType: body.cloud,
    interruptible: false,
    dataCenterIds: body.dataCenterIds && body.dataCenterIds.length > 0 ? body.dataCenterIds : undefined,
    countryCodes: undefined,
    supportPublicIp: null,
    // Neither given: the template's (pods/create.ts), the body's fields overriding the template's.
    allowedCudaVersions: gpu?.minCudaVersion ? versionsFrom(gpu.minCudaVersion) : gpu?.allowedCudaVersions,
    globalNetworking: body.globalNetworking,
    locked: false,
    startSsh: body.startSsh,
    startJupyter: body.startJupyter,
  };
}

/** The record fields an UpdatePodRequest names, in v1's terms. */
function fieldsOf(body: UpdatePodRequest): PodFields {
  const fields: PodFields = body.name === undefined ? {} : { name: body.name };
  Object.assign(fields, containerFieldsOf(body));
  if (body.locked !== undefined) fields.locked = body.locked;
  return fields;
}

export function v2PodOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /pods", "listPods", "pods:read", "List pods"],
      { query: ListPodsQuery, paged: true, answer: [200, "ListPodsResponse"], errors: [422] },
      (call) => {
        const page = listPage(v, "listPods", call, call.account.pods.values(), byCreation);
        // "Cluster members are removed **after** the page is cut, so a page can hold fewer than
        // `limit` items" (management-api-v2-today.md 1.3); includeClusterPods keeps them.
        const pods = call.query.includeClusterPods ? page.items : page.items.filter((pod) => !pod.cluster);
        return { status: 200, body: { pods: pods.map((p) => v2PodView(ctx, p)), pagination: page.pagination } };
      },
    ),
    route(
      ["POST /pods", "createPod", "pods:write", "Create a pod"],
      {
        body: ["CreatePodRequest", CreatePodRequest],
        bodyLimit: CREATE_POD_BODY_LIMIT,
        answer: [201, "Pod"],
        errors: [400, 404, 422, SPEND_CAP_STATUS],
      },
      ({ account, body, sentBody }) => ({
        status: 201,
        body: v2PodView(ctx, createPod(ctx, account, creationOf(v, account, body, sentBody), V2_POD_RULES)),
      }),
    ),
    route(["GET /pods/{id}", "getPod", "pods:read", "Get a pod"], { answer: [200, "Pod"], errors: [404] }, ({ account, id }) => ({
      status: 200,
      body: v2PodView(ctx, podOf(account, id)),
    })),
    route(
      ["PATCH /pods/{id}", "updatePod", "pods:write", "Update a pod"],
      { body: ["UpdatePodRequest", UpdatePodRequest], answer: [200, "Pod"], errors: [400, 404, 409, 422] },
      ({ account, id, body }) => {
        const target = standalonePodOf(account, id, "updated");
        const template = body.templateId ? requireTemplateOfKind(ctx, account, body.templateId, "pod") : undefined;
        if (body.registry) requireRegistry(account, body.registry);
        const change = {
          fields: fieldsOf(body),
          template,
          command: body,
          mounts: body.mounts,
          globalNetworkingAtNextStart: body.globalNetworking,
        };
        return { status: 200, body: v2PodView(ctx, updatePod(ctx, account, target, change)) };
      },
    ),
    route(["DELETE /pods/{id}", "deletePod", "pods:write", "Terminate a pod"], { answer: [204], errors: [404, 409] }, ({ account, id }) => {
      terminatePod(ctx, account, standalonePodOf(account, id, "deleted"));
      return { status: 204 };
    }),
    route(
      ["POST /pods/{id}/action", "podAction", "pods:write", "Trigger a pod state transition"],
      {
        body: ["PodActionRequest", PodActionRequest],
        answer: [200, "Pod", "Action applied — returns updated pod"],
        noContent: "Only returned when `action=terminate`; response has no body.",
        errors: [400, 404, 422, ...POD_START_REFUSALS],
      },
      ({ account, id, body }) => {
        const target = standalonePodOf(account, id, `sent the action ${JSON.stringify(body.action)}`);
        applyAction(ctx, account, target, body.action);
        return body.action === "terminate" ? { status: 204 } : { status: 200, body: v2PodView(ctx, target) };
      },
    ),
  ];
}
