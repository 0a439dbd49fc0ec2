// The management API of the provider process, made before it is needed and opened on its first
// call: the clients, the transport (undici) and the v2 wire schemas load then (openApi.ts), so a
// process that never calls the service (a preview of unchanged resources) never loads them. Every
// call of the port is async, so each forwards once the backend is open. The port's synchronous
// members are known from the API version alone: v2 has the account's secrets (forwarded the same
// way), the catalog, the limits and the SSH keys, and its deletes terminate an endpoint's workers;
// v1 has none of them. test/model/backend/lazyApi.test.ts holds these equal to the backends'.

import type { ApiVersion } from "../../client/config";
import type { SecretsV2 } from "../../client/managementV2";
import type { TransportOptions } from "../../client/transport";
import type { OpenedApi, Sharing } from "./openApi";
import type { ManagementApi } from "./port";
import type { V2Backend } from "./v2Backend";

/** What both backends have: the port, with the rollout of an endpoint's release. */
type CommonApi = ManagementApi & Required<Pick<ManagementApi, "endpointRollout">>;

/** Opens the backend on the first call, once; a failure to open fails that call (and is tried again by the next). */
function opener<Api extends ManagementApi>(open: () => Promise<OpenedApi<Api>>): { api(): Promise<Api>; close(): Promise<void> } {
  let opened: Promise<OpenedApi<Api>> | undefined;
  const openOnce = (): Promise<OpenedApi<Api>> => {
    opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    api: async () => (await openOnce()).api,
    close: async () => {
      const open = opened;
      opened = undefined;
      // An open that failed has nothing to close (its error reached the call that started it).
      if (open)
        await open.then(
          (o) => o.close(),
          () => undefined,
        );
    },
  };
}

class LazyApi implements CommonApi {
  readonly #api: () => Promise<CommonApi>;

  constructor(api: () => Promise<CommonApi>) {
    this.#api = api;
  }

  #call<T>(use: (api: CommonApi) => Promise<T>): Promise<T> {
    return this.#api().then(use);
  }

  createPod: CommonApi["createPod"] = (...a) => this.#call((api) => api.createPod(...a));
  listPods: CommonApi["listPods"] = (...a) => this.#call((api) => api.listPods(...a));
  getPod: CommonApi["getPod"] = (...a) => this.#call((api) => api.getPod(...a));
  updatePod: CommonApi["updatePod"] = (...a) => this.#call((api) => api.updatePod(...a));
  deletePod: CommonApi["deletePod"] = (...a) => this.#call((api) => api.deletePod(...a));
  startPod: CommonApi["startPod"] = (...a) => this.#call((api) => api.startPod(...a));
  stopPod: CommonApi["stopPod"] = (...a) => this.#call((api) => api.stopPod(...a));
  resetPod: CommonApi["resetPod"] = (...a) => this.#call((api) => api.resetPod(...a));
  restartPod: CommonApi["restartPod"] = (...a) => this.#call((api) => api.restartPod(...a));

  createEndpoint: CommonApi["createEndpoint"] = (...a) => this.#call((api) => api.createEndpoint(...a));
  listEndpoints: CommonApi["listEndpoints"] = (...a) => this.#call((api) => api.listEndpoints(...a));
  getEndpoint: CommonApi["getEndpoint"] = (...a) => this.#call((api) => api.getEndpoint(...a));
  updateEndpoint: CommonApi["updateEndpoint"] = (...a) => this.#call((api) => api.updateEndpoint(...a));
  deleteEndpoint: CommonApi["deleteEndpoint"] = (...a) => this.#call((api) => api.deleteEndpoint(...a));
  endpointRollout: CommonApi["endpointRollout"] = (...a) => this.#call((api) => api.endpointRollout(...a));

  createTemplate: CommonApi["createTemplate"] = (...a) => this.#call((api) => api.createTemplate(...a));
  listTemplates: CommonApi["listTemplates"] = (...a) => this.#call((api) => api.listTemplates(...a));
  getTemplate: CommonApi["getTemplate"] = (...a) => this.#call((api) => api.getTemplate(...a));
  updateTemplate: CommonApi["updateTemplate"] = (...a) => this.#call((api) => api.updateTemplate(...a));
  deleteTemplate: CommonApi["deleteTemplate"] = (...a) => this.#call((api) => api.deleteTemplate(...a));

  createNetworkVolume: CommonApi["createNetworkVolume"] = (...a) => this.#call((api) => api.createNetworkVolume(...a));
  listNetworkVolumes: CommonApi["listNetworkVolumes"] = (...a) => this.#call((api) => api.listNetworkVolumes(...a));
  getNetworkVolume: CommonApi["getNetworkVolume"] = (...a) => this.#call((api) => api.getNetworkVolume(...a));
  updateNetworkVolume: CommonApi["updateNetworkVolume"] = (...a) => this.#call((api) => api.updateNetworkVolume(...a));
  deleteNetworkVolume: CommonApi["deleteNetworkVolume"] = (...a) => this.#call((api) => api.deleteNetworkVolume(...a));

  createRegistryAuth: CommonApi["createRegistryAuth"] = (...a) => this.#call((api) => api.createRegistryAuth(...a));
  listRegistryAuths: CommonApi["listRegistryAuths"] = (...a) => this.#call((api) => api.listRegistryAuths(...a));
  getRegistryAuth: CommonApi["getRegistryAuth"] = (...a) => this.#call((api) => api.getRegistryAuth(...a));
  deleteRegistryAuth: CommonApi["deleteRegistryAuth"] = (...a) => this.#call((api) => api.deleteRegistryAuth(...a));
}

/** v2's own members, forwarded the same way. */
class LazyApiV2 extends LazyApi {
  readonly #v2: () => Promise<V2Backend>;

  constructor(api: () => Promise<V2Backend>) {
    super(api);
    this.#v2 = api;
  }

  #call<T>(use: (api: V2Backend) => Promise<T>): Promise<T> {
    return this.#v2().then(use);
  }

  readonly deleteTerminatesWorkers = true;
  readonly secrets: SecretsV2 = {
    create: (...a) => this.#call((api) => api.secrets.create(...a)),
    list: (...a) => this.#call((api) => api.secrets.list(...a)),
    get: (...a) => this.#call((api) => api.secrets.get(...a)),
    update: (...a) => this.#call((api) => api.secrets.update(...a)),
    delete: (...a) => this.#call((api) => api.secrets.delete(...a)),
  };
  catalogLists: V2Backend["catalogLists"] = (...a) => this.#call((api) => api.catalogLists(...a));
  accountLimits: V2Backend["accountLimits"] = (...a) => this.#call((api) => api.accountLimits(...a));
  sshKeys: V2Backend["sshKeys"] = (...a) => this.#call((api) => api.sshKeys(...a));
  replaceSshKeys: V2Backend["replaceSshKeys"] = (...a) => this.#call((api) => api.replaceSshKeys(...a));
}

/** The management API of `version` for these settings, opened on its first call. */
export function lazyManagementApi(options: TransportOptions, version: ApiVersion, sharing: Sharing = {}): OpenedApi {
  if (version === "v2") {
    const v2 = opener(async () => (await import("./openApi")).openV2(options, sharing));
    return { api: new LazyApiV2(v2.api), close: v2.close };
  }
  const v1 = opener(async () => (await import("./openApi")).openV1(options, sharing));
  return { api: new LazyApi(v1.api), close: v1.close };
}
