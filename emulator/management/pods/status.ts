/**
 * A pod's status over service time and the actions it allows. One boot lasts the boot delay
 * (`bootDelayMs`): PROVISIONING for its first half, STARTING for the second, RUNNING once the pod
 * has its address; EXITED when stopped; ERROR once its container failed (a pod fault, `--faults
 * "pod: error=P"`, or the test hook `failPod`) until the next start. A deleted pod is gone (404).
 * /api/v2 shows both; /v1 shows only `desiredStatus` (a failed pod is EXITED there).
 */
import type { z } from "zod";
import type { PodRecord } from "../../state/model";
import type { PodAction, PodStatus } from "../../vocabulary/schemas/v2/requests";
import type { ManagementContext } from "../context";
import { isBooted } from "./lifecycle";

export type Status = z.infer<typeof PodStatus>;
export type Action = z.infer<typeof PodAction>;

export function podStatus(ctx: Pick<ManagementContext, "clock" | "options">, pod: PodRecord): Status {
  if (pod.error !== undefined && pod.desiredStatus === "EXITED") return "ERROR";
  if (pod.desiredStatus === "EXITED") return "EXITED";
  if (pod.desiredStatus === "TERMINATED") return "TERMINATED";
  const now = ctx.clock.now();
  // An injected failure whose timer has not run yet (it runs as soon as it can): already ERROR.
  if (pod.boot?.failsAtMs !== undefined && now >= pod.boot.failsAtMs) return "ERROR";
  if (isBooted(pod, now) || pod.boot === null) return "RUNNING";
  const bootStartMs = pod.boot.readyAtMs - ctx.options.bootDelayMs;
  return now - bootStartMs < ctx.options.bootDelayMs / 2 ? "PROVISIONING" : "STARTING";
}

/**
 * Which actions fit a status: 409 for the others (POST /pods/{id}/action). Reference (podAction):
 * "`RUNNING` allows `stop`/`restart`/`terminate`; `EXITED` and `ERROR` allow `start`/`terminate`;
 * `PROVISIONING` and `STARTING` allow `stop`/`terminate` [...] Requesting an action that is not
 * valid for the pod's current status returns `409`." A locked pod cannot be stopped (Pod.locked).
 */
export function podActions(status: Status, locked: boolean): Action[] {
  const stop: Action[] = locked ? [] : ["stop"];
  switch (status) {
    case "RUNNING":
      return [...stop, "restart", "terminate"];
    case "PROVISIONING":
    case "STARTING":
      return [...stop, "terminate"];
    case "EXITED":
    case "ERROR":
      return ["start", "terminate"];
    case "TERMINATED":
      return [];
  }
}
