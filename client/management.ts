// Typed calls of the management API ({apiUrl} ends in /v1), one method per reference operation:
// plain calls, no resource logic. Operation names in errors are the reference's opIds. Bodies are
// sent as given (the provider builds them from each resource's field table). Gets and deletes
// throw NotFoundError on 404 (see isNotFound); a create whose answer is lost throws, and the
// caller resolves it (the provider's createOnce.ts).

import type { z } from "zod";
import { encodeEndpointName, type EndpointType } from "./endpointType";
import {
  ContainerRegistryAuthListSchema,
  ContainerRegistryAuthSchema,
  BillingRecordListSchema,
  EndpointListSchema,
  EndpointSchema,
  NetworkVolumeBillingRecordListSchema,
  NetworkVolumeListSchema,
  NetworkVolumeSchema,
  PodListSchema,
  PodSchema,
  TemplateListSchema,
  TemplateSchema,
  type BillingRecord,
  type ContainerRegistryAuth,
  type ContainerRegistryAuthCreateInput,
  type Endpoint,
  type EndpointBillingQuery,
  type EndpointCreateInput,
  type EndpointInclude,
  type EndpointUpdateInput,
  type NetworkVolume,
  type NetworkVolumeBillingQuery,
  type NetworkVolumeBillingRecord,
  type NetworkVolumeCreateInput,
  type NetworkVolumeUpdateInput,
  type Pod,
  type PodBillingQuery,
  type PodCreateInput,
  type PodInclude,
  type PodListFilter,
  type PodUpdateInput,
  type Template,
  type TemplateCreateInput,
  type TemplateInclude,
  type TemplateUpdateInput,
} from "./schemas";
import { Transport, idPath, type QueryValue, type TransportOptions } from "./transport";

export { isNotFound } from "./errors";

type Query = Readonly<Record<string, QueryValue>>;

// Start/stop/reset/restart answer with an undocumented body; only the status matters.
const podAction = {
  start: "StartPod",
  stop: "StopPod",
  reset: "ResetPod",
  restart: "RestartPod",
} as const;

/** How far an endpoint's latest version has reached its workers (v2 reports it; v1 derives it). */
export interface EndpointRollout {
  inProgress: boolean;
  workersOnLatest: number;
  workersTotal: number;
}

/** The endpoint type, given beside the v1 fields (the v1 body has no field for it). */
export interface EndpointTypeInput {
  /** QUEUE (default) or LOAD_BALANCER; fixed at create. */
  type?: EndpointType | undefined;
}

export class ManagementClient {
  readonly transport: Transport;

  constructor(transportOrOptions: Transport | TransportOptions) {
    // v1's array parameters state no style, so OpenAPI's default holds: the key once per item.
    this.transport =
      transportOrOptions instanceof Transport ? transportOrOptions : new Transport({ arrayQuery: "repeat", ...transportOrOptions });
  }

  async close(): Promise<void> {
    return this.transport.close();
  }

  // ---- Pods ------------------------------------------------------------------------------------

  async createPod(input: PodCreateInput): Promise<Pod> {
    return this.transport.request({ method: "POST", path: "/pods", operation: "CreatePod", body: input, schema: PodSchema });
  }

  async listPods(filter?: PodListFilter): Promise<Pod[]> {
    return this.transport.request({
      method: "GET",
      path: "/pods",
      operation: "ListPods",
      query: filter as Query | undefined,
      schema: PodListSchema,
    });
  }

  async getPod(id: string, include?: PodInclude): Promise<Pod> {
    return this.#byId("GET", "pods", id, "GetPod", PodSchema, { query: include });
  }

  /** PATCH: may reset the Pod (container disk wiped). */
  async updatePod(id: string, input: PodUpdateInput): Promise<Pod> {
    return this.#byId("PATCH", "pods", id, "UpdatePod", PodSchema, { body: input });
  }

  async deletePod(id: string): Promise<void> {
    return this.#delete("pods", id, "DeletePod");
  }

  async startPod(id: string): Promise<void> {
    return this.#podAction(id, "start");
  }

  async stopPod(id: string): Promise<void> {
    return this.#podAction(id, "stop");
  }

  async resetPod(id: string): Promise<void> {
    return this.#podAction(id, "reset");
  }

  async restartPod(id: string): Promise<void> {
    return this.#podAction(id, "restart");
  }

  // ---- Endpoints -------------------------------------------------------------------------------

  /** `type` (default QUEUE) is fixed at create; see endpointType.ts for how it travels. */
  async createEndpoint(input: EndpointCreateInput & EndpointTypeInput): Promise<Endpoint> {
    // The v1 body has no field for the type: it travels as a marker in the name.
    const { type = "QUEUE", ...fields } = input;
    const body: Record<string, unknown> = { ...fields };
    if (type !== "QUEUE") body["name"] = encodeEndpointName(input.name ?? "endpoint", type);
    return this.transport.request({ method: "POST", path: "/endpoints", operation: "CreateEndpoint", body, schema: EndpointSchema });
  }

  async listEndpoints(include?: EndpointInclude): Promise<Endpoint[]> {
    return this.transport.request({
      method: "GET",
      path: "/endpoints",
      operation: "ListEndpoints",
      query: include as Query | undefined,
      schema: EndpointListSchema,
    });
  }

  async getEndpoint(id: string, include?: EndpointInclude): Promise<Endpoint> {
    return this.#byId("GET", "endpoints", id, "GetEndpoint", EndpointSchema, { query: include });
  }

  /**
   * PATCH: triggers a rolling release of the workers. computeType and type cannot change. A new
   * name keeps the endpoint's type marker: give `type`, or it is read from the service first.
   */
  async updateEndpoint(id: string, input: EndpointUpdateInput & EndpointTypeInput): Promise<Endpoint> {
    const { type: given, ...fields } = input;
    const body: Record<string, unknown> = { ...fields };
    if (input.name !== undefined) {
      const type = given ?? (await this.getEndpoint(id)).type ?? "QUEUE";
      body["name"] = encodeEndpointName(input.name, type === "LOAD_BALANCER" ? "LOAD_BALANCER" : "QUEUE");
    }
    return this.transport.request({
      method: "PATCH",
      path: idPath("UpdateEndpoint", "endpoints", id),
      operation: "UpdateEndpoint",
      body,
      schema: EndpointSchema,
    });
  }

  /**
   * How far the endpoint's latest version has reached its workers. v1 keeps no releases, but each
   * worker reports the endpoint version it was started with (`slsVersion`); a rolling release
   * replaces the older ones.
   */
  async endpointRollout(id: string): Promise<EndpointRollout> {
    const endpoint = await this.getEndpoint(id, { includeWorkers: true });
    const workers = endpoint.workers ?? [];
    const onLatest = workers.filter(
      (w) => w.slsVersion === undefined || endpoint.version === undefined || w.slsVersion === endpoint.version,
    ).length;
    return { inProgress: onLatest < workers.length, workersOnLatest: onLatest, workersTotal: workers.length };
  }

  /** May be refused (409/400) while workers run; scale workersMin/Max to 0 first. */
  async deleteEndpoint(id: string): Promise<void> {
    return this.#delete("endpoints", id, "DeleteEndpoint");
  }

  // ---- Templates -------------------------------------------------------------------------------

  async createTemplate(input: TemplateCreateInput): Promise<Template> {
    return this.transport.request({ method: "POST", path: "/templates", operation: "CreateTemplate", body: input, schema: TemplateSchema });
  }

  async listTemplates(include?: TemplateInclude): Promise<Template[]> {
    return this.transport.request({
      method: "GET",
      path: "/templates",
      operation: "ListTemplates",
      query: include as Query | undefined,
      schema: TemplateListSchema,
    });
  }

  async getTemplate(id: string, include?: TemplateInclude): Promise<Template> {
    return this.#byId("GET", "templates", id, "GetTemplate", TemplateSchema, { query: include });
  }

  /** PATCH: every field except category and isServerless; rolls out to endpoints using it. */
  async updateTemplate(id: string, input: TemplateUpdateInput): Promise<Template> {
    return this.#byId("PATCH", "templates", id, "UpdateTemplate", TemplateSchema, { body: input });
  }

  async deleteTemplate(id: string): Promise<void> {
    return this.#delete("templates", id, "DeleteTemplate");
  }

  // ---- Network volumes -------------------------------------------------------------------------

  async createNetworkVolume(input: NetworkVolumeCreateInput): Promise<NetworkVolume> {
    return this.transport.request({
      method: "POST",
      path: "/networkvolumes",
      operation: "CreateNetworkVolume",
      body: input,
      schema: NetworkVolumeSchema,
    });
  }

  async listNetworkVolumes(): Promise<NetworkVolume[]> {
    return this.transport.request({
      method: "GET",
      path: "/networkvolumes",
      operation: "ListNetworkVolumes",
      schema: NetworkVolumeListSchema,
    });
  }

  async getNetworkVolume(id: string): Promise<NetworkVolume> {
    return this.#byId("GET", "networkvolumes", id, "GetNetworkVolume", NetworkVolumeSchema);
  }

  /** Name and size (grow only); dataCenterId is fixed. */
  async updateNetworkVolume(id: string, input: NetworkVolumeUpdateInput): Promise<NetworkVolume> {
    return this.#byId("PATCH", "networkvolumes", id, "UpdateNetworkVolume", NetworkVolumeSchema, { body: input });
  }

  /** Refused while the volume is attached to a Pod or endpoint. */
  async deleteNetworkVolume(id: string): Promise<void> {
    return this.#delete("networkvolumes", id, "DeleteNetworkVolume");
  }

  // ---- Container registry auth (no update operation exists) -------------------------------------

  async createRegistryAuth(input: ContainerRegistryAuthCreateInput): Promise<ContainerRegistryAuth> {
    return this.transport.request({
      method: "POST",
      path: "/containerregistryauth",
      operation: "CreateContainerRegistryAuth",
      body: input,
      schema: ContainerRegistryAuthSchema,
    });
  }

  async listRegistryAuths(): Promise<ContainerRegistryAuth[]> {
    return this.transport.request({
      method: "GET",
      path: "/containerregistryauth",
      operation: "ListContainerRegistryAuths",
      schema: ContainerRegistryAuthListSchema,
    });
  }

  /** Returns id and name only: credentials are never read back. */
  async getRegistryAuth(id: string): Promise<ContainerRegistryAuth> {
    return this.#byId("GET", "containerregistryauth", id, "GetContainerRegistryAuth", ContainerRegistryAuthSchema);
  }

  async deleteRegistryAuth(id: string): Promise<void> {
    return this.#delete("containerregistryauth", id, "DeleteContainerRegistryAuth");
  }

  // ---- Billing ---------------------------------------------------------------------------------

  async podBilling(query: PodBillingQuery = {}): Promise<BillingRecord[]> {
    return this.transport.request({
      method: "GET",
      path: "/billing/pods",
      operation: "PodBilling",
      query: query as Query,
      schema: BillingRecordListSchema,
    });
  }

  async endpointBilling(query: EndpointBillingQuery = {}): Promise<BillingRecord[]> {
    return this.transport.request({
      method: "GET",
      path: "/billing/endpoints",
      operation: "EndpointBilling",
      query: query as Query,
      schema: BillingRecordListSchema,
    });
  }

  async networkVolumeBilling(query: NetworkVolumeBillingQuery = {}): Promise<NetworkVolumeBillingRecord[]> {
    return this.transport.request({
      method: "GET",
      path: "/billing/networkvolumes",
      operation: "NetworkVolumeBilling",
      query: query as Query,
      schema: NetworkVolumeBillingRecordListSchema,
    });
  }

  // ---- shared ----------------------------------------------------------------------------------

  /** GET or PATCH of one resource: `/{collection}/{id}`, a query of include flags, a PATCH body. */
  #byId<T>(
    method: "GET" | "PATCH",
    collection: string,
    id: string,
    operation: string,
    schema: z.ZodType<T>,
    extra: { query?: object | undefined; body?: unknown } = {},
  ): Promise<T> {
    const query = extra.query as Query | undefined;
    return this.transport.request({ method, path: idPath(operation, collection, id), operation, query, body: extra.body, schema });
  }

  /** Any 2xx (the service has answered 200 as well as the documented 204). 404 -> NotFoundError. */
  #delete(collection: string, id: string, operation: string): Promise<void> {
    return this.transport.requestVoid({ method: "DELETE", path: idPath(operation, collection, id), operation });
  }

  /**
   * start/stop set a state, so repeating one is harmless and they are retried like GETs. A repeated
   * reset/restart restarts the container once more, which is what the caller asked for anyway
   * (reset wipes the container disk either way), so they are treated the same.
   */
  #podAction(id: string, action: keyof typeof podAction): Promise<void> {
    const operation = podAction[action];
    return this.transport.requestVoid({
      method: "POST",
      path: idPath(operation, "pods", id, action),
      operation,
      idempotent: true,
    });
  }
}
