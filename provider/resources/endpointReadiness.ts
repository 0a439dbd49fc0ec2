// Waiting for an endpoint to be ready (model/kinds/endpoint/endpointReadiness.ts says when it is),
// and for its workers to be gone before a delete.

import type { Endpoint } from "../../client/schemas";
import type { RolloutState } from "../../model/backend/port";
import { endpointPendingState, rolloutPendingState } from "../../model/kinds/endpoint/endpointReadiness";
import type { ProviderDeps } from "./deps";
import { waitFor } from "./waitFor";

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
  const rolloutOf = options.rollout === false ? undefined : client.endpoints.rollout?.bind(client);
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
      const endpoint = await client.endpoints.get(id, { includeWorkers: workersMin > 0 });
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
    poll: () => client.endpoints.get(id, { includeWorkers: true }),
    pending: (endpoint) => ((endpoint.workers ?? []).length === 0 ? undefined : `${(endpoint.workers ?? []).length} workers left`),
  });
}
