/**
 * Global volumes (/api/v2/global-volumes; management-api-v2-today.md section 4): a name and
 * nothing else. "leading/trailing whitespace is trimmed by the server", names are "not required to
 * be unique", and no field of a pod or endpoint can mount one (section 7), so nothing refers to a
 * global volume and a delete is never refused. The name's bounds are the request schema's
 * (vocabulary/schemas/v2/requests.ts), checked before these commands run.
 */
import { newId } from "../ids";
import type { AccountData, GlobalVolumeRecord } from "../state/model";
import type { ManagementContext } from "./context";
import { notFound } from "./errors";

export function globalVolumeOf(account: AccountData, id: string): GlobalVolumeRecord {
  const volume = account.globalVolumes.get(id);
  if (!volume) throw notFound("global volume");
  return volume;
}

export function createGlobalVolume(ctx: ManagementContext, account: AccountData, name: string): GlobalVolumeRecord {
  const volume: GlobalVolumeRecord = {
    id: newId("globalVolume", (candidate) => account.globalVolumes.has(candidate)),
    accountId: account.accountId,
    createdAtMs: ctx.clock.now(),
    name: name.trim(),
    createdByUserId: account.accountId,
  };
  account.globalVolumes.set(volume.id, volume);
  return volume;
}

/** The only change the reference defines: a new name (trimmed as at create). */
export function renameGlobalVolume(volume: GlobalVolumeRecord, name: string): GlobalVolumeRecord {
  volume.name = name.trim();
  return volume;
}

export function deleteGlobalVolume(account: AccountData, volume: GlobalVolumeRecord): void {
  account.globalVolumes.delete(volume.id);
}
