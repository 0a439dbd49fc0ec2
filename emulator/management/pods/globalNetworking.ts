/**
 * Who may have global networking. CreatePodRequest.globalNetworking and UpdatePodRequest
 * .globalNetworking alike: "Requires an NVIDIA GPU and a global-networking-enabled data center
 * (both enforced upstream)". A create narrows its data centers to those that offer it; an update
 * finds the pod where it runs. Both refuse the same way (400 naming globalNetworking).
 */
import { manufacturerOf } from "../../vocabulary/catalog";
import { supportsGlobalNetworking } from "../../vocabulary/dataCenters";
import { invalid } from "../errors";

/**
 * Those of `dataCenterIds` that offer global networking to a pod on `gpuTypeId` (null: a CPU pod).
 * `none` says so when none of them does ("none of dataCenterIds supports global networking").
 */
export function globalNetworkingCenters(gpuTypeId: string | null | undefined, dataCenterIds: readonly string[], none: string): string[] {
  if (!gpuTypeId || manufacturerOf(gpuTypeId) !== "NVIDIA") throw invalid("globalNetworking", "global networking needs an NVIDIA GPU pod");
  const eligible = dataCenterIds.filter(supportsGlobalNetworking);
  if (eligible.length === 0) throw invalid("globalNetworking", `${none}; see globalNetwork in GET /api/v2/catalog/datacenters`);
  return eligible;
}
