// Typed calls of the management API v2 ({apiUrl} ends in /v2): plain calls in v2's own shapes, one
// per reference operation, no resource logic (the provider maps its fields onto these shapes).
// Lists arrive wrapped ({"pods": [...]}) and are unwrapped here; errors are RFC 9457 problem+json
// bodies, which the transport turns into the same typed ApiError as on v1.

import type { z } from "zod";
import {
  CpuTypeListV2Schema,
  DataCenterListV2Schema,
  EndpointListV2Schema,
  EndpointV2Schema,
  GpuTypeListV2Schema,
  NetworkVolumeBillingV2Schema,
  NetworkVolumeListV2Schema,
  NetworkVolumeV2Schema,
  PodBillingV2Schema,
  PodListV2Schema,
  PodV2Schema,
  RegistryListV2Schema,
  RegistryV2Schema,
  ReleasesV2Schema,
  AccountLimitsV2Schema,
  SecretListV2Schema,
  SecretV2Schema,
  type AccountLimitsV2,
  type SecretV2,
  ServerlessBillingV2Schema,
  TemplateListV2Schema,
  TemplateV2Schema,
  WorkersV2Schema,
  type EndpointV2,
  type PodV2,
  type RolloutV2,
  type WorkerV2,
} from "./schemasV2";
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

/** An account secret's create body; `value` is write-only (no answer carries it). */
export interface SecretCreateBody {
  name: string;
  value: string;
  description?: string;
}

/** An update: `value` rotates it, `description` ("" clears it); at least one of them. */
export type SecretUpdateBody = { value: string; description?: never } | { value?: never; description: string };

/**
 * The account secrets calls (/account/secrets). Each call that sends a value lists it for
 * redaction, so no error the transport makes (a service message that echoes the body) carries it.
 */
export interface SecretsV2 {
  create(body: SecretCreateBody): Promise<SecretV2>;
  /** Every secret, or with `name` only the one of that name (matched case-insensitively by the service). */
  list(name?: string): Promise<SecretV2[]>;
  get(id: string): Promise<SecretV2>;
  /**
   * One field per call: the service writes a value and a description sent together one after the
   * other, not atomically (a failure on the second leaves the first in force).
   */
  update(id: string, body: SecretUpdateBody): Promise<SecretV2>;
  delete(id: string): Promise<void>;
}

export class ManagementClientV2 {
  readonly transport: Transport;
  readonly pods: CollectionV2<PodV2>;
  readonly endpoints: CollectionV2<EndpointV2>;
  readonly templates: CollectionV2<z.output<typeof TemplateV2Schema>>;
  readonly networkVolumes: CollectionV2<z.output<typeof NetworkVolumeV2Schema>>;
  readonly registries: CollectionV2<z.output<typeof RegistryV2Schema>>;
  readonly secrets: SecretsV2;

  constructor(transportOrOptions: Transport | TransportOptions) {
    this.transport = transportOrOptions instanceof Transport ? transportOrOptions : new Transport(transportOrOptions);
    this.pods = this.#collection("pods", "Pod", PodV2Schema, PodListV2Schema);
    this.endpoints = this.#collection("serverless", "Endpoint", EndpointV2Schema, EndpointListV2Schema);
    this.templates = this.#collection("templates", "Template", TemplateV2Schema, TemplateListV2Schema);
    this.networkVolumes = this.#collection("network-volumes", "NetworkVolume", NetworkVolumeV2Schema, NetworkVolumeListV2Schema);
    this.registries = this.#collection("registries", "Registry", RegistryV2Schema, RegistryListV2Schema);
    this.secrets = this.#secrets();
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

  /** The rollout summary of the endpoint's latest release. */
  async endpointRollout(id: string): Promise<RolloutV2> {
    const body = await this.transport.request({ method: "GET", path: idPath("listEndpointReleases", "serverless", id, "releases"), operation: "listEndpointReleases", schema: ReleasesV2Schema });
    return body.rollout;
  }

  /** GET /account/limits (needs the key scope `account:read`): the hourly spend cap and the serverless worker quota. */
  async accountLimits(): Promise<AccountLimitsV2> {
    return this.transport.request({ method: "GET", path: "/account/limits", operation: "getAccountLimits", schema: AccountLimitsV2Schema });
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

  #secrets(): SecretsV2 {
    const t = this.transport;
    const one = (op: string, id: string) => `/account${idPath(op, "secrets", id)}`;
    const path = "/account/secrets";
    return {
      create: (body) => t.request({ method: "POST", path, operation: "createSecret", body, redact: [body.value], schema: SecretV2Schema }),
      list: (name) => t.request({ method: "GET", path, operation: "listSecrets", query: { name }, schema: SecretListV2Schema }),
      get: async (id) => t.request({ method: "GET", path: one("getSecret", id), operation: "getSecret", schema: SecretV2Schema }),
      update: async (id, body) =>
        t.request({ method: "PATCH", path: one("updateSecret", id), operation: "updateSecret", body, redact: body.value === undefined ? [] : [body.value], schema: SecretV2Schema }),
      delete: async (id) => t.requestVoid({ method: "DELETE", path: one("deleteSecret", id), operation: "deleteSecret" }),
    };
  }

  #collection<T>(segment: string, noun: string, item: z.ZodType<T>, list: z.ZodType<T[]>): CollectionV2<T> {
    const t = this.transport;
    // The calls by id are async so that a bad id rejects, as every call's failures do, rather than throw.
    const one = (op: string, id: string) => idPath(`${op}${noun}`, segment, id);
    return {
      create: (body) => t.request({ method: "POST", path: `/${segment}`, operation: `create${noun}`, body, schema: item }),
      list: () => t.request({ method: "GET", path: `/${segment}`, operation: `list${noun}s`, schema: list }),
      get: async (id) => t.request({ method: "GET", path: one("get", id), operation: `get${noun}`, schema: item }),
      update: async (id, body) => t.request({ method: "PATCH", path: one("update", id), operation: `update${noun}`, body, schema: item }),
      delete: async (id) => t.requestVoid({ method: "DELETE", path: one("delete", id), operation: `delete${noun}` }),
    };
  }
}
