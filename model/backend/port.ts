// The port through which the model reaches the service's management API: every call the resources
// and the lookups make, in the provider's own field names (the service's v1 names, which the field
// tables keep), whichever API version serves them. Two implementations: V1Backend (the v1 API as
// it is) and V2Backend (each field through its table row's `v2` column); tests hand in fakes.

import type { EndpointRollout, EndpointTypeInput } from "../../client/management";
import type { SecretsV2 } from "../../client/managementV2";
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
  PodInclude,
  PodListFilter,
  PodUpdateInput,
  Template,
  TemplateCreateInput,
  TemplateInclude,
  TemplateUpdateInput,
} from "../../client/schemas";
import type { AccountLimitsV2 } from "../../client/schemasV2";
import type { CatalogLists } from "../cost/priceSheet";
import { GpuCloudError, nameErrorClass } from "../../client/gpuCloudError";

/**
 * A create that takes more than one call made its resource, and a later call failed (a v2 pod's
 * lock after its POST). The resource exists and bills: the caller records it (its id in the
 * stack, the step failed with the reason), never drops it.
 */
export class IncompleteCreateError<T extends { id: string } = { id: string }> extends GpuCloudError {
  readonly created: T;
  constructor(created: T, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.created = created;
  }
}
nameErrorClass(IncompleteCreateError, "IncompleteCreateError");

/** How far an endpoint's latest release has reached its workers. */
export type RolloutState = EndpointRollout;

/**
 * One kind's calls on the service: the collection every kind is. `GetOptions` are a read's
 * includes (v1 reads take them; v2 answers carry everything), `ListOptions` a list's filter.
 */
export interface Collection<Item extends { id: string }, CreateInput, UpdateInput, GetOptions = never, ListOptions = never> {
  create(input: CreateInput): Promise<Item>;
  /** Every item, or those the options name (a backend whose lists take no filter applies it itself). */
  list(options?: ListOptions): Promise<Item[]>;
  get(id: string, options?: GetOptions): Promise<Item>;
  update(id: string, input: UpdateInput): Promise<Item>;
  delete(id: string): Promise<void>;
}

/** The calls of a collection, by name: what the lazy wrapper forwards (lazyApi.ts). */
export const COLLECTION_CALLS = ["create", "list", "get", "update", "delete"] as const;

/** A pod's actions beyond CRUD. */
export interface PodActions {
  start(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  /** v1 only: a fresh container and disk (v2 has no reset; check refuses it first). */
  reset(id: string): Promise<void>;
  /** A pod that is not running is started instead (a restart trigger asks for a fresh container either way). */
  restart(id: string): Promise<void>;
}

export type Pods = Collection<Pod, PodCreateInput, PodUpdateInput, PodInclude, PodListFilter> & PodActions;

/** `env`: v2 only, the endpoint's own env (its owner's marker); v1 endpoints have none and never get it. */
export type EndpointCreate = EndpointCreateInput & EndpointTypeInput & { env?: Record<string, string> };
/** The type is fixed; it is given so that a renamed endpoint keeps it. */
export type EndpointUpdate = EndpointUpdateInput & EndpointTypeInput;

export type Endpoints = Collection<Endpoint, EndpointCreate, EndpointUpdate, EndpointInclude, EndpointInclude> & {
  /** The rollout of the endpoint's latest release (v2 reports it; v1 derives it from its workers). */
  rollout(id: string): Promise<RolloutState>;
  /** Deleting an endpoint terminates its workers itself (v2): no scale-to-0 first. */
  readonly deleteTerminatesWorkers: boolean;
};

export type Templates = Collection<Template, TemplateCreateInput, TemplateUpdateInput, TemplateInclude, TemplateInclude>;
export type NetworkVolumes = Collection<NetworkVolume, NetworkVolumeCreateInput, NetworkVolumeUpdateInput>;
/** Registry credentials have no update on either API: a change replaces them. */
export type RegistryAuths = Omit<Collection<ContainerRegistryAuth, ContainerRegistryAuthCreateInput, never>, "update">;

/** The account's reads and its one replace (v2 only). */
export interface Account {
  /** The price catalog's GPU types and CPU flavors (cost estimates read them once). */
  catalogLists(): Promise<CatalogLists>;
  /** The account's limits (the key needs the scope `account:read`). */
  limits(): Promise<AccountLimitsV2>;
  /** The account's registered SSH public keys. */
  sshKeys(): Promise<string[]>;
  /** Replaces the account's registered SSH public keys with these; answers the list in force. */
  replaceSshKeys(keys: readonly string[]): Promise<string[]>;
}

/** The calls of each collection and of the account, by name: what the lazy wrapper forwards. */
export const PORT_CALLS = {
  pods: [...COLLECTION_CALLS, "start", "stop", "reset", "restart"],
  endpoints: [...COLLECTION_CALLS, "rollout"],
  templates: COLLECTION_CALLS,
  networkVolumes: COLLECTION_CALLS,
  registryAuths: ["create", "list", "get", "delete"],
  secrets: COLLECTION_CALLS,
  account: ["catalogLists", "limits", "sshKeys", "replaceSshKeys"],
} as const satisfies { [K in keyof ManagementApi]-?: readonly (keyof NonNullable<ManagementApi[K]>)[] };

/** The calls of a part of the port (its function members). */
type CallsOf<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
/** Calls of the port that PORT_CALLS leaves out: none, or the check below fails to compile. */
type Unlisted = {
  [K in keyof typeof PORT_CALLS]: Exclude<CallsOf<NonNullable<ManagementApi[K]>>, (typeof PORT_CALLS)[K][number]>;
}[keyof typeof PORT_CALLS];
/** Takes only `never`: a call left out is named in the compiler's error. */
type NoneLeftOut<T extends never> = T;
type _PortCallsComplete = NoneLeftOut<Unlisted>;

/**
 * The management API as the model uses it: a collection per kind, the pod actions, and (v2 only)
 * the account's secrets and reads. Nothing else: a new kind is a new collection.
 */
export interface ManagementApi {
  readonly pods: Pods;
  readonly endpoints: Endpoints;
  readonly templates: Templates;
  readonly networkVolumes: NetworkVolumes;
  readonly registryAuths: RegistryAuths;
  /** The account's secrets, where the API has them (v2). */
  readonly secrets?: SecretsV2;
  /** The account's catalog, limits and SSH keys, where the API has them (v2). */
  readonly account?: Account;
}

/** The port's secrets calls, or an error saying they need v2 (check refuses v1 first; this is the backstop). */
export function secretsOf(api: ManagementApi): SecretsV2 {
  if (api.secrets === undefined) {
    throw new Error("account secrets need the service's v2 API: set gpucloud:apiUrl (or GPUCLOUD_API_URL) to the management API's /v2 URL");
  }
  return api.secrets;
}
