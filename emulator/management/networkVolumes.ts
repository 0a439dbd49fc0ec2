/**
 * Network volumes (v1 /networkvolumes, v2 /network-volumes). The data center and the tier are
 * fixed at create; the size only grows (NOTES.md section 1: "size can only grow"; v2
 * updateNetworkVolume: "`size` may only increase"); a volume attached to a pod or an endpoint
 * cannot be deleted (409 naming the attachment; NOTES.md section 1). Storage accrues billing per
 * GB held, from create to delete.
 */
import { closeUsage, openVolumeUsage } from "../billing/ledger";
import { newId } from "../ids";
import type { AccountData, NetworkVolumeRecord } from "../state/model";
import { type VolumeTier, isDataCenter, primaryVolumeTypeOf, volumeTypesOf } from "../vocabulary/dataCenters";
import type { ManagementContext } from "./context";
import { conflict, invalid } from "./errors";

export interface NetworkVolumeCreation {
  name: string;
  size: number;
  dataCenterId: string;
  /**
   * The storage tier (v2 only: a /v1 volume keeps none and reads back with its data center's
   * primary one). "primary": CreateNetworkVolumeRequest.type, "When omitted, the volume is
   * provisioned using the requested data center's default (primary) storage tier."
   */
  type?: VolumeTier | "primary" | undefined;
}

/** The tier a v2 create asks for, in a data center that offers it (400 otherwise, naming the field). */
function tierOf(dataCenterId: string, asked: VolumeTier | "primary"): VolumeTier {
  if (!isDataCenter(dataCenterId))
    throw invalid("dataCenter", `unknown data center ${JSON.stringify(dataCenterId)}; list them with GET /api/v2/catalog/datacenters`);
  const type = asked === "primary" ? primaryVolumeTypeOf(dataCenterId) : asked;
  if (type === undefined)
    throw invalid("dataCenter", `${dataCenterId} offers no network volumes; pick a data center whose networkVolumeTypes is not empty`);
  const offered = volumeTypesOf(dataCenterId);
  if (!offered.includes(type))
    throw invalid("type", `${dataCenterId} offers ${offered.join(", ")} volumes, not ${type}; pick another data center or type`);
  return type;
}

export function createNetworkVolume(ctx: ManagementContext, account: AccountData, creation: NetworkVolumeCreation): NetworkVolumeRecord {
  const type = creation.type === undefined ? undefined : tierOf(creation.dataCenterId, creation.type);
  const now = ctx.clock.now();
  const volume: NetworkVolumeRecord = {
    id: newId("networkVolume", (candidate) => account.networkVolumes.has(candidate)),
    accountId: account.accountId,
    createdAtMs: now,
    name: creation.name,
    size: creation.size,
    dataCenterId: creation.dataCenterId,
  };
  if (type !== undefined) volume.type = type;
  account.networkVolumes.set(volume.id, volume);
  openVolumeUsage(account, volume, now);
  return volume;
}

/** A volume's tier: its own, or (made through /v1, which keeps none) its data center's primary one. */
export function volumeTierOf(volume: NetworkVolumeRecord): VolumeTier {
  return volume.type ?? primaryVolumeTypeOf(volume.dataCenterId) ?? "STANDARD";
}

export function updateNetworkVolume(
  ctx: ManagementContext,
  account: AccountData,
  volume: NetworkVolumeRecord,
  change: { name?: string | undefined; size?: number | undefined },
): NetworkVolumeRecord {
  if (change.size !== undefined && change.size < volume.size) {
    throw invalid("size", `a network volume can only grow; ${volume.id} has ${volume.size} GB, requested ${change.size}`);
  }
  if (change.name !== undefined) volume.name = change.name;
  if (change.size !== undefined && change.size !== volume.size) {
    volume.size = change.size;
    openVolumeUsage(account, volume, ctx.clock.now()); // closes the interval at the old size
  }
  return volume;
}

/** What a volume is attached to: "pod <id>", "endpoint <id>". */
export function attachments(account: AccountData, volumeId: string): string[] {
  const found: string[] = [];
  for (const pod of account.pods.values()) if (pod.networkVolumeId === volumeId) found.push(`pod ${pod.id}`);
  for (const endpoint of account.endpoints.values()) {
    if (endpoint.networkVolumeId === volumeId || endpoint.networkVolumeIds?.includes(volumeId)) found.push(`endpoint ${endpoint.id}`);
  }
  return found;
}

export function deleteNetworkVolume(ctx: ManagementContext, account: AccountData, volume: NetworkVolumeRecord): void {
  const users = attachments(account, volume.id);
  if (users.length > 0) throw conflict(`network volume ${volume.id} is attached to ${users.join(", ")}; delete or detach them first`);
  account.networkVolumes.delete(volume.id);
  closeUsage(account, volume.id, ctx.clock.now());
}
