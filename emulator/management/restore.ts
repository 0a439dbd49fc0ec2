/**
 * Bringing a saved state back: records as saved; billing intervals that were open at save time
 * are closed at that time (emulator downtime is not billed) and reopened now; RUNNING pods take
 * their capacity again and boot again; the job side learns every endpoint again.
 */
import { indexOpenIntervals, openVolumeUsage } from "../billing/ledger";
import type { LoadedState } from "../state/snapshot";
import type { ManagementContext } from "./context";
import { endpointSpec } from "./endpoints/spec";
import { restoreRunningPod } from "./pods/lifecycle";

export function restoreState(ctx: ManagementContext, loaded: LoadedState): void {
  for (const account of loaded.accounts) {
    ctx.store.accounts.set(account.accountId, account);
    for (const interval of [...account.ledger.pods, ...account.ledger.volumes]) {
      if (interval.endMs === null) interval.endMs = Math.max(interval.startMs, loaded.savedAtMs);
    }
    indexOpenIntervals(account);
    for (const pod of account.pods.values()) if (pod.desiredStatus === "RUNNING") restoreRunningPod(ctx, account, pod);
    const now = ctx.clock.now();
    for (const volume of account.networkVolumes.values()) openVolumeUsage(account, volume, now);
  }
  for (const account of ctx.store.accounts.values()) {
    for (const endpoint of account.endpoints.values()) ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  }
}
