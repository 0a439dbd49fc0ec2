// The Pod's specifics: it is found again by name, image and template; it can be created stopped;
// it is ready once RUNNING with its network identity; and besides PATCH its state changes through
// start/stop/reset/restart actions and the lock, in an order the service accepts.

import { isNotFound } from "../../client/errors";
import type { Pod, PodCreateInput } from "../../client/schemas";

import { readyTimeoutOf } from "../../model/fields/fieldTable";
import { deleteIgnoringMissing, type Changes, type Operation, type ResourceSpec } from "./lifecycle";
import type { PodArgs } from "../../model/kinds/pod/podFields";
import { POD_READ_INCLUDE, podReader } from "../../model/kinds/pod/podReader";
import { waitForPod } from "./podReadiness";
import { estimatePod } from "../../model/cost/estimate";
import { markerInEnv } from "./ownership";

export const podSpec: ResourceSpec<PodArgs, Pod, PodCreateInput> = {
  ...podReader,
  // Pods have no unique name: a lost answer is resolved by a new pod with our name and image. The
  // list is of every pod, not filtered by name: the creates of many pods share it (createOnce.ts).
  // The template is compared only where the service reports it: v2 keeps no link from a pod to its
  // template (`template` stays null), so there a templated pod is matched by name (and image).
  matches: (p, args) =>
    p.name === args.name &&
    (args.imageName === undefined || p.imageName === args.imageName) &&
    (args.templateId === undefined || p.templateId === undefined || p.templateId === args.templateId) &&
    p.desiredStatus !== "TERMINATED",
  // The owner's marker in the pod's env proves which stack resource a pod was made for (ownership.ts).
  ownerMarker: (p) => (p.desiredStatus === "TERMINATED" ? undefined : markerInEnv(p.env)),
  create: (client, body, args) => {
    // A locked pod cannot be stopped: when it should start stopped, lock it after the stop.
    const { locked, ...rest } = body;
    return client.pods.create((args.desiredStatus === "EXITED" && locked === true ? rest : body) as PodCreateInput);
  },
  async afterCreate(op) {
    await warnWithoutSshKeys(op);
    if (op.args.desiredStatus !== "EXITED") return;
    await op.client.pods.stop(op.id);
    if (op.args.locked === true) op.live = await op.client.pods.update(op.id, { locked: true });
  },
  readBeforeUpdate: () => true,
  estimate: estimatePod,
  converge,
  ready: (op) => waitForPod(op.deps, op.id, op.subject, op.args, readyTimeoutOf(op.args.readyTimeoutSeconds)),
  adoptRemedy:
    "These fields can only be set when a pod is created: declare the live values to adopt this pod, or remove adoptId to create a new pod.",
  refuseAdoption: (pod) =>
    pod.desiredStatus === "TERMINATED" ? "that pod is terminated and cannot be adopted; remove adoptId to create a new pod" : undefined,
  async delete({ client, id }, props) {
    if (props["locked"] === true) {
      // Destroying is an explicit request: lift the lock the provider set, then terminate.
      try {
        await client.pods.update(id, { locked: false });
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
    }
    await deleteIgnoringMissing(() => client.pods.delete(id));
  },
};

/** Brings an existing pod to the declared state: PATCH, start/stop, reset/restart, then the lock. */
async function converge(op: Operation<PodArgs, Pod>, changes: Changes): Promise<void> {
  const { client, id, subject, args, deps } = op;
  let live = op.live ?? (await client.pods.get(id, POD_READ_INCLUDE));
  const reset = changes.changed.has("resetTrigger");
  const restart = changes.changed.has("restartTrigger");
  const body = { ...changes.body };
  const desired = args.desiredStatus ?? "RUNNING";
  // Locking forbids stop/reset (and a PATCH that resets): lock last, after any action below.
  let lockAfter = body["locked"] === true;
  if (lockAfter) delete body["locked"];
  const resetting = Object.keys(body).some((key) => key !== "name" && key !== "locked");
  const blocked = resetting || (desired === "EXITED" && live.desiredStatus === "RUNNING") || (desired === "RUNNING" && reset);
  if (live.locked === true && body["locked"] !== false && blocked) {
    // The declared change needs the lock lifted; it is put back afterwards unless locked: false is declared.
    deps.log.info(`${subject}: unlocking for the update; it is locked again afterwards`);
    body["locked"] = false;
    lockAfter = args.locked !== false;
  }
  if (Object.keys(body).length > 0) {
    deps.log.info(
      `${subject}: updating ${Object.keys(body).join(", ")} in place (the service may reset the pod: its container disk is wiped)`,
    );
    live = op.live = await client.pods.update(id, body);
    op.mutated = true;
  }
  const action = nextAction(desired, live, reset, restart);
  if (action) {
    deps.log.info(`${subject}: ${action.note}`);
    await client.pods[action.call](id);
    op.mutated = true;
  } else if (reset || restart) {
    deps.log.info(`${subject}: trigger changed but the pod is stopped (desiredStatus EXITED): nothing to restart`);
  }
  if (lockAfter) {
    op.live = await client.pods.update(id, { locked: true });
    op.mutated = true;
  }
}

function nextAction(
  desired: string,
  live: Pod,
  reset: boolean,
  restart: boolean,
): { call: "stop" | "start" | "reset" | "restart"; note: string } | undefined {
  if (desired === "EXITED") return live.desiredStatus !== "EXITED" ? { call: "stop", note: "stopping (desiredStatus EXITED)" } : undefined;
  if (live.desiredStatus === "EXITED") return { call: "start", note: "starting (desiredStatus RUNNING)" };
  if (reset) return { call: "reset", note: "resetting (resetTrigger changed; the container disk is wiped)" };
  if (restart) return { call: "restart", note: "restarting (restartTrigger changed)" };
  return undefined;
}

/**
 * A v2 pod created with startSsh (declared, or the default on a pod that opens 22/tcp) while the
 * account had no registered SSH keys got no PUBLIC_KEY
 * (CreatePodRequest.startSsh: "Requires registered keys [...] with none registered the flag does
 * nothing"). Nothing orders an AccountSshKeys of the same stack before its pods but `dependsOn`:
 * said at the create, when the keys the service used are known. A read that fails says nothing
 * (a key without the scope): the check only helps.
 */
async function warnWithoutSshKeys(op: Operation<PodArgs, Pod>): Promise<void> {
  // Asked for: declared, or by the default where the pod opens 22/tcp (a pod that leaves both out
  // did not ask for SSH, and is not told about keys at every create).
  const ports = Array.isArray(op.args.ports) ? op.args.ports : [];
  const sshAsked = op.args.startSsh ?? (op.args.templateId === undefined && ports.includes("22/tcp"));
  const account = op.client.account;
  if (sshAsked !== true || account === undefined) return;
  const keys = await account.sshKeys().catch(() => undefined);
  if (keys === undefined || keys.length > 0) return;
  op.deps.log.warn(
    `${op.subject}: created with startSsh, but the account had no registered SSH keys, so the service gave it no PUBLIC_KEY and ` +
      "SSH into it will not work. Register keys with AccountSshKeys; when this stack declares them, give the pod " +
      "`dependsOn: [sshKeys]` so that they are registered before it is created, then replace the pod (pulumi up --replace <its URN>).",
  );
}
