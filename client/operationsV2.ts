// Every management API v2 operation the client calls, one row each: the reference's operationId
// (the name errors and logs give), method, path template, and the types of its request and answer.
// The client calls only through this table (callV2), so a path, a method or an operation name is
// written once, and a body or answer field the reference does not define fails to compile.

import type { z } from "zod";
import type {
  CreateEndpointRequestV2,
  CreateNetworkVolumeRequestV2,
  CreatePodRequestV2,
  CreateRegistryRequestV2,
  CreateTemplateRequestV2,
  PodActionRequestV2,
  SecretCreateBody,
  SecretUpdateBody,
  UpdateSshKeysRequestV2,
  UpdateEndpointRequestV2,
  UpdateNetworkVolumeRequestV2,
  UpdatePodRequestV2,
  UpdateTemplateRequestV2,
} from "./requestsV2";
import {
  AccountBillingV2Schema,
  AccountLimitsV2Schema,
  ClusterBillingV2Schema,
  CpuTypeListV2Schema,
  DataCenterListV2Schema,
  EndpointV2Schema,
  GpuTypeListV2Schema,
  NetworkVolumeBillingV2Schema,
  NetworkVolumeV2Schema,
  PodBillingV2Schema,
  PodV2Schema,
  PublicEndpointBillingV2Schema,
  PublicTemplateListV2Schema,
  RegistryV2Schema,
  ReleaseV2Schema,
  ReleasesV2Schema,
  SecretV2Schema,
  ServerlessBillingV2Schema,
  SshKeysV2Schema,
  TemplateV2Schema,
  WorkersV2Schema,
} from "./schemasV2";
import { readAllPages } from "./pages";
import { requireId, type QueryValue, type Transport } from "./transport";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface OperationRow {
  readonly method: Method;
  /** The reference's path below `{apiUrl}` (which ends in /v2), `{id}` for the resource id. */
  readonly path: string;
  /** The answer's schema; none for a 204 (and for a list read whole, which has `list`). */
  readonly response?: z.ZodType;
  /**
   * A list of the account's resources, `{"<key>": [item, ...], "pagination"?: ...}`: read whole,
   * page by page where the service paginates it (pages.ts), and answered as the array of items.
   */
  readonly list?: { readonly paged: boolean; readonly key: string; readonly item: z.ZodType };
  /** The reference's operationId, where the row's key differs from it (one operation read two ways). */
  readonly operationId?: string;
}

/** Declares a row with its request body type (a phantom: types only, nothing at run time). */
const op =
  <Body = never>() =>
  <const R extends OperationRow>(row: R): R & { readonly __body?: Body } =>
    row;

export const OPERATIONS_V2 = {
  listPods: op()({ method: "GET", path: "/pods", list: { paged: true, key: "pods", item: PodV2Schema } }),
  createPod: op<CreatePodRequestV2>()({ method: "POST", path: "/pods", response: PodV2Schema }),
  getPod: op()({ method: "GET", path: "/pods/{id}", response: PodV2Schema }),
  updatePod: op<UpdatePodRequestV2>()({ method: "PATCH", path: "/pods/{id}", response: PodV2Schema }),
  deletePod: op()({ method: "DELETE", path: "/pods/{id}" }),
  podAction: op<PodActionRequestV2>()({ method: "POST", path: "/pods/{id}/action", response: PodV2Schema }),

  listEndpoints: op()({ method: "GET", path: "/serverless", list: { paged: true, key: "endpoints", item: EndpointV2Schema } }),
  createEndpoint: op<CreateEndpointRequestV2>()({ method: "POST", path: "/serverless", response: EndpointV2Schema }),
  getEndpoint: op()({ method: "GET", path: "/serverless/{id}", response: EndpointV2Schema }),
  updateEndpoint: op<UpdateEndpointRequestV2>()({ method: "PATCH", path: "/serverless/{id}", response: EndpointV2Schema }),
  deleteEndpoint: op()({ method: "DELETE", path: "/serverless/{id}" }),
  listEndpointWorkers: op()({ method: "GET", path: "/serverless/{id}/workers", response: WorkersV2Schema }),
  listEndpointReleases: op()({ method: "GET", path: "/serverless/{id}/releases", response: ReleasesV2Schema }),
  // The same operation read whole (every page), for the history itself (ManagementClientV2.endpointReleases).
  listEndpointReleasesAll: op()({
    method: "GET",
    path: "/serverless/{id}/releases",
    list: { paged: true, key: "releases", item: ReleaseV2Schema },
    operationId: "listEndpointReleases",
  }),

  listTemplates: op()({ method: "GET", path: "/templates", list: { paged: true, key: "templates", item: TemplateV2Schema } }),
  createTemplate: op<CreateTemplateRequestV2>()({ method: "POST", path: "/templates", response: TemplateV2Schema }),
  getTemplate: op()({ method: "GET", path: "/templates/{id}", response: TemplateV2Schema }),
  updateTemplate: op<UpdateTemplateRequestV2>()({ method: "PATCH", path: "/templates/{id}", response: TemplateV2Schema }),
  deleteTemplate: op()({ method: "DELETE", path: "/templates/{id}" }),

  listNetworkVolumes: op()({
    method: "GET",
    path: "/network-volumes",
    list: { paged: false, key: "networkVolumes", item: NetworkVolumeV2Schema },
  }),
  createNetworkVolume: op<CreateNetworkVolumeRequestV2>()({ method: "POST", path: "/network-volumes", response: NetworkVolumeV2Schema }),
  getNetworkVolume: op()({ method: "GET", path: "/network-volumes/{id}", response: NetworkVolumeV2Schema }),
  updateNetworkVolume: op<UpdateNetworkVolumeRequestV2>()({
    method: "PATCH",
    path: "/network-volumes/{id}",
    response: NetworkVolumeV2Schema,
  }),
  deleteNetworkVolume: op()({ method: "DELETE", path: "/network-volumes/{id}" }),

  listRegistries: op()({ method: "GET", path: "/registries", list: { paged: false, key: "registries", item: RegistryV2Schema } }),
  createRegistry: op<CreateRegistryRequestV2>()({ method: "POST", path: "/registries", response: RegistryV2Schema }),
  getRegistry: op()({ method: "GET", path: "/registries/{id}", response: RegistryV2Schema }),
  deleteRegistry: op()({ method: "DELETE", path: "/registries/{id}" }),

  getSshKeys: op()({ method: "GET", path: "/account/ssh-keys", response: SshKeysV2Schema }),
  updateSshKeys: op<UpdateSshKeysRequestV2>()({ method: "PUT", path: "/account/ssh-keys", response: SshKeysV2Schema }),

  getAccountLimits: op()({ method: "GET", path: "/account/limits", response: AccountLimitsV2Schema }),
  listSecrets: op()({ method: "GET", path: "/account/secrets", list: { paged: false, key: "secrets", item: SecretV2Schema } }),
  createSecret: op<SecretCreateBody>()({ method: "POST", path: "/account/secrets", response: SecretV2Schema }),
  getSecret: op()({ method: "GET", path: "/account/secrets/{id}", response: SecretV2Schema }),
  updateSecret: op<SecretUpdateBody>()({ method: "PATCH", path: "/account/secrets/{id}", response: SecretV2Schema }),
  deleteSecret: op()({ method: "DELETE", path: "/account/secrets/{id}" }),

  listGpuTypes: op()({ method: "GET", path: "/catalog/gpus", response: GpuTypeListV2Schema }),
  listCpuTypes: op()({ method: "GET", path: "/catalog/cpus", response: CpuTypeListV2Schema }),
  listDataCenters: op()({ method: "GET", path: "/catalog/datacenters", response: DataCenterListV2Schema }),
  // A bare list ("capped, curated", at most 100): no pagination (management-api-v2-today.md 1.2).
  listPublicTemplates: op()({ method: "GET", path: "/catalog/templates", response: PublicTemplateListV2Schema }),

  listBilling: op()({ method: "GET", path: "/billing", response: AccountBillingV2Schema }),
  listPodBilling: op()({ method: "GET", path: "/billing/pods", response: PodBillingV2Schema }),
  listServerlessBilling: op()({ method: "GET", path: "/billing/serverless", response: ServerlessBillingV2Schema }),
  listNetworkVolumeBilling: op()({ method: "GET", path: "/billing/network-volumes", response: NetworkVolumeBillingV2Schema }),
  listEndpointBilling: op()({ method: "GET", path: "/billing/endpoints", response: PublicEndpointBillingV2Schema }),
  listClusterBilling: op()({ method: "GET", path: "/billing/clusters", response: ClusterBillingV2Schema }),
} as const;

export type OperationIdV2 = keyof typeof OPERATIONS_V2;
type Row<O extends OperationIdV2> = (typeof OPERATIONS_V2)[O];

/** The request body an operation takes (never: none). */
export type RequestOf<O extends OperationIdV2> = Row<O> extends { readonly __body?: infer B } ? B : never;
/** The parsed answer of an operation (void: none; a list's items for a list read whole). */
export type ResponseOf<O extends OperationIdV2> =
  Row<O> extends { readonly response: infer S extends z.ZodType }
    ? z.output<S>
    : Row<O> extends { readonly list: { readonly item: infer I extends z.ZodType } }
      ? Array<z.output<I>>
      : // biome-ignore lint/suspicious/noConfusingVoidType: an operation without an answer body resolves to nothing
        void;

type HasId<O extends OperationIdV2> = Row<O>["path"] extends `${string}{id}${string}` ? true : false;

/** What a call of `O` takes: the id when its path has one, the body when it has one, a query for reads. */
export type CallV2<O extends OperationIdV2> = (HasId<O> extends true ? { id: string } : { id?: never }) &
  ([RequestOf<O>] extends [never] ? { body?: never } : { body: RequestOf<O> }) & {
    query?: Readonly<Record<string, QueryValue>> | undefined;
    /** Safe to repeat (the transport may retry it); GETs, PATCHes and DELETEs always are. */
    idempotent?: boolean;
    /** Strings of the body no error may carry (an account secret's value). */
    redact?: readonly string[];
    /** For a list read whole: called with each first page's whole answer (what it carries beside its items). */
    firstPage?: (body: Readonly<Record<string, unknown>>) => void;
  };

/** The path of a call: the template with the id put in (checked: a bad id rejects, as every call's failures do). */
function pathOf(operation: string, template: string, id: string | undefined): string {
  if (!template.includes("{id}")) return template;
  const [before = "", after = ""] = template.split("{id}");
  return `${before}${encodeURIComponent(requireId(operation, id ?? ""))}${after}`;
}

/** Calls one operation of the table, in its own types. */
export async function callV2<O extends OperationIdV2>(transport: Transport, operation: O, call: CallV2<O>): Promise<ResponseOf<O>> {
  const row: OperationRow = OPERATIONS_V2[operation];
  const name = row.operationId ?? operation;
  const path = pathOf(name, row.path, call.id);
  const base = {
    method: row.method,
    path,
    operation: name,
    query: call.query,
    body: call.body,
    idempotent: call.idempotent,
    redact: call.redact,
  };
  if (row.list !== undefined) {
    const list = { path, operation: name, query: call.query, firstPage: call.firstPage, ...row.list };
    return (await readAllPages(transport, list)) as ResponseOf<O>;
  }
  if (row.response === undefined) {
    await transport.requestVoid(base);
    return undefined as ResponseOf<O>;
  }
  return (await transport.request({ ...base, schema: row.response })) as ResponseOf<O>;
}
