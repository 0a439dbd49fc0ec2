/**
 * What can happen to a pod after its create: start, stop, reset, restart, terminate. /v1 has one
 * route per action, each a no-op where there is nothing to do; /api/v2 has one route for all that
 * first asks the pod's status which actions fit (requireAction, 409 otherwise). Either way the
 * pod goes through the same transitions (lifecycle.ts): capacity, billing and boots.
 */
import type { AccountData, PodRecord } from "../../state/model";
import type { ManagementContext } from "../context";
import { NoCapacity, Refusal, conflict } from "../errors";
import { boot, markFailed, markRunning, markStopped, reserveForStart, statusEvent } from "./lifecycle";
import { type Action, podActions, podStatus } from "./status";

/** A locked pod refuses stop and reset, and an update that would reset it (400; Pod.locked). */
export function lockedRefusal(pod: PodRecord, action: string): Refusal {
  return new Refusal(400, `pod ${pod.id} is locked: ${action} is disabled while locked; unlock it first (PATCH {"locked": false})`);
}

/**
 * 409 unless the pod's status allows `action` (podAction: "Requesting an action that is not valid
 * for the pod's current status returns `409`"; pods/status.ts lists which). A container failure
 * that is due but whose timer has not run yet (it runs as soon as it can) is applied first: the
 * pod is in ERROR, and what it allows starts from there.
 */
export function requireAction(ctx: ManagementContext, account: AccountData, pod: PodRecord, action: Action): void {
  const status = podStatus(ctx, pod);
  if (status === "ERROR" && pod.desiredStatus === "RUNNING") {
    markFailed(ctx, account, pod, "container exited with an error");
    // Saved now: a refusal below is not a change the router saves, and the failure is one.
    ctx.changed();
  }
  const allowed = podActions(status, pod.locked);
  if (allowed.includes(action)) return;
  const detail =
    `action ${JSON.stringify(action)} does not fit pod ${pod.id} in status ${status}` +
    (pod.locked && action === "stop" ? ' (the pod is locked: unlock it with PATCH {"locked": false})' : "") +
    `; allowed now: ${allowed.length > 0 ? allowed.join(", ") : "none"}`;
  throw conflict(detail, [`invalid action: ${detail}`]);
}

/** Starts a stopped (or failed) pod on its machine: 409 without capacity there, 402 over the spend cap. */
export function startPod(ctx: ManagementContext, account: AccountData, pod: PodRecord, verb = "Started"): void {
  if (pod.desiredStatus === "RUNNING") return;
  reserveForStart(ctx, pod);
  markRunning(ctx, account, pod, verb);
}

export function stopPod(ctx: ManagementContext, account: AccountData, pod: PodRecord): void {
  if (pod.locked) throw lockedRefusal(pod, "stopping");
  if (pod.desiredStatus === "RUNNING") markStopped(ctx, account, pod, "Exited");
}

/** The container restarts and its disk is wiped; a stopped pod stays stopped. */
export function resetPod(ctx: ManagementContext, pod: PodRecord): void {
  if (pod.locked) throw lockedRefusal(pod, "resetting");
  if (pod.desiredStatus !== "RUNNING") return;
  pod.lastStatusChange = statusEvent("Reset", ctx.clock.now());
  boot(ctx, pod);
}

/** A running pod's container restarts in place; a stopped one starts. */
export function restartPod(ctx: ManagementContext, account: AccountData, pod: PodRecord): void {
  if (pod.desiredStatus !== "RUNNING") {
    startPod(ctx, account, pod, "Restarted");
    return;
  }
  pod.lastStatusChange = statusEvent("Restarted", ctx.clock.now());
  boot(ctx, pod);
}

/** Delete: capacity and billing released, the pod gone (404 from now on). */
export function terminatePod(ctx: ManagementContext, account: AccountData, pod: PodRecord): void {
  markStopped(ctx, account, pod, "Terminated");
  account.pods.delete(pod.id);
  ctx.podLogs.drop(pod.id);
}

/**
 * /api/v2's podAction: the action, when the pod's status allows it (requireAction), applied. A
 * start without capacity on the pod's machine does not fit now either: 409, as such an action.
 */
export function applyAction(ctx: ManagementContext, account: AccountData, pod: PodRecord, action: Action): void {
  requireAction(ctx, account, pod, action);
  if (action === "terminate") terminatePod(ctx, account, pod);
  else if (action === "stop") stopPod(ctx, account, pod);
  else if (action === "restart") restartPod(ctx, account, pod);
  else {
    try {
      startPod(ctx, account, pod);
    } catch (error) {
      if (error instanceof NoCapacity) throw new Refusal(409, error.message, [`invalid action: ${error.message}`]);
      throw error;
    }
  }
}
