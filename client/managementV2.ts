// Typed calls of the management API v2 ({apiUrl} ends in /v2): plain calls in v2's own shapes, one
// per reference operation, no resource logic (the provider maps its fields onto these shapes).
// Lists arrive wrapped ({"pods": [...]}, paginated or not) and are read whole and unwrapped here; errors are RFC 9457 problem+json
// bodies, which the transport turns into the same typed ApiError as on v1.

import type { z } from "zod";
import type { PublicTemplate, PublicTemplateSource } from "./catalogTypes";
import { callV2, type CallV2, type OperationIdV2, type RequestOf, type ResponseOf } from "./operationsV2";
import type { SecretCreateBody, SecretUpdateBody } from "./requestsV2";
import { ReleasesV2Schema, type AccountLimitsV2, type RolloutV2, type SecretV2, type WorkerV2 } from "./schemasV2";
import type { EndpointReleases, EndpointWorkers } from "./workerTypes";
import { Transport, type QueryValue, type TransportOptions } from "./transport";
import { readRecentLog, type RecentLog, type RecentLogOptions } from "./logs";

type Query = Readonly<Record<string, QueryValue>>;

/** The billing histories of the reference, by operation (`listBilling` is the account's aggregate). */
export type BillingOperationV2 =
  | "listBilling"
  | "listPodBilling"
  | "listServerlessBilling"
  | "listEndpointBilling"
  | "listNetworkVolumeBilling"
  | "listClusterBilling";

/** The pod actions v2 has (no reset). */
export type PodActionV2 = "start" | "stop" | "restart";

/** One collection's operations, as the reference names them (createPod, listPods, ...; see OPERATIONS_V2). */
interface CollectionOperations {
  create: OperationIdV2;
  list: OperationIdV2;
  get: OperationIdV2;
  update?: OperationIdV2;
  delete: OperationIdV2;
}

const POD_OPERATIONS = { create: "createPod", list: "listPods", get: "getPod", update: "updatePod", delete: "deletePod" } as const;
const ENDPOINT_OPERATIONS = {
  create: "createEndpoint",
  list: "listEndpoints",
  get: "getEndpoint",
  update: "updateEndpoint",
  delete: "deleteEndpoint",
} as const;
const TEMPLATE_OPERATIONS = {
  create: "createTemplate",
  list: "listTemplates",
  get: "getTemplate",
  update: "updateTemplate",
  delete: "deleteTemplate",
} as const;
const NETWORK_VOLUME_OPERATIONS = {
  create: "createNetworkVolume",
  list: "listNetworkVolumes",
  get: "getNetworkVolume",
  update: "updateNetworkVolume",
  delete: "deleteNetworkVolume",
} as const;
// Registry credentials have no update operation in the reference.
const REGISTRY_OPERATIONS = { create: "createRegistry", list: "listRegistries", get: "getRegistry", delete: "deleteRegistry" } as const;

type ItemOf<Ops extends CollectionOperations> = ResponseOf<Ops["get"]>;

/** One collection's CRUD calls, typed by the table's request and answer of each operation. */
export interface CollectionV2<Ops extends CollectionOperations> {
  create(body: RequestOf<Ops["create"]>): Promise<ItemOf<Ops>>;
  list(): Promise<Array<ItemOf<Ops>>>;
  get(id: string): Promise<ItemOf<Ops>>;
  update(id: string, body: Ops["update"] extends OperationIdV2 ? RequestOf<Ops["update"]> : never): Promise<ItemOf<Ops>>;
  delete(id: string): Promise<void>;
}

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

export type { SecretCreateBody, SecretUpdateBody };

export class ManagementClientV2 {
  readonly transport: Transport;
  readonly pods: CollectionV2<typeof POD_OPERATIONS>;
  readonly endpoints: CollectionV2<typeof ENDPOINT_OPERATIONS>;
  readonly templates: CollectionV2<typeof TEMPLATE_OPERATIONS>;
  readonly networkVolumes: CollectionV2<typeof NETWORK_VOLUME_OPERATIONS>;
  readonly registries: CollectionV2<typeof REGISTRY_OPERATIONS>;
  readonly secrets: SecretsV2;

  constructor(transportOrOptions: Transport | TransportOptions) {
    this.transport = transportOrOptions instanceof Transport ? transportOrOptions : new Transport(transportOrOptions);
    this.pods = this.#collection(POD_OPERATIONS);
    this.endpoints = this.#collection(ENDPOINT_OPERATIONS);
    this.templates = this.#collection(TEMPLATE_OPERATIONS);
    this.networkVolumes = this.#collection(NETWORK_VOLUME_OPERATIONS);
    this.registries = this.#collection(REGISTRY_OPERATIONS);
    this.secrets = this.#secrets();
  }

  async close(): Promise<void> {
    return this.transport.close();
  }

  /**
   * POST /pods/{id}/action: 409 when the action does not fit the pod's status (the pod's `actions`
   * lists those that do). Never repeated by the transport: a repeat of an action that went through
   * is a 409, so the caller reads the pod and decides (V2Backend).
   */
  async podAction(id: string, action: PodActionV2) {
    return callV2(this.transport, "podAction", { id, body: { action }, idempotent: false });
  }

  async endpointWorkers(id: string): Promise<WorkerV2[]> {
    return (await this.endpointWorkerList(id)).workers;
  }

  /** GET /serverless/{id}/workers whole: the active workers, their summary by status and the endpoint's version. */
  async endpointWorkerList(id: string): Promise<EndpointWorkers> {
    return callV2(this.transport, "listEndpointWorkers", { id });
  }

  /**
   * The whole release history (every page, newest first) with the rollout summary and the
   * endpoint's version, which each page carries alike (taken from the first).
   */
  async endpointReleases(id: string): Promise<EndpointReleases> {
    let first: z.output<typeof ReleasesV2Schema> | undefined;
    const releases = await callV2(this.transport, "listEndpointReleasesAll", {
      id,
      firstPage: (body) => {
        const parsed = ReleasesV2Schema.safeParse(body);
        first = parsed.success ? parsed.data : undefined;
      },
    });
    if (first === undefined) {
      throw new Error(
        `listEndpointReleases ${id}: the service's answer has no rollout summary (inProgress, workersOnLatest, workersTotal)`,
      );
    }
    const { releases: _page, ...rest } = first;
    return { ...rest, releases };
  }

  /**
   * The rollout summary of the endpoint's latest release. One call, not a walk of the release
   * history: the summary describes the endpoint's current state on every page
   * (management-api-v2-today.md 1.3), and no caller reads the releases themselves.
   */
  async endpointRollout(id: string): Promise<RolloutV2> {
    return (await callV2(this.transport, "listEndpointReleases", { id })).rollout;
  }

  // ---- logs (server-sent events, read for a bounded time: logs.ts) ------------------------------

  /** The last lines of a pod's log (getPodLogs), secrets redacted. */
  podLog(podId: string, options?: RecentLogOptions): Promise<RecentLog> {
    return readRecentLog(this.transport, { podId }, options);
  }

  /** The last lines of a serverless worker's log (getWorkerLogs), secrets redacted. */
  workerLog(endpointId: string, workerId: string, options?: RecentLogOptions): Promise<RecentLog> {
    return readRecentLog(this.transport, { endpointId, workerId }, options);
  }

  // ---- account ---------------------------------------------------------------------------------

  /** GET /account/ssh-keys (getSshKeys): the keys provisioned into pods created with startSsh. */
  async sshKeys(): Promise<string[]> {
    return (await callV2(this.transport, "getSshKeys", {})).keys;
  }

  /** PUT /account/ssh-keys (updateSshKeys): replaces the whole set (`[]` removes every key); answers the new set. */
  async replaceSshKeys(keys: readonly string[]): Promise<string[]> {
    return (await callV2(this.transport, "updateSshKeys", { body: { keys } })).keys;
  }

  /** GET /account/limits (needs the key scope `account:read`): the hourly spend cap and the serverless worker quota. */
  async accountLimits(): Promise<AccountLimitsV2> {
    return callV2(this.transport, "getAccountLimits", {});
  }

  // ---- catalog ---------------------------------------------------------------------------------

  gpuTypes(query?: Query) {
    return callV2(this.transport, "listGpuTypes", { query });
  }

  cpuTypes(query?: Query) {
    return callV2(this.transport, "listCpuTypes", { query });
  }

  dataCenters(query?: Query) {
    return callV2(this.transport, "listDataCenters", { query });
  }

  /** GET /catalog/templates: one slice of the public template catalog (the service's default: official). */
  publicTemplates(source?: PublicTemplateSource): Promise<PublicTemplate[]> {
    return callV2(this.transport, "listPublicTemplates", { query: { source } });
  }

  // ---- billing (serverless is the endpoints' history; /billing/endpoints is another thing) -------

  podBilling(query: Query = {}) {
    return callV2(this.transport, "listPodBilling", { query });
  }

  serverlessBilling(query: Query = {}) {
    return callV2(this.transport, "listServerlessBilling", { query });
  }

  networkVolumeBilling(query: Query = {}) {
    return callV2(this.transport, "listNetworkVolumeBilling", { query });
  }

  /** One billing history of the reference, by its operation, with its query as given. */
  billingHistory<O extends BillingOperationV2>(operation: O, query: Query = {}): Promise<ResponseOf<O>> {
    return callV2(this.transport, operation, { query } as CallV2<O>);
  }

  #secrets(): SecretsV2 {
    const t = this.transport;
    return {
      create: (body) => callV2(t, "createSecret", { body, redact: [body.value] }),
      list: (name) => callV2(t, "listSecrets", { query: { name } }),
      get: (id) => callV2(t, "getSecret", { id }),
      update: (id, body) => callV2(t, "updateSecret", { id, body, redact: body.value === undefined ? [] : [body.value] }),
      delete: (id) => callV2(t, "deleteSecret", { id }),
    };
  }

  #collection<Ops extends CollectionOperations>(ops: Ops): CollectionV2<Ops> {
    const t = this.transport;
    // The table's rows are checked per operation at compile time where the operation is named; here
    // the names come from the collection's record, so each call goes through one erased signature.
    const call = callV2 as (transport: Transport, operation: OperationIdV2, args: { id?: string; body?: unknown }) => Promise<unknown>;
    return {
      create: async (body) => (await call(t, ops.create, { body })) as ItemOf<Ops>,
      list: async () => (await call(t, ops.list, {})) as Array<ItemOf<Ops>>,
      get: async (id) => (await call(t, ops.get, { id })) as ItemOf<Ops>,
      update: async (id, body) => {
        if (ops.update === undefined) throw new Error(`${ops.get}: the service has no update operation for this kind`);
        return (await call(t, ops.update, { id, body })) as ItemOf<Ops>;
      },
      delete: async (id) => {
        await call(t, ops.delete, { id });
      },
    };
  }
}
