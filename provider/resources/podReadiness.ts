// Waiting for a pod to be ready (model/kinds/pod/podReadiness.ts says when it is), with the last
// lines of its log when it does not become ready.

import type { Pod } from "../../client/schemas";
import type { ProviderDeps } from "./deps";
import type { PodArgs } from "../../model/kinds/pod/podFields";
import { podGoal, podPendingState, stateOf } from "../../model/kinds/pod/podReadiness";
import { POD_READ_INCLUDE } from "../../model/kinds/pod/podReader";
import { ReadinessTimeoutError, waitFor } from "./waitFor";
import { withLogNotes } from "../logNotes";

/**
 * Waits until the pod is ready (podGoal). A pod that cannot become ready (ERROR, terminated) or is
 * not ready by the deadline fails with the last lines of its log and how to read more (logNotes.ts).
 */
export async function waitForPod(deps: ProviderDeps, id: string, subject: string, args: PodArgs, timeoutSeconds: number): Promise<Pod> {
  try {
    return await waitUntilReady(deps, id, subject, args, timeoutSeconds);
  } catch (error) {
    if (!(error instanceof ReadinessTimeoutError)) throw error;
    const message = await withLogNotes(error.message, deps.logs?.(), [{ podId: id }]);
    throw message === error.message ? error : new ReadinessTimeoutError(message, error.last);
  }
}

function waitUntilReady(deps: ProviderDeps, id: string, subject: string, args: PodArgs, timeoutSeconds: number): Promise<Pod> {
  const client = deps.client();
  return waitFor(deps, {
    subject,
    goal: podGoal(args),
    timeoutSeconds,
    poll: () => client.pods.get(id, POD_READ_INCLUDE),
    pending: (pod) => podPendingState(args, pod),
    fatal: (pod) =>
      pod.desiredStatus === "TERMINATED"
        ? "the service terminated it"
        : stateOf(pod) === "ERROR" && (args.desiredStatus ?? "RUNNING") === "RUNNING"
          ? "the service reports status ERROR (the container failed to start); check its image, start command and logs"
          : undefined,
  });
}
