/**
 * Updating a pod (v1 PATCH /pods/{id} and its POST synonym, v2 updatePod). "Update a Pod,
 * potentially triggering a reset": a running pod whose container settings change restarts with the
 * new ones (boot again, disk wiped); a change of only `name`/`locked`, or no change, does not
 * (NOTES.md section 1). A locked pod refuses a resetting update unless the same update unlocks it.
 */
import { isDeepStrictEqual } from "node:util";
import { openPodUsage } from "../../billing/ledger";
import type { AccountData, PodRecord, TemplateRecord } from "../../state/model";
import { POD_IN_PLACE_FIELDS } from "../../vocabulary/schemas/pod";
import type { Mounts } from "../../vocabulary/schemas/v2/requests";
import { type CommandInput, commandChange } from "../command";
import type { ManagementContext } from "../context";
import { invalid } from "../errors";
import { requireRegistryAuth } from "../lookup";
import { templateRegistry } from "../templateRecords";
import { lockedRefusal } from "./actions";
import { globalNetworkingCenters } from "./globalNetworking";
import { boot, statusEvent } from "./lifecycle";

/** The record fields an update may set (/v1's PodUpdateInput names them). `null` clears the registry. */
export type PodFields = Partial<
  Pick<
    PodRecord,
    | "name"
    | "imageName"
    | "env"
    | "ports"
    | "containerDiskInGb"
    | "volumeInGb"
    | "volumeMountPath"
    | "dockerEntrypoint"
    | "dockerStartCmd"
    | "containerRegistryAuthId"
    | "globalNetworking"
    | "locked"
  >
>;

export interface PodChange {
  /** Set as given, in this order (a refused reset names them in it). */
  fields: PodFields;
  /**
   * v2 UpdatePodRequest.templateId: the template's container settings apply as if sent in this
   * body; the body's own fields win, `env` merges per key (the body's over the template's).
   */
  template?: TemplateRecord | undefined;
  /** v2's args / cmd / entrypoint, over the template's command or the pod's. */
  command?: CommandInput | undefined;
  /** v2 mounts: their sizes and paths, within the rules of a mount's kind (checkMountChange). */
  mounts?: Mounts | undefined;
  /**
   * v2 UpdatePodRequest.globalNetworking: "Takes effect on the next pod start/restart, not live":
   * kept on the record, the running boot keeps its own (lifecycle.ts boot()). "Requires an NVIDIA
   * GPU and a global-networking-enabled data center (both enforced upstream)": turning it on is
   * refused as a create refuses it (globalNetworking.ts). /v1 sends it among `fields`, where a
   * change resets the pod like any other container setting, and checks nothing.
   */
  globalNetworkingAtNextStart?: boolean | undefined;
}

/** What kind of storage a pod was created with: fixed for its life on v2 (Mounts, PATCH semantics). */
function mountKindOf(pod: PodRecord): "network" | "persistent" | "none" {
  return pod.networkVolumeId ? "network" : pod.volumeInGb > 0 ? "persistent" : "none";
}

/**
 * Mounts, PATCH semantics (reference Mounts): "An explicit `network: []` is rejected with 400
 * (clearing mounts is not supported). Mount kind is fixed at create — a PATCH that introduces a
 * kind not present at create (persistent on a network pod, network on a persistent pod, or any
 * mount on a previously-mountless pod) is rejected with 400. The `volumeId` of a network mount is
 * immutable; a PATCH that names a different `volumeId` is rejected with 400."
 */
function checkMountChange(pod: PodRecord, mounts: Mounts): void {
  if (mounts.persistent && mounts.network?.length) throw invalid("mounts", "set at most one of mounts.persistent and mounts.network");
  if (mounts.network?.length === 0)
    throw invalid(
      "mounts.network",
      "clearing mounts is not supported; omit mounts to leave the mount unchanged, or create a new pod without it",
    );
  const kind = mountKindOf(pod);
  const asked = mounts.persistent ? "persistent" : mounts.network ? "network" : undefined;
  if (asked !== undefined && asked !== kind) {
    throw invalid(
      `mounts.${asked}`,
      `the mount kind of a pod is fixed at create and pod ${pod.id} was created with ${kind === "none" ? "no mount" : `a ${kind} mount`}; create a new pod to have a ${asked} mount`,
    );
  }
  const network = mounts.network?.[0];
  if (network && network.volumeId !== pod.networkVolumeId) {
    throw invalid(
      "mounts.network[0].volumeId",
      `the network volume of a pod is fixed at create (${pod.networkVolumeId ?? "none"}); create a new pod to change it`,
    );
  }
}

/**
 * The record fields an update of a pod of `accountId` sets: the template's container settings, then
 * the request's own. A template of another account brings no registry (templateRecords.ts
 * templateRegistry: "`registry` is always null for templates you don't own"), so it clears the pod's.
 */
function fieldsOf(change: PodChange, accountId: string): PodFields {
  const { template, mounts } = change;
  // Most updates (every /v1 one) name record fields only: those, as given.
  if (!template && !mounts) return { ...change.fields };
  const fields: PodFields = {};
  if (template) {
    Object.assign(fields, {
      imageName: template.imageName,
      dockerEntrypoint: [...template.dockerEntrypoint],
      dockerStartCmd: [...template.dockerStartCmd],
      containerDiskInGb: template.containerDiskInGb,
      ports: [...template.ports],
      env: { ...template.env },
      containerRegistryAuthId: templateRegistry(template, accountId),
    });
  }
  for (const [key, value] of Object.entries(change.fields)) {
    Object.assign(fields, { [key]: key === "env" ? { ...fields.env, ...(value as Record<string, string>) } : value });
  }
  if (mounts?.network?.[0]) fields.volumeMountPath = mounts.network[0].path;
  if (mounts?.persistent) {
    fields.volumeInGb = mounts.persistent.size;
    fields.volumeMountPath = mounts.persistent.path;
  }
  return fields;
}

export function updatePod(ctx: ManagementContext, account: AccountData, pod: PodRecord, change: PodChange): PodRecord {
  if (change.mounts) checkMountChange(pod, change.mounts);
  if (change.globalNetworkingAtNextStart === true) {
    const gpu = pod.computeType === "GPU" ? pod.gpuTypeId : null;
    globalNetworkingCenters(gpu, [pod.dataCenterId], `pod ${pod.id} runs in ${pod.dataCenterId}, which does not support global networking`);
  }
  const fields = fieldsOf(change, pod.accountId);
  const command = change.command
    ? commandChange(change.command, {
        entrypoint: fields.dockerEntrypoint ?? pod.dockerEntrypoint,
        cmd: fields.dockerStartCmd ?? pod.dockerStartCmd,
      })
    : undefined;
  if (command) {
    fields.dockerEntrypoint = command.dockerEntrypoint;
    fields.dockerStartCmd = command.dockerStartCmd;
  }
  if (fields.containerRegistryAuthId) requireRegistryAuth(account, fields.containerRegistryAuthId);
  const resetting = Object.entries(fields).filter(
    ([key, value]) => !POD_IN_PLACE_FIELDS.has(key) && !isDeepStrictEqual(pod[key as keyof PodRecord], value),
  );
  const resets = pod.desiredStatus === "RUNNING" && resetting.length > 0;
  if (resets && pod.locked && (fields.locked ?? true)) {
    throw lockedRefusal(pod, `an update of ${resetting.map(([key]) => key).join(", ")} would reset it and resetting`);
  }
  const diskBefore = pod.containerDiskInGb + pod.volumeInGb;
  Object.assign(pod, fields);
  if (command) pod.args = command.args;
  else if (change.template) pod.args = change.template.args;
  if (resets) {
    // "Update a Pod, potentially triggering a reset": the container restarts with the new settings.
    pod.lastStatusChange = statusEvent("Reset by update", ctx.clock.now());
    boot(ctx, pod);
    if (pod.containerDiskInGb + pod.volumeInGb !== diskBefore) openPodUsage(account, pod, ctx.clock.now());
  }
  // After the reset's boot, which keeps the value it started with: this one waits for a start.
  if (change.globalNetworkingAtNextStart !== undefined) pod.globalNetworking = change.globalNetworkingAtNextStart;
  return pod;
}
