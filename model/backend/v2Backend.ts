// The management port (port.ts: the calls the resources make, in the provider's field names) on
// the service's v2 API. Each field travels through its table row's `v2` column (fields/wireV2.ts);
// this file adds only what one field cannot say alone: a pod's GPU-or-CPU choice and its mounts,
// an endpoint's scaling pair, CPU list and GPU pools (from the catalog), and the v2 calls that have
// no v1 twin (pod actions, workers, releases). What is one kind's own lives in its folder: the pod's
// create body and actions (model/kinds/pod/), the endpoint's PATCH rules (model/kinds/endpoint/).

import { ConflictError, isAmbiguousFailure } from "../../client/errors";
import { PodSchema, EndpointSchema, TemplateSchema, NetworkVolumeSchema, ContainerRegistryAuthSchema } from "../../client/schemas";
import type {
  ContainerRegistryAuth,
  ContainerRegistryAuthCreateInput,
  Endpoint,
  EndpointCreateInput,
  EndpointInclude,
  EndpointUpdateInput,
  NetworkVolume,
  NetworkVolumeCreateInput,
  NetworkVolumeUpdateInput,
  Pod,
  PodCreateInput,
  PodListFilter,
  PodUpdateInput,
  Template,
  TemplateCreateInput,
  TemplateUpdateInput,
} from "../../client/schemas";
import type { EndpointTypeInput } from "../../client/management";
import type { ManagementClientV2, PodActionV2, SecretsV2 } from "../../client/managementV2";
import type { AccountLimitsV2, EndpointV2, PodV2 } from "../../client/schemasV2";
import { IncompleteCreateError, type ManagementApi, type RolloutState } from "./port";
import { endpointTable } from "../kinds/endpoint/endpointFields";
import { networkVolumeTable } from "../kinds/networkVolume/networkVolumeFields";
import { podTable } from "../kinds/pod/podFields";
import { registryAuthTable } from "../kinds/registryAuth/registryAuthFields";
import { templateTable } from "../kinds/template/templateFields";
import { isRecord, messageOf, type Props } from "../fields/values";
import { fromWireV2, persistentMount, podMounts, setDefault, toWireV2, wireRequest } from "../fields/wireV2";
import { podCreateBodyV2 } from "../kinds/pod/podBodyV2";
import { actionDone, chooseAction, isBooting } from "../kinds/pod/podActionsV2";
import {
  checkExclusionsKept,
  clearOtherCudaField,
  dropIdleTimeoutWhereRefused,
  ENDPOINT_TIMEOUT_DEFAULT_MS,
  explainCpuPatchDefect,
  restateSelection,
  wrongEndpointType,
} from "../kinds/endpoint/endpointBodyV2";
import { readsOf, type KindReads, type SharingOptions } from "./sharedReads";
import type { CatalogLists } from "../cost/priceSheet";

/** The v2 lists carry every field their gets do: reads can share them (sharedReads.ts). */
type Reads<C> = C extends { get(id: string): Promise<infer T extends { id: string }> } ? KindReads<T> : never;

export class V2Backend implements ManagementApi {
  readonly deleteTerminatesWorkers = true;
  /** The account secrets calls, in v2's own shapes (their fields are the provider's names). */
  readonly secrets: SecretsV2;
  readonly #v2: ManagementClientV2;
  #gpuCatalog: ReturnType<ManagementClientV2["gpuTypes"]> | undefined;
  readonly #pods: Reads<ManagementClientV2["pods"]>;
  readonly #endpoints: Reads<ManagementClientV2["endpoints"]>;
  readonly #templates: Reads<ManagementClientV2["templates"]>;
  readonly #networkVolumes: Reads<ManagementClientV2["networkVolumes"]>;
  readonly #registries: Reads<ManagementClientV2["registries"]>;

  /** `shareReads`: serve reads of one kind that arrive together by one list call (the provider process does). */
  constructor(client: ManagementClientV2, options: { shareReads?: SharingOptions | false } = {}) {
    this.#v2 = client;
    this.secrets = client.secrets;
    const sharing = options.shareReads ?? false;
    const reads = <T extends { id: string }>(collection: { list(): Promise<T[]>; get(id: string): Promise<T> }): KindReads<T> =>
      readsOf({ list: () => collection.list(), get: (id) => collection.get(id) }, sharing);
    this.#pods = reads(client.pods);
    this.#endpoints = reads(client.endpoints);
    this.#templates = reads(client.templates);
    this.#networkVolumes = reads(client.networkVolumes);
    this.#registries = reads(client.registries);
  }

  // ---- pods ------------------------------------------------------------------------------------

  async createPod(input: PodCreateInput): Promise<Pod> {
    const { locked, ...fields } = fieldsOf(input);
    const body = podCreateBodyV2(podTable, fields);
    // A pod runs where its network volume is, but the reference does not say the service places a
    // pod there by itself (CreatePodRequest.dataCenterIds: "Omit [...] to let the scheduler
    // choose"): one that names no data center is sent the volume's.
    const volumeId = fields["networkVolumeId"];
    if (typeof volumeId === "string" && !Array.isArray(body["dataCenterIds"])) {
      const { dataCenter } = await this.#networkVolumes.read(volumeId);
      if (dataCenter !== undefined) body["dataCenterIds"] = [dataCenter];
    }
    const pod = await this.#v2.pods.create(wireRequest<"createPod">(body));
    // v2 creates take no lock: it is set right after. The pod exists (and bills) whatever that answers.
    if (locked !== true) return podOf(pod);
    try {
      return podOf(await this.#v2.pods.update(pod.id, { locked: true }));
    } catch (error) {
      throw new IncompleteCreateError(podOf(pod), `pod ${pod.id} was created, but locking it failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async listPods(filter?: PodListFilter): Promise<Pod[]> {
    // v2 lists take no filters: the ones the resources use are applied here.
    const pods = (await this.#pods.list()).map(podOf);
    return pods.filter(
      (p) =>
        (filter?.name === undefined || p.name === filter.name) &&
        (filter?.templateId === undefined || p.templateId === filter.templateId) &&
        (filter?.networkVolumeId === undefined || p.networkVolumeId === filter.networkVolumeId),
    );
  }

  async getPod(id: string): Promise<Pod> {
    return podOf(await this.#pods.read(id));
  }

  async updatePod(id: string, input: PodUpdateInput): Promise<Pod> {
    const fields = fieldsOf(input);
    const body = toWireV2(podTable, fields);
    const touchesMounts = fields["volumeInGb"] !== undefined || fields["volumeMountPath"] !== undefined;
    podMounts(body, fields, touchesMounts ? await this.#pods.read(id) : undefined);
    const pod = await this.#v2.pods.update(id, wireRequest<"updatePod">(body));
    // UpdatePodRequest.globalNetworking "Takes effect on the next pod start/restart, not live": a
    // running pod is restarted so that the declared networking is what it has (readiness waits for it).
    // A pod this PATCH reset (an image or env change beside it) is booting with the networking it
    // had, and a booting pod takes no restart (podAction: PROVISIONING and STARTING allow stop and
    // terminate): it is stopped and started, its next start.
    const networking = fields["globalNetworking"];
    if (
      typeof networking === "boolean" &&
      pod.status !== "EXITED" &&
      pod.status !== "ERROR" &&
      pod.globalNetworking?.enabled !== networking
    ) {
      if (isBooting(pod.status)) {
        await this.#podAction(id, "stop");
        await this.#podAction(id, "start");
      } else await this.#podAction(id, "restart");
      return podOf(await this.#v2.pods.get(id));
    }
    return podOf(pod);
  }

  async deletePod(id: string): Promise<void> {
    return this.#v2.pods.delete(id);
  }

  async startPod(id: string): Promise<void> {
    await this.#podAction(id, "start");
  }

  async stopPod(id: string): Promise<void> {
    await this.#podAction(id, "stop");
  }

  /** A pod that is not running is started instead (a restart trigger asks for a fresh container either way). */
  async restartPod(id: string): Promise<void> {
    await this.#podAction(id, "restart");
  }

  /**
   * One pod action, chosen from what the pod's `actions` allows now (podAction: "Which actions are
   * valid depends on the pod's current status [...] published in the pod's `actions` field"; any
   * other is a 409). An action that failed without an answer, or answered 409 (a repeat of one
   * that went through), is never sent again blindly: the pod is read and its status decides.
   */
  async #podAction(id: string, wanted: PodActionV2): Promise<void> {
    const pod = await this.#v2.pods.get(id);
    const action = chooseAction(wanted, pod);
    if (action === undefined) return;
    try {
      await this.#v2.podAction(id, action);
    } catch (error) {
      if (!(error instanceof ConflictError) && !isAmbiguousFailure(error)) throw error;
      const after = await this.#v2.pods.get(id);
      if (actionDone(action, pod, after)) return;
      throw error;
    }
  }

  async resetPod(id: string): Promise<void> {
    // check refuses resetTrigger on v2; this is only reached by a caller that skipped it.
    throw new Error(`pod ${id}: the service's v2 API has no reset; restart the pod, or replace it for a fresh disk`);
  }

  // ---- endpoints -------------------------------------------------------------------------------

  async createEndpoint(input: EndpointCreateInput & EndpointTypeInput & { env?: Record<string, string> }): Promise<Endpoint> {
    const fields = fieldsOf(input);
    const body = await this.#endpointBody(fields, undefined);
    body["type"] ??= "QUEUE";
    body["scaling"] ??= { type: "QUEUE_DELAY", queueDelay: 4 };
    if (fields["computeType"] === "CPU") delete body["gpu"];
    else {
      delete body["cpu"];
      // v2 chooses GPUs by pool: no types declared means every pool.
      if (!isRecord(body["gpu"]) || body["gpu"]["pools"] === undefined)
        setDefault(body, "gpu", "pools", [...new Set((await this.#gpuPools()).values())]);
    }
    // management-api-v2-today.md 6.1 #7: an endpoint created without `timeout` came back with 0
    // (documented default 300000 ms): always send it.
    body["timeout"] ??= ENDPOINT_TIMEOUT_DEFAULT_MS;
    // The endpoint's own env: on v2 it holds the owner's marker (merged per key over a template's env).
    if (isRecord(fields["env"])) body["env"] = fields["env"];
    dropIdleTimeoutWhereRefused(body, body["type"]);
    const created = await this.#v2.endpoints.create(wireRequest<"createEndpoint">(body));
    // 6.1 #5: an older host had no `type` and silently made QUEUE endpoints: compare and fail
    // loudly, after deleting the endpoint of the wrong type (it would bill, and is not the one declared).
    if (created.type !== body["type"]) {
      const deleted = await this.#v2.endpoints.delete(created.id).then(
        () => true,
        () => false,
      );
      const error = wrongEndpointType(created, body["type"], deleted);
      // Not deleted, it bills: recorded in the stack, the next up replaces it.
      throw deleted ? error : new IncompleteCreateError(endpointOf(created), error.message);
    }
    return endpointOf(created);
  }

  async listEndpoints(): Promise<Endpoint[]> {
    return (await this.#endpoints.list()).map((e) => endpointOf(e));
  }

  async getEndpoint(id: string, include?: EndpointInclude): Promise<Endpoint> {
    const endpoint = await this.#endpoints.read(id);
    if (include?.includeWorkers !== true) return endpointOf(endpoint);
    // Workers (no list form: one call per endpoint) as the readiness code reads them: up unless
    // initializing, throttled or unhealthy.
    const workers = (await this.#v2.endpointWorkers(id)).map((w) => ({
      id: w.id,
      desiredStatus: "RUNNING",
      lastStatusChange: w.status.toLowerCase(),
    }));
    return endpointOf(endpoint, workers);
  }

  /**
   * A PATCH as the live service needs it (management-api-v2-today.md 6.1 #1-#3): the endpoint is read
   * first, since its family and selection decide the body. A CPU endpoint's PATCH never carries
   * `gpu`; a GPU endpoint's restates `pools` and `excludedTypes` whenever the selection has
   * exclusions (a PATCH without them erased the exclusions on the live service), and the answer is
   * checked: exclusions that did not survive fail the update, naming the defect.
   */
  async updateEndpoint(id: string, input: EndpointUpdateInput & EndpointTypeInput): Promise<Endpoint> {
    const { type: _fixedType, computeType: _fixedCompute, ...fields } = fieldsOf(input);
    const current = await this.#endpoints.read(id);
    const body = await this.#endpointBody(fields, current);
    dropIdleTimeoutWhereRefused(body, current.type, body["scaling"] ?? current.scaling);
    const isCpu = Array.isArray(current.cpu) && current.cpu.length > 0;
    if (isCpu) delete body["gpu"];
    else restateSelection(body, current);
    clearOtherCudaField(body);
    const updated = await this.#v2.endpoints.update(id, wireRequest<"updateEndpoint">(body)).catch((error: unknown) => {
      throw isCpu ? explainCpuPatchDefect(id, error) : error;
    });
    if (!isCpu) checkExclusionsKept(id, body, updated);
    return endpointOf(updated);
  }

  async deleteEndpoint(id: string): Promise<void> {
    return this.#v2.endpoints.delete(id);
  }

  async endpointRollout(id: string): Promise<RolloutState> {
    return this.#v2.endpointRollout(id);
  }

  // ---- templates, network volumes, registry credentials -----------------------------------------

  async createTemplate(input: TemplateCreateInput): Promise<Template> {
    const body = toWireV2(templateTable, fieldsOf(input));
    persistentMount(body, undefined);
    return TemplateSchema.parse(fromWireV2(templateTable, await this.#v2.templates.create(wireRequest<"createTemplate">(body))));
  }

  async listTemplates(): Promise<Template[]> {
    return (await this.#templates.list()).map((t) => TemplateSchema.parse(fromWireV2(templateTable, t)));
  }

  async getTemplate(id: string): Promise<Template> {
    return TemplateSchema.parse(fromWireV2(templateTable, await this.#templates.read(id)));
  }

  async updateTemplate(id: string, input: TemplateUpdateInput): Promise<Template> {
    const body = toWireV2(templateTable, fieldsOf(input));
    if (isRecord(body["mounts"])) persistentMount(body, await this.#templates.read(id));
    return TemplateSchema.parse(fromWireV2(templateTable, await this.#v2.templates.update(id, wireRequest<"updateTemplate">(body))));
  }

  async deleteTemplate(id: string): Promise<void> {
    return this.#v2.templates.delete(id);
  }

  async createNetworkVolume(input: NetworkVolumeCreateInput): Promise<NetworkVolume> {
    return volumeOf(
      await this.#v2.networkVolumes.create(wireRequest<"createNetworkVolume">(toWireV2(networkVolumeTable, fieldsOf(input)))),
    );
  }

  async listNetworkVolumes(): Promise<NetworkVolume[]> {
    return (await this.#networkVolumes.list()).map(volumeOf);
  }

  async getNetworkVolume(id: string): Promise<NetworkVolume> {
    return volumeOf(await this.#networkVolumes.read(id));
  }

  async updateNetworkVolume(id: string, input: NetworkVolumeUpdateInput): Promise<NetworkVolume> {
    return volumeOf(
      await this.#v2.networkVolumes.update(id, wireRequest<"updateNetworkVolume">(toWireV2(networkVolumeTable, fieldsOf(input)))),
    );
  }

  async deleteNetworkVolume(id: string): Promise<void> {
    return this.#v2.networkVolumes.delete(id);
  }

  async createRegistryAuth(input: ContainerRegistryAuthCreateInput): Promise<ContainerRegistryAuth> {
    return ContainerRegistryAuthSchema.parse(
      await this.#v2.registries.create(wireRequest<"createRegistry">(toWireV2(registryAuthTable, fieldsOf(input)))),
    );
  }

  async listRegistryAuths(): Promise<ContainerRegistryAuth[]> {
    return (await this.#registries.list()).map((r) => ContainerRegistryAuthSchema.parse(r));
  }

  async getRegistryAuth(id: string): Promise<ContainerRegistryAuth> {
    return ContainerRegistryAuthSchema.parse(await this.#registries.read(id));
  }

  async deleteRegistryAuth(id: string): Promise<void> {
    return this.#v2.registries.delete(id);
  }

  // ---- account (v2 only: no ManagementApi twin) ---------------------------------------------------

  /** The account's registered SSH public keys (AccountSshKeys). */
  async sshKeys(): Promise<string[]> {
    return this.#v2.sshKeys();
  }

  async replaceSshKeys(keys: readonly string[]): Promise<string[]> {
    return this.#v2.replaceSshKeys(keys);
  }

  async accountLimits(): Promise<AccountLimitsV2> {
    return this.#v2.accountLimits();
  }

  // ---- composition -----------------------------------------------------------------------------

  /** The endpoint fields one row cannot map alone: GPU pools, the CPU list, scaling, volumes. */
  async #endpointBody(fields: Props, current: EndpointV2 | undefined): Promise<Props> {
    const body = toWireV2(endpointTable, fields);
    const gpu = body["gpu"];
    if (isRecord(gpu) && "types" in gpu) {
      const { types, ...rest } = gpu;
      body["gpu"] = { ...rest, ...(await this.#gpuSelection(Array.isArray(types) ? types.map(String) : [])) };
    }
    const scaling = body["scaling"];
    if (isRecord(scaling)) {
      const type = scaling["type"] ?? current?.scaling?.type ?? "QUEUE_DELAY";
      const value = scaling["value"] ?? current?.scaling?.queueDelay ?? current?.scaling?.requestCount ?? 4;
      body["scaling"] = type === "REQUEST_COUNT" ? { type, requestCount: value } : { type, queueDelay: value };
    }
    if (fields["cpuFlavorIds"] !== undefined || fields["vcpuCount"] !== undefined) {
      const ids = (fields["cpuFlavorIds"] as string[] | undefined) ?? current?.cpu?.map((c) => c.id) ?? [];
      const vcpuCount = fields["vcpuCount"] ?? current?.cpu?.[0]?.vcpuCount ?? 2;
      if (ids.length > 0) body["cpu"] = ids.map((id) => ({ id, vcpuCount }));
    }
    if (fields["networkVolumeId"] !== undefined || fields["networkVolumeIds"] !== undefined) {
      const one = typeof fields["networkVolumeId"] === "string" ? [fields["networkVolumeId"]] : [];
      // networkVolumeId removed (null, its reset) alone: the live volumes but the first, which it read as.
      const rest =
        fields["networkVolumeId"] === null && fields["networkVolumeIds"] === undefined
          ? (current?.networkVolumes ?? []).slice(1)
          : ((fields["networkVolumeIds"] as string[] | null | undefined) ?? []);
      body["networkVolumes"] = [...new Set([...one, ...rest])];
    }
    return body;
  }

  /** GPU types as v2's selection: the pools they belong to, minus the pools' other types. */
  async #gpuSelection(types: readonly string[]): Promise<{ pools: string[]; excludedTypes?: string[] }> {
    const poolOf = await this.#gpuPools();
    const pools = [...new Set(types.map((t) => poolOf.get(t)).filter((p): p is string => p !== undefined))];
    const unknown = types.filter((t) => !poolOf.has(t));
    if (unknown.length > 0)
      throw new Error(
        `GPU types ${unknown.map((t) => JSON.stringify(t)).join(", ")} are not in the service's catalog of serverless pools; see getGpuTypes for the ids`,
      );
    const excludedTypes = [...poolOf].filter(([id, pool]) => pools.includes(pool) && !types.includes(id)).map(([id]) => id);
    return excludedTypes.length > 0 ? { pools, excludedTypes } : { pools };
  }

  /** The catalog's GPU types and CPU flavors with their list prices (cost estimates read them once). */
  async catalogLists(): Promise<CatalogLists> {
    const [gpus, cpus] = await Promise.all([this.#gpuTypes(), this.#v2.cpuTypes()]);
    return { gpus, cpus };
  }

  /** GPU type id -> serverless pool. */
  async #gpuPools(): Promise<ReadonlyMap<string, string>> {
    return new Map((await this.#gpuTypes()).filter((g) => g.pool).map((g) => [g.id, g.pool as string]));
  }

  /** The catalog's GPU types, read once per backend (for pools and for prices alike). */
  #gpuTypes(): ReturnType<ManagementClientV2["gpuTypes"]> {
    this.#gpuCatalog ??= this.#v2.gpuTypes();
    // A failed read is not kept: the next call tries again.
    this.#gpuCatalog.catch(() => (this.#gpuCatalog = undefined));
    return this.#gpuCatalog;
  }
}

function podOf(wire: PodV2): Pod {
  // `status` is kept beside desiredStatus: readiness tells PROVISIONING and ERROR apart from it.
  return PodSchema.parse({ ...fromWireV2(podTable, wire), status: wire.status });
}

function endpointOf(wire: EndpointV2, workers?: readonly Props[]): Endpoint {
  // env is no field of the table: it is kept for the owner's marker (provider/resources/ownership.ts).
  return EndpointSchema.parse({
    ...fromWireV2(endpointTable, wire),
    ...(wire.env ? { env: wire.env } : {}),
    ...(workers ? { workers } : {}),
  });
}

function volumeOf(wire: Props): NetworkVolume {
  return NetworkVolumeSchema.parse(fromWireV2(networkVolumeTable, wire));
}

/** An input type's fields as a property bag. */
function fieldsOf(input: object): Props {
  return Object.fromEntries(Object.entries(input));
}
