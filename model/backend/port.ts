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

export interface ManagementApi {
  createPod(input: PodCreateInput): Promise<Pod>;
  /** Every pod, or those the filter names (a backend whose lists take no filter applies it itself). */
  listPods(filter?: PodListFilter): Promise<Pod[]>;
  getPod(id: string, include?: PodInclude): Promise<Pod>;
  updatePod(id: string, input: PodUpdateInput): Promise<Pod>;
  deletePod(id: string): Promise<void>;
  startPod(id: string): Promise<void>;
  stopPod(id: string): Promise<void>;
  resetPod(id: string): Promise<void>;
  restartPod(id: string): Promise<void>;

  /** `env`: v2 only, the endpoint's own env (its owner's marker); v1 endpoints have none and never get it. */
  createEndpoint(input: EndpointCreateInput & EndpointTypeInput & { env?: Record<string, string> }): Promise<Endpoint>;
  listEndpoints(include?: EndpointInclude): Promise<Endpoint[]>;
  getEndpoint(id: string, include?: EndpointInclude): Promise<Endpoint>;
  /** The type is fixed; it is given so that a renamed endpoint keeps it. */
  updateEndpoint(id: string, input: EndpointUpdateInput & EndpointTypeInput): Promise<Endpoint>;
  deleteEndpoint(id: string): Promise<void>;
  /** The rollout of the endpoint's latest release (v2 reports it; v1 derives it from its workers). */
  endpointRollout?(id: string): Promise<RolloutState>;
  /** Deleting an endpoint terminates its workers itself (v2): no scale-to-0 first. */
  readonly deleteTerminatesWorkers?: boolean;

  createTemplate(input: TemplateCreateInput): Promise<Template>;
  listTemplates(include?: TemplateInclude): Promise<Template[]>;
  getTemplate(id: string, include?: TemplateInclude): Promise<Template>;
  updateTemplate(id: string, input: TemplateUpdateInput): Promise<Template>;
  deleteTemplate(id: string): Promise<void>;

  createNetworkVolume(input: NetworkVolumeCreateInput): Promise<NetworkVolume>;
  listNetworkVolumes(): Promise<NetworkVolume[]>;
  getNetworkVolume(id: string): Promise<NetworkVolume>;
  updateNetworkVolume(id: string, input: NetworkVolumeUpdateInput): Promise<NetworkVolume>;
  deleteNetworkVolume(id: string): Promise<void>;

  createRegistryAuth(input: ContainerRegistryAuthCreateInput): Promise<ContainerRegistryAuth>;
  listRegistryAuths(): Promise<ContainerRegistryAuth[]>;
  getRegistryAuth(id: string): Promise<ContainerRegistryAuth>;
  deleteRegistryAuth(id: string): Promise<void>;

  /** The price catalog's lists, where the API has one (v2). */
  catalogLists?(): Promise<CatalogLists>;
  /** The account's secrets, where the API has them (v2). */
  readonly secrets?: SecretsV2;
  /** The account's limits, where the API has them (v2; the key needs the scope `account:read`). */
  accountLimits?(): Promise<AccountLimitsV2>;
  /** The account's registered SSH public keys, where the API has them (v2). */
  sshKeys?(): Promise<string[]>;
  /** Replaces the account's registered SSH public keys with these (v2); answers the list in force. */
  replaceSshKeys?(keys: readonly string[]): Promise<string[]>;
}

/** The port's secrets calls, or an error saying they need v2 (check refuses v1 first; this is the backstop). */
export function secretsOf(api: ManagementApi): SecretsV2 {
  if (api.secrets === undefined) {
    throw new Error("account secrets need the service's v2 API: set gpucloud:apiUrl (or GPUCLOUD_API_URL) to the management API's /v2 URL");
  }
  return api.secrets;
}
