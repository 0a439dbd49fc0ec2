// The NetworkVolume's specifics: found again by name, data center and size; it only grows; ready
// on create. A volume attached to a pod or endpoint cannot be deleted: the error names what holds it.

import type { NetworkVolume, NetworkVolumeCreateInput } from "../../client/schemas";
import type { ManagementApi } from "../../model/backend/port";
import { deleteIgnoringMissing, subjectOf, type ResourceSpec } from "./lifecycle";
import type { NetworkVolumeArgs } from "../../model/kinds/networkVolume/networkVolumeFields";
import { networkVolumeReader } from "../../model/kinds/networkVolume/networkVolumeReader";
import { messageOf } from "../../model/fields/values";
import { estimateNetworkVolume } from "../../model/cost/estimate";

export const networkVolumeSpec: ResourceSpec<NetworkVolumeArgs, NetworkVolume, NetworkVolumeCreateInput> = {
  ...networkVolumeReader,
  matches: (v, args) => v.name === args.name && v.dataCenterId === args.dataCenterId && v.size === args.size,
  create: (client, body) => client.networkVolumes.create(body),
  estimate: estimateNetworkVolume,
  update: (client, id, body) => client.networkVolumes.update(id, body),
  readBeforeUpdate: ({ body }) => body["size"] !== undefined,
  guard({ subject, live, args }) {
    if (typeof live?.size === "number" && args.size < live.size) {
      throw new Error(
        `${subject} is ${live.size} GB and cannot shrink to ${args.size} GB; a network volume can only grow. Set size to ${live.size} or more.`,
      );
    }
  },
  adoptRemedy: "A volume's data center is fixed: declare the live value to adopt it, or remove adoptId to create a new volume.",
  async delete({ client, id, subject }) {
    try {
      await deleteIgnoringMissing(() => client.networkVolumes.delete(id));
    } catch (error) {
      const holders = await holdersOf(client, id).catch(() => [] as string[]);
      const held =
        holders.length > 0
          ? ` It is attached to ${holders.join(", ")}: delete those or detach the volume from them first.`
          : " If a pod or endpoint uses it, delete that or detach the volume first.";
      throw new Error(`${subject} cannot be deleted: ${messageOf(error)}.${held}`, { cause: error });
    }
  },
};

/** Pods and endpoints that reference the volume, as `pod "a" (id x)`. */
async function holdersOf(client: ManagementApi, volumeId: string): Promise<string[]> {
  const [pods, endpoints] = await Promise.all([
    client.pods.list({ networkVolumeId: volumeId, includeNetworkVolume: true }),
    client.endpoints.list(),
  ]);
  // Filtered here as well: a service that ignores the query filter must not make every pod a holder.
  const attached = (p: (typeof pods)[number]) => p.networkVolumeId === volumeId || p.networkVolume?.id === volumeId;
  return [
    ...pods.filter((p) => attached(p) && p.desiredStatus !== "TERMINATED").map((p) => subjectOf("pod", p.name, p.id)),
    ...endpoints
      .filter((e) => e.networkVolumeId === volumeId || (e.networkVolumeIds ?? []).includes(volumeId))
      .map((e) => subjectOf("endpoint", e.name, e.id)),
  ];
}
