// How a pod is read: with its machine and network volume, and gone once terminated.
import type { Pod } from "../../../client/schemas";
import type { KindReader } from "../kindReader";
import { podTable, type PodArgs } from "./podFields";

/** Reads with the machine and network volume so that outputs (data center, GPU type) are complete. */
export const POD_READ_INCLUDE = { includeMachine: true, includeNetworkVolume: true } as const;

export const podReader: KindReader<Pod, PodArgs> = {
  table: podTable,
  get: (api, id) => api.pods.get(id, POD_READ_INCLUDE),
  gone: (pod) => pod.desiredStatus === "TERMINATED",
  list: (api) => api.pods.list(),
};
