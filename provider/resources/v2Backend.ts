// The v2 backend: the management calls the resources make (ManagementApi, in the provider's field
// names) carried out on the service's v2 API. Each field travels through its table row's `v2`
// column (wireV2.ts); this file adds only what one field cannot say alone: a pod's GPU-or-CPU
// choice and its mounts, an endpoint's scaling pair, CPU list and GPU pools (from the catalog),
// and the v2 calls that have no v1 twin (pod actions, workers, releases).

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
import type { CollectionV2, ManagementClientV2, SecretsV2 } from "../../client/managementV2";
import type { AccountLimitsV2, EndpointV2, PodV2 } from "../../client/schemasV2";
import type { ManagementApi, RolloutState } from "./deps";
import { endpointTable } from "./endpointFields";
import { networkVolumeTable } from "./networkVolumeFields";
import { podTable } from "./podFields";
import { registryAuthTable } from "./registryAuthFields";
import { templateTable } from "./templateFields";
import { isRecord, type Props } from "./values";
import { fromWireV2, getPath, toWireV2 } from "./wireV2";
import { readsOf, type KindReads, type SharingOptions } from "./sharedReads";
import type { CatalogLists } from "../cost/priceSheet";

const DEFAULT_MOUNT_PATH = "/workspace";

/** The v2 lists carry every field their gets do: reads can share them (sharedReads.ts). */
type Reads<C> = C extends CollectionV2<infer T extends { id: string }> ? KindReads<T> : never;

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
    const reads = <T extends { id: string }>(collection: CollectionV2<T>): KindReads<T> => readsOf({ list: () => collection.list(), get: (id) => collection.get(id) }, sharing);
    this.#pods = reads(client.pods);
    this.#endpoints = reads(client.endpoints);
    this.#templates = reads(client.templates);
    this.#networkVolumes = reads(client.networkVolumes);
    this.#registries = reads(client.registries);
  }

  // ---- pods ------------------------------------------------------------------------------------

  async createPod(input: PodCreateInput): Promise<Pod> {
    const { locked, ...fields } = fieldsOf(input);
    const body = toWireV2(podTable, fields);
    const compute = fields["computeType"] ?? "GPU";
    if (compute === "CPU") delete body["gpu"];
    else {
      delete body["cpu"];
      // A GPU pod created without a count matched no machine on the live service: always send it.
      setDefault(body, "gpu", "count", 1);
    }
    podMounts(body, fields, undefined);
    let pod = await this.#v2.pods.create(body);
    // v2 creates take no lock: it is set right after.
    if (locked === true) pod = await this.#v2.pods.update(pod.id, { locked: true });
    return podOf(pod);
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
    return podOf(await this.#v2.pods.update(id, body));
  }

  async deletePod(id: string): Promise<void> {
    return this.#v2.pods.delete(id);
  }

  async startPod(id: string): Promise<void> {
    await this.#v2.podAction(id, "start");
  }

  async stopPod(id: string): Promise<void> {
    await this.#v2.podAction(id, "stop");
  }

  async restartPod(id: string): Promise<void> {
    await this.#v2.podAction(id, "restart");
  }

  async resetPod(id: string): Promise<void> {
    // check refuses resetTrigger on v2; this is only reached by a caller that skipped it.
    throw new Error(`pod ${id}: the service's v2 API has no reset; restart the pod, or replace it for a fresh disk`);
  }

  // ---- endpoints -------------------------------------------------------------------------------

  async createEndpoint(input: EndpointCreateInput & EndpointTypeInput): Promise<Endpoint> {
    const fields = fieldsOf(input);
    const body = await this.#endpointBody(fields, undefined);
    body["type"] ??= "QUEUE";
    body["scaling"] ??= { type: "QUEUE_DELAY", queueDelay: 4 };
    if (fields["computeType"] === "CPU") delete body["gpu"];
    else {
      delete body["cpu"];
      // v2 chooses GPUs by pool: no types declared means every pool.
      if (!isRecord(body["gpu"]) || body["gpu"]["pools"] === undefined) setDefault(body, "gpu", "pools", [...new Set((await this.#gpuPools()).values())]);
    }
    dropIdleTimeoutWhereRefused(body, body["type"]);
    return endpointOf(await this.#v2.endpoints.create(body));
  }

  async listEndpoints(): Promise<Endpoint[]> {
    return (await this.#endpoints.list()).map((e) => endpointOf(e));
  }

  async getEndpoint(id: string, include?: EndpointInclude): Promise<Endpoint> {
    const endpoint = await this.#endpoints.read(id);
    if (include?.includeWorkers !== true) return endpointOf(endpoint);
    // Workers (no list form: one call per endpoint) as the readiness code reads them: up unless
    // initializing, throttled or unhealthy.
    const workers = (await this.#v2.endpointWorkers(id)).map((w) => ({ id: w.id, desiredStatus: "RUNNING", lastStatusChange: w.status.toLowerCase() }));
    return endpointOf(endpoint, workers);
  }

  async updateEndpoint(id: string, input: EndpointUpdateInput & EndpointTypeInput): Promise<Endpoint> {
    const { type: _fixedType, computeType: _fixedCompute, ...fields } = fieldsOf(input);
    let current: EndpointV2 | undefined;
    const live = async (): Promise<EndpointV2> => (current ??= await this.#endpoints.read(id));
    const needsLive = ["scalerType", "scalerValue", "vcpuCount", "cpuFlavorIds", "idleTimeout"].some((f) => fields[f] !== undefined);
    const body = await this.#endpointBody(fields, needsLive ? await live() : undefined);
    if (current) dropIdleTimeoutWhereRefused(body, current.type, body["scaling"] ?? current.scaling);
    return endpointOf(await this.#v2.endpoints.update(id, body));
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
    return TemplateSchema.parse(fromWireV2(templateTable, await this.#v2.templates.create(body)));
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
    return TemplateSchema.parse(fromWireV2(templateTable, await this.#v2.templates.update(id, body)));
  }

  async deleteTemplate(id: string): Promise<void> {
    return this.#v2.templates.delete(id);
  }

  async createNetworkVolume(input: NetworkVolumeCreateInput): Promise<NetworkVolume> {
    return volumeOf(await this.#v2.networkVolumes.create(toWireV2(networkVolumeTable, fieldsOf(input))));
  }

  async listNetworkVolumes(): Promise<NetworkVolume[]> {
    return (await this.#networkVolumes.list()).map(volumeOf);
  }

  async getNetworkVolume(id: string): Promise<NetworkVolume> {
    return volumeOf(await this.#networkVolumes.read(id));
  }

  async updateNetworkVolume(id: string, input: NetworkVolumeUpdateInput): Promise<NetworkVolume> {
    return volumeOf(await this.#v2.networkVolumes.update(id, toWireV2(networkVolumeTable, fieldsOf(input))));
  }

  async deleteNetworkVolume(id: string): Promise<void> {
    return this.#v2.networkVolumes.delete(id);
  }

  async createRegistryAuth(input: ContainerRegistryAuthCreateInput): Promise<ContainerRegistryAuth> {
    return ContainerRegistryAuthSchema.parse(await this.#v2.registries.create(toWireV2(registryAuthTable, fieldsOf(input))));
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

  // ---- account ---------------------------------------------------------------------------------

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
      body["networkVolumes"] = [...new Set([...one, ...((fields["networkVolumeIds"] as string[] | undefined) ?? [])])];
    }
    return body;
  }

  /** GPU types as v2's selection: the pools they belong to, minus the pools' other types. */
  async #gpuSelection(types: readonly string[]): Promise<{ pools: string[]; excludedTypes?: string[] }> {
    const poolOf = await this.#gpuPools();
    const pools = [...new Set(types.map((t) => poolOf.get(t)).filter((p): p is string => p !== undefined))];
    const unknown = types.filter((t) => !poolOf.has(t));
    if (unknown.length > 0) throw new Error(`GPU types ${unknown.map((t) => JSON.stringify(t)).join(", ")} are not in the service's catalog of serverless pools; see getGpuTypes for the ids`);
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
  return EndpointSchema.parse({ ...fromWireV2(endpointTable, wire), ...(workers ? { workers } : {}) });
}

function volumeOf(wire: Props): NetworkVolume {
  return NetworkVolumeSchema.parse(fromWireV2(networkVolumeTable, wire));
}

/** An input type's fields as a property bag. */
function fieldsOf(input: object): Props {
  return Object.fromEntries(Object.entries(input));
}

function setDefault(body: Props, object: string, key: string, value: unknown): void {
  const inner = isRecord(body[object]) ? body[object] : {};
  if (inner[key] === undefined) inner[key] = value;
  body[object] = inner;
}

/** idleTimeout does not apply to queue endpoints scaling on request count: v2 refuses it there. */
function dropIdleTimeoutWhereRefused(body: Props, type: unknown, scaling: unknown = body["scaling"]): void {
  const workers = body["workers"];
  if (type === "QUEUE" && isRecord(scaling) && scaling["type"] === "REQUEST_COUNT" && isRecord(workers)) delete workers["idleTimeout"];
}

/**
 * A pod's mounts: a network volume is mounted at volumeMountPath; persistent storage needs its size
 * and path together (an update that changes one takes the other from the live pod).
 */
function podMounts(body: Props, fields: Props, live: PodV2 | undefined): void {
  const mounts = isRecord(body["mounts"]) ? body["mounts"] : undefined;
  const liveVolume = getPath(live, "mounts.network.0.volumeId");
  if (isRecord(mounts) && Array.isArray(mounts["network"])) {
    mounts["network"] = [{ ...(mounts["network"][0] as Props), path: fields["volumeMountPath"] ?? DEFAULT_MOUNT_PATH }];
    delete mounts["persistent"];
    return;
  }
  if (live && typeof liveVolume === "string" && fields["volumeMountPath"] !== undefined) {
    body["mounts"] = { network: [{ volumeId: liveVolume, path: fields["volumeMountPath"] }] };
    return;
  }
  persistentMount(body, live);
}

/** Persistent storage needs size and path together: fill the missing one from the live object, or drop it. */
function persistentMount(body: Props, live: { mounts?: { persistent?: { size?: number | undefined; path?: string | undefined } | undefined } | undefined } | undefined): void {
  const mounts = body["mounts"];
  if (!isRecord(mounts) || !isRecord(mounts["persistent"])) return;
  const persistent = mounts["persistent"];
  const size = persistent["size"] ?? live?.mounts?.persistent?.size;
  const path = persistent["path"] ?? live?.mounts?.persistent?.path ?? DEFAULT_MOUNT_PATH;
  if (size === undefined) delete body["mounts"];
  else mounts["persistent"] = { size, path };
}
