/**
 * Pod lifecycle: RUNNING holds capacity and accrues billing; EXITED holds neither; a deleted pod is
 * gone. Every (re)start boots: the public IP and port mappings exist from the start but are shown
 * only once the boot delay (service time) has passed, so readiness needs no timers and survives a
 * restart of the emulator.
 */
import { randomInt } from "node:crypto";
import { closeUsage, openPodUsage } from "../../billing/ledger";
import { NO_CAPACITY_STATUS, NoCapacity } from "../errors";
import type { AccountData, PodRecord } from "../../state/model";
import { SPEND_CAP_STATUS, checkSpendCap } from "../account/limits";
import { resolveSecrets } from "../account/placeholders";
import { servicePrefix } from "../account/secrets";
import type { ManagementContext } from "../context";
import type { ResourceKind } from "../placement";

export interface PodAllocation {
  kind: ResourceKind;
  typeId: string;
  dataCenterId: string;
  units: number;
}

export function allocationOf(pod: PodRecord): PodAllocation {
  return pod.computeType === "GPU"
    ? { kind: "gpu", typeId: pod.gpuTypeId ?? "", dataCenterId: pod.dataCenterId, units: pod.gpuCount }
    : { kind: "cpu", typeId: pod.cpuFlavorId ?? "", dataCenterId: pod.dataCenterId, units: pod.vcpuCount };
}

/** "Rented by User: Fri Jul 12 2024 ..." as the service words its lifecycle events. */
export function statusEvent(verb: string, nowMs: number): string {
  return `${verb} by User: ${new Date(nowMs).toString()}`;
}

/** Community pods asked not to have a public IP (supportPublicIp: false) get none. */
function getsPublicIp(pod: PodRecord): boolean {
  return !(pod.cloudType === "COMMUNITY" && pod.supportPublicIp === false);
}

function randomPublicIp(): string {
  // 100.64.0.0/10, like the example addresses the service shows; 100.64.x.x is left to the v2
  // http proxy's shared address (HTTP_PROXY_IP, v2/podView.ts), so a pod's own address never equals it.
  return `100.${65 + randomInt(63)}.${randomInt(256)}.${1 + randomInt(254)}`;
}

/** One public port per declared port: {"22": 10341, "8888": 40123}. */
function mapPorts(ports: readonly string[]): Record<string, number> {
  const mappings: Record<string, number> = {};
  const used = new Set<number>();
  for (const port of ports) {
    const internal = port.split("/")[0] ?? port;
    if (internal in mappings) continue;
    let external: number;
    do external = 10_000 + randomInt(50_000);
    while (used.has(external));
    used.add(external);
    mappings[internal] = external;
  }
  return mappings;
}

/** Starts (or restarts) the boot: network identity hidden until the boot delay has passed. */
export function boot(ctx: ManagementContext, pod: PodRecord): void {
  const readyAtMs = ctx.clock.now() + ctx.options.bootDelayMs;
  pod.boot = {
    readyAtMs,
    publicIp: getsPublicIp(pod) ? randomPublicIp() : null,
    portMappings: mapPorts(pod.ports),
    // Secrets are read now, at boot: the stored env keeps its placeholders.
    env: resolveSecrets(ctx.store.accounts.get(pod.accountId), pod.env, servicePrefix(ctx)),
    // v2 UpdatePodRequest.globalNetworking: "Takes effect on the next pod start/restart, not live."
    globalNetworking: pod.globalNetworking,
  };
  const fault = ctx.podFaults.draw(pod.name);
  if (fault) failLater(ctx, pod, readyAtMs + fault.afterRunningMs, fault.reason);
}

/**
 * An injected pod fault: this boot's container fails at `atMs`. Answers show ERROR from then on
 * (podStatus in pods/status.ts reads `failsAtMs`); the timer stops the pod, releasing capacity and
 * billing, unless the boot is over by then (stopped, restarted, deleted).
 */
function failLater(ctx: ManagementContext, pod: PodRecord, atMs: number, reason: string): void {
  const thisBoot = pod.boot;
  if (!thisBoot) return;
  thisBoot.failsAtMs = atMs;
  ctx.podFaults.after(atMs - ctx.clock.now(), () => {
    const account = ctx.store.accounts.get(pod.accountId);
    if (!account || account.pods.get(pod.id) !== pod || pod.boot !== thisBoot) return;
    markFailed(ctx, account, pod, reason);
    ctx.changed();
  });
}

export function isBooted(pod: PodRecord, nowMs: number): boolean {
  return pod.desiredStatus === "RUNNING" && pod.boot !== null && nowMs >= pod.boot.readyAtMs;
}

/**
 * What starting a pod may be refused with (reserveForStart, and a create that starts it): over the
 * spend cap, no capacity. Each surface's routes that start a pod document these from here.
 */
export const POD_START_REFUSALS: readonly number[] = [SPEND_CAP_STATUS, NO_CAPACITY_STATUS];

/**
 * Takes the pod's GPUs/vCPUs again on its machine, or explains why it cannot start: no capacity
 * (409), or its cost would take the account over its hourly spend cap (402, account/limits.ts).
 */
export function reserveForStart(ctx: ManagementContext, pod: PodRecord): void {
  checkSpendCap(ctx, ctx.store.account(pod.accountId), pod.costPerHr, `pod ${pod.id}`);
  const { kind, typeId, dataCenterId, units } = allocationOf(pod);
  const free = ctx.capacity.free(kind, typeId, dataCenterId);
  if (free < units) {
    const what = kind === "gpu" ? `GPU(s) of type "${typeId}"` : `vCPU(s) of flavor "${typeId}"`;
    throw new NoCapacity(
      `cannot start pod ${pod.id}: it needs ${units} ${what} in ${dataCenterId} and ${Math.max(0, free)} are free; ` +
        "retry later, or create a new pod with other GPU types or data centers",
    );
  }
  ctx.capacity.reserve(kind, typeId, dataCenterId, units);
}

/** RUNNING from now: billing opens and a boot begins. Capacity must already be reserved. */
export function markRunning(ctx: ManagementContext, account: AccountData, pod: PodRecord, verb: string): void {
  const now = ctx.clock.now();
  pod.desiredStatus = "RUNNING";
  delete pod.error;
  pod.lastStartedAtMs = now;
  pod.lastStatusChange = statusEvent(verb, now);
  openPodUsage(account, pod, now);
  boot(ctx, pod);
}

/** Frees capacity and closes billing if the pod was running; the pod ends EXITED. */
export function markStopped(ctx: ManagementContext, account: AccountData, pod: PodRecord, verb: string): void {
  const now = ctx.clock.now();
  if (pod.desiredStatus === "RUNNING") {
    const { kind, typeId, dataCenterId, units } = allocationOf(pod);
    ctx.capacity.release(kind, typeId, dataCenterId, units);
    closeUsage(account, pod.id, now);
  }
  pod.desiredStatus = "EXITED";
  pod.boot = null;
  pod.lastStatusChange = statusEvent(verb, now);
}

/**
 * The pod's container fails: it stops (capacity and billing released, as EXITED) and v2 reports it
 * in ERROR until a start. Reached through a pod fault (`--faults "pod: error=P"`) or the test hook
 * `failPod` (emulator/index.ts).
 */
export function markFailed(ctx: ManagementContext, account: AccountData, pod: PodRecord, reason: string): void {
  markStopped(ctx, account, pod, "Failed");
  pod.error = reason;
}

/** Re-takes capacity for a pod restored as RUNNING (even beyond the table: it was running). */
export function restoreRunningPod(ctx: ManagementContext, account: AccountData, pod: PodRecord): void {
  const { kind, typeId, dataCenterId, units } = allocationOf(pod);
  ctx.capacity.reserve(kind, typeId, dataCenterId, units);
  openPodUsage(account, pod, ctx.clock.now());
  boot(ctx, pod);
}
