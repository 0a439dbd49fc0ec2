// Typed calls of the management API v2 ({apiUrl} ends in /v2): plain calls in v2's own shapes, one
// per reference operation, no resource logic (the provider maps its fields onto these shapes).
// Lists arrive wrapped ({"pods": [...]}, paginated or not) and are read whole and unwrapped here; errors are RFC 9457 problem+json
// bodies, which the transport turns into the same typed ApiError as on v1.

import type { z } from "zod";
import {
  CpuTypeListV2Schema,
  DataCenterListV2Schema,
  EndpointV2Schema,
  GpuTypeListV2Schema,
  NetworkVolumeBillingV2Schema,
  NetworkVolumeV2Schema,
  PodBillingV2Schema,
  PodV2Schema,
  RegistryV2Schema,
  ReleasesV2Schema,
  ServerlessBillingV2Schema,
  TemplateV2Schema,
  WorkersV2Schema,
  type EndpointV2,
  type PodV2,
  type RolloutV2,
  type WorkerV2,
} from "./schemasV2";
import { readAllPages } from "./pages";
import { Transport, idPath, type QueryValue, type TransportOptions } from "./transport";

export type WireBody = Readonly<Record<string, unknown>>;
type Query = Readonly<Record<string, QueryValue>>;

/** The pod actions v2 has (no reset). */
export type PodActionV2 = "start" | "stop" | "restart";

/** One collection's CRUD calls, as the reference names its operations (createPod, listPods, ...). */
export interface CollectionV2<T> {
  create(body: WireBody): Promise<T>;
  list(): Promise<T[]>;
  get(id: string): Promise<T>;
  update(id: string, body: WireBody): Promise<T>;
  delete(id: string): Promise<void>;
}

export class ManagementClientV2 {
  readonly transport: Transport;
  readonly pods: CollectionV2<PodV2>;
  readonly endpoints: CollectionV2<EndpointV2>;
  readonly templates: CollectionV2<z.output<typeof TemplateV2Schema>>;
  readonly networkVolumes: CollectionV2<z.output<typeof NetworkVolumeV2Schema>>;
  readonly registries: CollectionV2<z.output<typeof RegistryV2Schema>>;

  constructor(transportOrOptions: Transport | TransportOptions) {
    this.transport = transportOrOptions instanceof Transport ? transportOrOptions : new Transport(transportOrOptions);
    this.pods = this.#collection("pods", "Pod", "pods", PodV2Schema);
    this.endpoints = this.#collection("serverless", "Endpoint", "endpoints", EndpointV2Schema);
    this.templates = this.#collection("templates", "Template", "templates", TemplateV2Schema);
    this.networkVolumes = this.#collection("network-volumes", "NetworkVolume", "networkVolumes", NetworkVolumeV2Schema);
    this.registries = this.#collection("registries", "Registry", "registries", RegistryV2Schema);
  }

  async close(): Promise<void> {
    return this.transport.close();
  }

  /** POST /pods/{id}/action: 409 when the action does not fit the pod's status. */
  async podAction(id: string, action: PodActionV2): Promise<PodV2> {
    // start/stop set a state and restart restarts once more at worst: safe to repeat.
    return this.transport.request({ method: "POST", path: idPath("podAction", "pods", id, "action"), operation: "podAction", body: { action }, idempotent: true, schema: PodV2Schema });
  }

  async endpointWorkers(id: string): Promise<WorkerV2[]> {
    const body = await this.transport.request({ method: "GET", path: idPath("listEndpointWorkers", "serverless", id, "workers"), operation: "listEndpointWorkers", schema: WorkersV2Schema });
    return body.workers;
  }

  /**
   * The rollout summary of the endpoint's latest release. One call, not a walk of the release
   * history: the summary describes the endpoint's current state on every page
   * (management-api-v2-today.md 1.3), and no caller reads the releases themselves.
   */
  async endpointRollout(id: string): Promise<RolloutV2> {
    const body = await this.transport.request({ method: "GET", path: idPath("listEndpointReleases", "serverless", id, "releases"), operation: "listEndpointReleases", schema: ReleasesV2Schema });
    return body.rollout;
  }

  // ---- catalog ---------------------------------------------------------------------------------

  gpuTypes(query?: Query) {
    return this.transport.request({ method: "GET", path: "/catalog/gpus", operation: "listGpuTypes", query, schema: GpuTypeListV2Schema });
  }

  cpuTypes(query?: Query) {
    return this.transport.request({ method: "GET", path: "/catalog/cpus", operation: "listCpuTypes", query, schema: CpuTypeListV2Schema });
  }

  dataCenters(query?: Query) {
    return this.transport.request({ method: "GET", path: "/catalog/datacenters", operation: "listDataCenters", query, schema: DataCenterListV2Schema });
  }

  // ---- billing (serverless is the endpoints' history; /billing/endpoints is another thing) -------

  podBilling(query: Query = {}) {
    return this.transport.request({ method: "GET", path: "/billing/pods", operation: "listPodBilling", query, schema: PodBillingV2Schema });
  }

  serverlessBilling(query: Query = {}) {
    return this.transport.request({ method: "GET", path: "/billing/serverless", operation: "listServerlessBilling", query, schema: ServerlessBillingV2Schema });
  }

  networkVolumeBilling(query: Query = {}) {
    return this.transport.request({ method: "GET", path: "/billing/network-volumes", operation: "listNetworkVolumeBilling", query, schema: NetworkVolumeBillingV2Schema });
  }

  #collection<T>(segment: string, noun: string, key: string, item: z.ZodType<T>): CollectionV2<T> {
    const t = this.transport;
    // The calls by id are async so that a bad id rejects, as every call's failures do, rather than throw.
    const one = (op: string, id: string) => idPath(`${op}${noun}`, segment, id);
    return {
      create: (body) => t.request({ method: "POST", path: `/${segment}`, operation: `create${noun}`, body, schema: item }),
      // Every list is read whole, page by page (pages.ts); the lists the service does not paginate
      // (network volumes, registries) answer without a pagination block and are read in one call.
      list: () => readAllPages(t, { path: `/${segment}`, operation: `list${noun}s`, key, item }),
      get: async (id) => t.request({ method: "GET", path: one("get", id), operation: `get${noun}`, schema: item }),
      update: async (id, body) => t.request({ method: "PATCH", path: one("update", id), operation: `update${noun}`, body, schema: item }),
      delete: async (id) => t.requestVoid({ method: "DELETE", path: one("delete", id), operation: `delete${noun}` }),
    };
  }
}
