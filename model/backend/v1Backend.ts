// The management port (port.ts) on the v1 API: the plain client, its fields already the provider's,
// with reads of one kind that arrive together served by one list call where the connection shares
// reads (sharedReads.ts: the provider process's do). v1 lists take the same includes as its gets
// (includeWorkers, includeMachine, ...), so a read shares the list made with its own includes;
// lists filtered by anything else (a pod's name) stay plain calls.

import { ManagementClient } from "../../client/management";
import type {
  ContainerRegistryAuth,
  Endpoint,
  EndpointInclude,
  NetworkVolume,
  Pod,
  PodInclude,
  PodListFilter,
  Template,
  TemplateInclude,
} from "../../client/schemas";
import type { Transport, TransportOptions } from "../../client/transport";
import type { ManagementApi } from "./port";
import { readsOf, type KindReads, type ListedKind, type SharingOptions } from "./sharedReads";

export class V1Backend extends ManagementClient implements ManagementApi {
  readonly #sharing: SharingOptions | false;
  /** Shared reads per kind and set of includes ("pods?includeMachine,includeNetworkVolume"). */
  readonly #kinds = new Map<string, KindReads<{ id: string }>>();

  /** `shareReads`: serve reads of one kind that arrive together by one list call (the provider process does). */
  constructor(transportOrOptions: Transport | TransportOptions, options: { shareReads?: SharingOptions | false } = {}) {
    super(transportOrOptions);
    this.#sharing = options.shareReads ?? false;
  }

  override getPod(id: string, include?: PodInclude): Promise<Pod> {
    return this.#pods(include).read(id);
  }

  override listPods(filter?: PodListFilter): Promise<Pod[]> {
    return onlyIncludes(filter) ? this.#pods(filter).list() : super.listPods(filter);
  }

  override getEndpoint(id: string, include?: EndpointInclude): Promise<Endpoint> {
    return this.#endpoints(include).read(id);
  }

  override listEndpoints(include?: EndpointInclude): Promise<Endpoint[]> {
    return this.#endpoints(include).list();
  }

  override getTemplate(id: string, include?: TemplateInclude): Promise<Template> {
    return this.#templates(include).read(id);
  }

  override listTemplates(include?: TemplateInclude): Promise<Template[]> {
    return this.#templates(include).list();
  }

  override getNetworkVolume(id: string): Promise<NetworkVolume> {
    return this.#volumes().read(id);
  }

  override listNetworkVolumes(): Promise<NetworkVolume[]> {
    return this.#volumes().list();
  }

  override getRegistryAuth(id: string): Promise<ContainerRegistryAuth> {
    return this.#registryAuths().read(id);
  }

  override listRegistryAuths(): Promise<ContainerRegistryAuth[]> {
    return this.#registryAuths().list();
  }

  #pods(include: PodInclude | undefined): KindReads<Pod> {
    const flags = includeFlags(include);
    return this.#shared(keyOf("pods", flags), () => ({ list: () => super.listPods(flags), get: (one) => super.getPod(one, flags) }));
  }

  #endpoints(include: EndpointInclude | undefined): KindReads<Endpoint> {
    const flags = includeFlags(include);
    return this.#shared(keyOf("endpoints", flags), () => ({
      list: () => super.listEndpoints(flags),
      get: (one) => super.getEndpoint(one, flags),
    }));
  }

  #templates(include: TemplateInclude | undefined): KindReads<Template> {
    const flags = includeFlags(include);
    return this.#shared(keyOf("templates", flags), () => ({
      list: () => super.listTemplates(flags),
      get: (one) => super.getTemplate(one, flags),
    }));
  }

  #volumes(): KindReads<NetworkVolume> {
    return this.#shared("networkvolumes", () => ({ list: () => super.listNetworkVolumes(), get: (one) => super.getNetworkVolume(one) }));
  }

  #registryAuths(): KindReads<ContainerRegistryAuth> {
    return this.#shared("containerregistryauth", () => ({
      list: () => super.listRegistryAuths(),
      get: (one) => super.getRegistryAuth(one),
    }));
  }

  /** The one reader of a kind, shared or plain (made on first use). */
  #shared<T extends { id: string }>(key: string, kind: () => ListedKind<T>): KindReads<T> {
    let reads = this.#kinds.get(key);
    if (!reads) {
      reads = readsOf(kind(), this.#sharing);
      this.#kinds.set(key, reads);
    }
    // The key names the kind, and each key is only ever made from that kind's calls.
    return reads as KindReads<T>;
  }
}

/** The include flags that are set, as one query (and, through its keys, one kind key). */
function includeFlags<I extends object>(include: I | undefined): Partial<Record<keyof I, true>> {
  const flags: Partial<Record<keyof I, true>> = {};
  for (const key of Object.keys(include ?? {}).sort() as (keyof I)[]) if (include?.[key] === true) flags[key] = true;
  return flags;
}

function keyOf(kind: string, flags: object): string {
  return `${kind}?${Object.keys(flags).join(",")}`;
}

/** A pod list query that only asks for includes (no filter), so it lists every pod like a shared read's list. */
function onlyIncludes(filter: PodListFilter | undefined): boolean {
  return Object.entries(filter ?? {}).every(([key, value]) => value === undefined || key.startsWith("include"));
}
