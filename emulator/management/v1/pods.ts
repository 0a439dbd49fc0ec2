/**
 * /v1/pods: create, list with filters (serverless workers too), get with include* flags, update
 * (PATCH and POST .../update), start / stop / reset / restart, delete. The commands are the
 * domain's (management/pods/); this file reads /v1 requests into them and answers in /v1 shapes.
 */
import { type Operation, defineOperation } from "../../http/router";
import type { AccountData, PodRecord } from "../../state/model";
import { POD_CREATE_ONLY_HINTS, PodCreateInput, PodGetQuery, PodListQuery, PodUpdateInput } from "../../vocabulary/schemas/pod";
import type { Pod } from "../../vocabulary/schemas/wire";
import type { ManagementContext } from "../context";
import { endpointSpec } from "../endpoints/spec";
import { notFound } from "../errors";
import { standalonePodOf } from "../clusters/membership";
import { requireTemplate } from "../lookup";
import { V1_PLACEMENT_WORDS } from "../placement";
import { resetPod, restartPod, startPod, stopPod, terminatePod } from "../pods/actions";
import { POD_START_REFUSALS } from "../pods/lifecycle";
import { type PodCreateRules, type PodCreation, createPod } from "../pods/create";
import { type PodFields, updatePod } from "../pods/update";
import { type PodIncludes, podView, workerPodView } from "./podView";

/** /v1 keeps the template link and injects the platform's key; it never checked global networking. */
const V1_POD_RULES: PodCreateRules = {
  keepTemplateLink: true,
  checkGlobalNetworking: false,
  access: "platform",
  unplaced: "conflict",
  placementWords: V1_PLACEMENT_WORDS,
};

function creationOf(ctx: ManagementContext, account: AccountData, body: PodCreateInput): PodCreation {
  return {
    name: body.name,
    template: body.templateId ? requireTemplate(ctx, account, body.templateId) : undefined,
    computeType: body.computeType,
    gpu: { gpuTypeIds: body.gpuTypeIds ?? [], gpuCount: body.gpuCount, minVcpuPerGpu: body.minVCPUPerGPU, minRamPerGpu: body.minRAMPerGPU },
    cpuFlavorIds: body.cpuFlavorIds ?? [],
    vcpuCount: body.vcpuCount,
    imageName: body.imageName,
    env: body.env ?? {},
    ports: body.ports,
    containerDiskInGb: body.containerDiskInGb ?? undefined,
    command: { entrypoint: body.dockerEntrypoint, cmd: body.dockerStartCmd },
    containerRegistryAuthId: body.containerRegistryAuthId,
    storage: {
      volumeInGb: body.volumeInGb ?? undefined,
      volumeMountPath: body.volumeMountPath,
      networkVolumeId: body.networkVolumeId ?? undefined,
    },
    cloudType: body.cloudType,
    interruptible: body.interruptible,
    dataCenterIds: body.dataCenterIds,
    countryCodes: body.countryCodes,
    minDownloadMbps: body.minDownloadMbps,
    minUploadMbps: body.minUploadMbps,
    minDiskBandwidthMBps: body.minDiskBandwidthMBps,
    supportPublicIp: body.supportPublicIp ?? null,
    allowedCudaVersions: body.allowedCudaVersions ?? [],
    globalNetworking: body.globalNetworking,
    locked: body.locked,
  };
}

/** The fields a PATCH sets: null for the disk sizes means "not given" (the schema marks them nullable); a null registry clears it. */
function fieldsOf(body: PodUpdateInput): PodFields {
  const fields: PodFields = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || (value === null && key !== "containerRegistryAuthId")) continue;
    Object.assign(fields, { [key]: value });
  }
  return fields;
}

/** What the list filters look at, for pods and workers alike. */
interface PodFacts {
  id: string;
  name: string;
  computeType: "GPU" | "CPU";
  cpuFlavorId: string | null;
  dataCenterId: string;
  desiredStatus: string;
  endpointId: string | null;
  gpuTypeId: string | null;
  imageName: string;
  networkVolumeId: string | null;
  templateId: string | null;
}

function matches(facts: PodFacts, q: PodListQuery): boolean {
  return (
    (q.computeType === undefined || facts.computeType === q.computeType) &&
    (q.cpuFlavorId === undefined || (facts.cpuFlavorId !== null && q.cpuFlavorId.includes(facts.cpuFlavorId))) &&
    (q.dataCenterId === undefined || q.dataCenterId.includes(facts.dataCenterId)) &&
    (q.desiredStatus === undefined || facts.desiredStatus === q.desiredStatus) &&
    (q.endpointId === undefined || facts.endpointId === q.endpointId) &&
    (q.gpuTypeId === undefined || (facts.gpuTypeId !== null && q.gpuTypeId.includes(facts.gpuTypeId))) &&
    (q.id === undefined || facts.id === q.id) &&
    (q.imageName === undefined || facts.imageName === q.imageName) &&
    (q.name === undefined || facts.name === q.name) &&
    (q.networkVolumeId === undefined || facts.networkVolumeId === q.networkVolumeId) &&
    (q.templateId === undefined || facts.templateId === q.templateId)
  );
}

/** Serverless workers of the account as (facts, pod view) pairs. */
function workerPods(ctx: ManagementContext, account: AccountData, include: PodIncludes, endpointId?: string): Array<[PodFacts, Pod]> {
  const out: Array<[PodFacts, Pod]> = [];
  for (const endpoint of account.endpoints.values()) {
    if (endpointId !== undefined && endpoint.id !== endpointId) continue;
    const spec = endpointSpec(ctx, endpoint);
    for (const worker of ctx.serverless.workers(endpoint.id)) {
      const view = workerPodView(ctx, spec, worker, include);
      const facts: PodFacts = {
        id: worker.id,
        name: view.name,
        computeType: spec.computeType,
        cpuFlavorId: null,
        dataCenterId: worker.dataCenterId,
        desiredStatus: "RUNNING",
        endpointId: endpoint.id,
        gpuTypeId: worker.gpuTypeId,
        imageName: spec.imageName,
        networkVolumeId: endpoint.networkVolumeId,
        templateId: endpoint.templateId,
      };
      out.push([facts, view]);
    }
  }
  return out;
}

export function podOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);
  const noIncludes: PodIncludes = {
    includeMachine: false,
    includeNetworkVolume: false,
    includeSavingsPlans: false,
    includeTemplate: false,
  };

  const update = (path: string, method: "PATCH" | "POST", operationId: string) =>
    defineOperation({
      method,
      path,
      operationId,
      tag: "pods",
      summary: method === "PATCH" ? "Update a Pod, potentially triggering a reset" : "Update a Pod (synonym of PATCH)",
      body: PodUpdateInput,
      bodyName: "PodUpdateInput",
      unknownFieldHints: POD_CREATE_ONLY_HINTS,
      response: { status: 200, description: "The updated pod.", schemaName: "Pod" },
      errors: [400, 404, 409],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const pod = updatePod(ctx, acct, standalonePodOf(acct, params.podId ?? "", "updated"), { fields: fieldsOf(body) });
        return { status: 200, body: podView(ctx, acct, pod, noIncludes) };
      },
    });

  const action = (name: "start" | "stop" | "reset" | "restart", summary: string, act: (acct: AccountData, pod: PodRecord) => void) =>
    defineOperation({
      method: "POST",
      path: `/pods/{podId}/${name}`,
      operationId: `${name[0]?.toUpperCase()}${name.slice(1)}Pod`,
      tag: "pods",
      summary,
      response: { status: 200, description: "The pod after the action.", schemaName: "Pod" },
      // 409: no capacity to start on (start, restart), or a cluster's member (every action); 402: the spend cap (start, restart).
      errors: name === "start" || name === "restart" ? [400, 404, ...POD_START_REFUSALS] : [400, 404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const pod = standalonePodOf(acct, params.podId ?? "", `sent ${name}`);
        act(acct, pod);
        return { status: 200, body: podView(ctx, acct, pod, noIncludes) };
      },
    });

  return [
    defineOperation({
      method: "POST",
      path: "/pods",
      operationId: "CreatePod",
      tag: "pods",
      summary: "Create a new Pod and deploy it",
      body: PodCreateInput,
      bodyName: "PodCreateInput",
      response: { status: 201, description: "The created pod (booting: no public IP yet).", schemaName: "Pod" },
      errors: [400, 404, ...POD_START_REFUSALS],
      handle({ accountId, body }) {
        const acct = account(accountId);
        return { status: 201, body: podView(ctx, acct, createPod(ctx, acct, creationOf(ctx, acct, body), V1_POD_RULES), noIncludes) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/pods",
      operationId: "ListPods",
      tag: "pods",
      summary: "List Pods (serverless workers too with includeWorkers=true or endpointId)",
      query: PodListQuery,
      response: { status: 200, description: "Matching pods, oldest first.", schemaName: "Pod", array: true },
      errors: [400],
      handle({ accountId, query }) {
        const acct = account(accountId);
        const out: Pod[] = [];
        for (const pod of ctx.visibility.listed(acct.pods.values())) {
          // /v1 has no clusters: their members are managed through /api/v2/clusters and left out here.
          if (pod.cluster) continue;
          const facts: PodFacts = { ...pod, endpointId: null };
          if (matches(facts, query)) out.push(podView(ctx, acct, pod, query));
        }
        if (query.includeWorkers || query.endpointId !== undefined) {
          for (const [facts, view] of workerPods(ctx, acct, query, query.endpointId)) if (matches(facts, query)) out.push(view);
        }
        return { status: 200, body: out };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/pods/{podId}",
      operationId: "GetPod",
      tag: "pods",
      summary: "Find a Pod by ID",
      query: PodGetQuery,
      response: { status: 200, description: "The pod.", schemaName: "Pod" },
      errors: [400, 404],
      handle({ accountId, params, query }) {
        const acct = account(accountId);
        const id = params.podId ?? "";
        const pod = acct.pods.get(id);
        if (pod) return { status: 200, body: podView(ctx, acct, pod, query) };
        if (query.includeWorkers) {
          const worker = workerPods(ctx, acct, query).find(([facts]) => facts.id === id);
          if (worker) return { status: 200, body: worker[1] };
        }
        throw notFound("pod");
      },
    }),
    update("/pods/{podId}", "PATCH", "UpdatePod"),
    update("/pods/{podId}/update", "POST", "UpdatePodPost"),
    defineOperation({
      method: "DELETE",
      path: "/pods/{podId}",
      operationId: "DeletePod",
      tag: "pods",
      summary: "Delete (terminate) a Pod",
      response: { status: 204, description: "Deleted." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        terminatePod(ctx, acct, standalonePodOf(acct, params.podId ?? "", "deleted"));
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
    action("start", "Start or resume a Pod (409 when its machine has no free capacity)", (acct, pod) => startPod(ctx, acct, pod)),
    action("stop", "Stop a Pod (refused while locked)", (acct, pod) => stopPod(ctx, acct, pod)),
    action("reset", "Reset a Pod: the container restarts and its disk is wiped (refused while locked)", (_acct, pod) => resetPod(ctx, pod)),
    action("restart", "Restart a Pod (starts it when stopped)", (acct, pod) => restartPod(ctx, acct, pod)),
  ];
}
