// A v2 pod's actions (start, stop, restart): which one gets the pod where it is meant to go, given
// its status and the actions it allows now, and whether a pod read after a failed or refused action
// is there anyway. The v2 backend (model/backend/v2Backend.ts) sends them.

import type { PodActionV2 } from "../../../client/managementV2";
import type { PodV2 } from "../../../client/schemasV2";

const BOOTING = new Set(["PROVISIONING", "STARTING"]);

/** A pod on its way up (PROVISIONING, STARTING): it takes stop and terminate, not restart (podAction). */
export function isBooting(status: string | undefined): boolean {
  return BOOTING.has(status ?? "");
}

/**
 * The action that gets the pod where `wanted` means to, given its status and `actions` (podAction:
 * `RUNNING` allows stop/restart/terminate; `EXITED` and `ERROR` allow start/terminate;
 * `PROVISIONING` and `STARTING` allow stop/terminate), or undefined when it is there already:
 * start a pod that runs or boots: nothing; restart a stopped or failed pod: start it; restart a
 * booting pod: nothing (it is getting a fresh container already); stop a stopped one: nothing.
 */
export function chooseAction(wanted: PodActionV2, pod: PodV2): PodActionV2 | undefined {
  const actions = pod.actions ?? [];
  if (actions.includes(wanted)) return wanted;
  const status = pod.status ?? "";
  if (wanted === "start" && (status === "RUNNING" || BOOTING.has(status))) return undefined;
  if (wanted === "stop" && status === "EXITED") return undefined;
  if (wanted === "restart" && actions.includes("start")) return "start";
  if (wanted === "restart" && BOOTING.has(status)) return undefined;
  // The list may be absent (an older host): send what was asked and let a 409 be read as below.
  if (pod.actions === undefined) return wanted;
  throw new Error(
    `pod ${pod.id} is ${status || "in an unknown status"}, which allows ${actions.join(", ") || "no action"}, not ${wanted}; wait for it to settle and run again`,
  );
}

/** Whether the pod read after a failed or refused action is where the action was taking it. */
export function actionDone(action: PodActionV2, before: PodV2, after: PodV2): boolean {
  const status = after.status ?? "";
  if (action === "stop") return status === "EXITED";
  if (action === "start") return status === "RUNNING" || BOOTING.has(status);
  // A restart went through when the container started again since (or is booting).
  return BOOTING.has(status) || (status === "RUNNING" && after.startedAt !== undefined && after.startedAt !== before.startedAt);
}
