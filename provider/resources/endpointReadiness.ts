// When an endpoint counts as ready: it exists and at least workersMin workers are up. With
// workersMin 0 (the default) that is at once, since workers start only when jobs arrive.
//
// The management API shows workers as pods (includeWorkers). A worker counts once it reports
// desiredStatus RUNNING and its last status change does not say it is still initializing or
// unhealthy (the service words these events in lastStatusChange).

import type { Endpoint, Pod } from "../../client/schemas";
import type { RolloutState } from "../../model/backend/port";
import type { ProviderDeps } from "./deps";
import { waitFor } from "./waitFor";

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

/**
 * Waits until the endpoint is ready. `known` is the endpoint as the call that just created or
 * updated it answered: when readiness asks nothing but that it exists (workersMin 0, no rollout to
 * follow), that answer is the ready endpoint and no read is made.
 */
export async function waitForEndpoint(
  deps: ProviderDeps,
  id: string,
  subject: string,
  workersMin: number,
  timeoutSeconds: number,
  options: { rollout?: boolean; known?: Endpoint | undefined } = {},
): Promise<Endpoint> {
  const client = deps.client();
  const rolloutOf = options.rollout === false ? undefined : client.endpointRollout?.bind(client);
  if (options.known && workersMin === 0 && !rolloutOf) return options.known;
  return waitFor(deps, {
    subject,
    goal:
      workersMin > 0
        ? `running its ${workersMin} minimum workers${rolloutOf ? " on the latest release" : ""}`
        : rolloutOf
          ? "rolled out to every worker"
          : "available",
    timeoutSeconds,
    poll: async () => {
      const endpoint = await client.getEndpoint(id, { includeWorkers: workersMin > 0 });
      return rolloutOf ? { ...endpoint, rollout: await rolloutOf(id) } : endpoint;
    },
    pending: (endpoint) =>
      endpointPendingState(workersMin, endpoint) ?? rolloutPendingState((endpoint as { rollout?: RolloutState }).rollout),
  });
}

/** After scale-to-0: waits (within the deadline) until no worker is left, so a delete is accepted. */
export function waitForNoWorkers(deps: ProviderDeps, id: string, subject: string, timeoutSeconds: number): Promise<Endpoint> {
  const client = deps.client();
  return waitFor(deps, {
    subject,
    goal: "without workers",
    timeoutSeconds,
    poll: () => client.getEndpoint(id, { includeWorkers: true }),
    pending: (endpoint) => ((endpoint.workers ?? []).length === 0 ? undefined : `${(endpoint.workers ?? []).length} workers left`),
  });
}
