// The management port (port.ts) on the retired v1 API, kept for offline use and the brief's
// contract: the plain client, its fields already the provider's, as collections. Reads of one kind
// that arrive together are served by one list call where the connection shares reads
// (sharedReads.ts: the provider process's do). v1 lists take the same includes as its gets
// (includeWorkers, includeMachine, ...), so a read shares the list made with its own includes;
// lists filtered by anything else (a pod's name) stay plain calls.

import { ManagementClient } from "../../client/management";
import type { PodListFilter } from "../../client/schemas";
import type { Transport, TransportOptions } from "../../client/transport";
import type { Endpoints, ManagementApi, NetworkVolumes, Pods, RegistryAuths, Templates } from "./port";
import { readsOf, type KindReads, type ListedKind, type SharingOptions } from "./sharedReads";

export class V1Backend implements ManagementApi {
  readonly pods: Pods;
  readonly endpoints: Endpoints;
  readonly templates: Templates;
  readonly networkVolumes: NetworkVolumes;
  readonly registryAuths: RegistryAuths;
  readonly #client: ManagementClient;
  readonly #sharing: SharingOptions | false;
  /** Shared reads per kind and set of includes ("pods?includeMachine,includeNetworkVolume"). */
  readonly #kinds = new Map<string, KindReads<{ id: string }>>();

  /** `shareReads`: serve reads of one kind that arrive together by one list call (the provider process does). */
  constructor(transportOrOptions: Transport | TransportOptions, options: { shareReads?: SharingOptions | false } = {}) {
    const c = new ManagementClient(transportOrOptions);
    this.#client = c;
    this.#sharing = options.shareReads ?? false;
    this.pods = {
      create: (input) => c.createPod(input),
      list: (filter) => (onlyIncludes(filter) ? this.#reads("pods", filter, c.listPods, c.getPod).list() : c.listPods(filter)),
      get: (id, include) => this.#reads("pods", include, c.listPods, c.getPod).read(id),
      update: (id, input) => c.updatePod(id, input),
      delete: (id) => c.deletePod(id),
      start: (id) => c.startPod(id),
      stop: (id) => c.stopPod(id),
      reset: (id) => c.resetPod(id),
      restart: (id) => c.restartPod(id),
    };
    this.endpoints = {
      create: (input) => c.createEndpoint(input),
      list: (include) => this.#reads("endpoints", include, c.listEndpoints, c.getEndpoint).list(),
      get: (id, include) => this.#reads("endpoints", include, c.listEndpoints, c.getEndpoint).read(id),
      update: (id, input) => c.updateEndpoint(id, input),
      delete: (id) => c.deleteEndpoint(id),
      rollout: (id) => c.endpointRollout(id),
      deleteTerminatesWorkers: false,
    };
    this.templates = {
      create: (input) => c.createTemplate(input),
      list: (include) => this.#reads("templates", include, c.listTemplates, c.getTemplate).list(),
      get: (id, include) => this.#reads("templates", include, c.listTemplates, c.getTemplate).read(id),
      update: (id, input) => c.updateTemplate(id, input),
      delete: (id) => c.deleteTemplate(id),
    };
    this.networkVolumes = {
      create: (input) => c.createNetworkVolume(input),
      list: () => this.#reads("networkvolumes", undefined, c.listNetworkVolumes, c.getNetworkVolume).list(),
      get: (id) => this.#reads("networkvolumes", undefined, c.listNetworkVolumes, c.getNetworkVolume).read(id),
      update: (id, input) => c.updateNetworkVolume(id, input),
      delete: (id) => c.deleteNetworkVolume(id),
    };
    this.registryAuths = {
      create: (input) => c.createRegistryAuth(input),
      list: () => this.#reads("containerregistryauth", undefined, c.listRegistryAuths, c.getRegistryAuth).list(),
      get: (id) => this.#reads("containerregistryauth", undefined, c.listRegistryAuths, c.getRegistryAuth).read(id),
      delete: (id) => c.deleteRegistryAuth(id),
    };
  }

  close(): Promise<void> {
    return this.#client.close();
  }

  /**
   * The one reader of a kind with these includes, shared or plain (made on first use). `list` and
   * `get` are the client's own methods, called on it with the include flags that are set.
   */
  #reads<T extends { id: string }, I extends object>(
    kind: string,
    include: I | undefined,
    list: (this: ManagementClient, include: I) => Promise<T[]>,
    get: (this: ManagementClient, id: string, include: I) => Promise<T>,
  ): KindReads<T> {
    const flags = includeFlags(include);
    const key = `${kind}?${Object.keys(flags).join(",")}`;
    let reads = this.#kinds.get(key);
    if (!reads) {
      const calls: ListedKind<T> = { list: () => list.call(this.#client, flags), get: (id) => get.call(this.#client, id, flags) };
      reads = readsOf(calls, this.#sharing);
      this.#kinds.set(key, reads);
    }
    // The key names the kind, and each key is only ever made from that kind's calls.
    return reads as KindReads<T>;
  }
}

/** The include flags that are set, as one query (and, through its keys, one kind key). */
function includeFlags<I extends object>(include: I | undefined): I {
  const flags: Partial<Record<string, true>> = {};
  for (const [key, value] of Object.entries(include ?? {}).sort(([a], [b]) => a.localeCompare(b))) if (value === true) flags[key] = true;
  // Only keys of I, each kept with its own value (true).
  return flags as I;
}

/** A pod list query that only asks for includes (no filter), so it lists every pod like a shared read's list. */
function onlyIncludes(filter: PodListFilter | undefined): boolean {
  return Object.entries(filter ?? {}).every(([key, value]) => value === undefined || key.startsWith("include"));
}
