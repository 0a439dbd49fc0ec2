// When an endpoint counts as ready: it exists and at least workersMin workers are up. With
// workersMin 0 (the default) that is at once, since workers start only when jobs arrive. The wait
// itself is the provider's (provider/resources/endpointReadiness.ts).
//
// The management API shows workers as pods (includeWorkers). A worker counts once it reports
// desiredStatus RUNNING and its last status change does not say it is still initializing or
// unhealthy (the service words these events in lastStatusChange).

import type { Endpoint, Pod } from "../../../client/schemas";
import type { RolloutState } from "../../backend/port";

export function isWorkerUp(worker: Pod): boolean {
  if (worker.desiredStatus !== undefined && worker.desiredStatus !== "RUNNING") return false;
  return !/initiali[sz]|unhealthy|throttled/i.test(worker.lastStatusChange ?? "");
}

export function workersUp(endpoint: Endpoint): number {
  return (endpoint.workers ?? []).filter(isWorkerUp).length;
}

export function endpointPendingState(workersMin: number, endpoint: Endpoint): string | undefined {
  const up = workersUp(endpoint);
  return up >= workersMin ? undefined : `${up} of ${workersMin} minimum workers up`;
}

/** Where the API reports rollouts (v2): how far the latest release is from every worker. */
export function rolloutPendingState(rollout: RolloutState | undefined): string | undefined {
  if (!rollout?.inProgress) return undefined;
  return `rolling out the latest release: ${rollout.workersOnLatest} of ${rollout.workersTotal} workers on it`;
}
