// The Pod resource: create (with readiness wait, stop-after-create, ambiguity resolution and
// adoption), in-place update through PATCH plus start/stop/restart/reset actions, refresh, delete.

import type * as pulumi from "@pulumi/pulumi";
import type { Pod, PodCreateInput } from "../../client/schemas";
import { createWithoutDuplicates } from "./ambiguous";
import { readyTimeoutOf } from "./commonArgs";
import { buildOutputs, declaredInputs, mergeEnv } from "./declared";
import type { ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import { ResourceInitError, withProvider } from "./partialCreate";
import { podDefinition, podPolicy, type PodArgs } from "./podArgs";
import { POD_READ_INCLUDE, waitForPod } from "./podReadiness";
import {
  checkArgs,
  deleteIgnoringMissing,
  deleteUnlessPlaceholder,
  diffArgs,
  earlierCreateRemedy,
  getForAdoption,
  parseArgs,
  reasonFor,
  readLive,
  subjectOf,
  type AdoptionOrigin,
} from "./resourceBase";
import { adoptionPlan, changedFields, serviceUpdates } from "./updates";
import { ReadinessTimeoutError } from "./waitFor";
import { isNotFound } from "../../client/errors";
import { withoutUnset, type Props } from "./values";

const LOCAL_ARGS = ["readyTimeoutSeconds", "desiredStatus", "restartTrigger", "resetTrigger", "adoptId"] as const;

function createBody(args: PodArgs): PodCreateInput {
  const body: Record<string, unknown> = { ...args };
  for (const key of LOCAL_ARGS) delete body[key];
  // A locked pod cannot be stopped: when it should start stopped, lock it after the stop.
  if (args.desiredStatus === "EXITED" && args.locked === true) delete body["locked"];
  return body as PodCreateInput;
}

export function podProvider(deps: ProviderDeps): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds: Props, news: Props) => checkArgs(podDefinition, deps, olds, news),
    diff: (id: string, olds: Props, news: Props) => diffArgs(podPolicy, id, olds, news),
    create: (inputs: Props) => createPod(deps, inputs),
    read: (id: string, props?: Props) =>
      readLive(podPolicy, id, props, (podId) => deps.client().getPod(podId, POD_READ_INCLUDE), (pod) => pod.desiredStatus === "TERMINATED"),
    update: (id: string, olds: Props, news: Props) => updatePod(deps, id, olds, news),
    delete: (id: string, props: Props) => deleteUnlessPlaceholder(deps, "pod", id, props, () => deletePod(deps, id, props)),
  };
}

async function createPod(deps: ProviderDeps, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const args = parseArgs(podDefinition, inputs);
  const declared = declaredInputs(podPolicy, withoutUnset(inputs));
  if (args.adoptId !== undefined) return adoptPod(deps, args.adoptId, args, declared, inputs);
  const client = deps.client();
  const outcome = await createWithoutDuplicates<Pod>({
    subject: subjectOf("pod", args.name),
    policy: podPolicy,
    inputs,
    // Pods have no unique name: a lost answer is resolved by a new pod with our name and image.
    list: () => client.listPods(args.name === undefined ? {} : { name: args.name }),
    matches: (p) =>
      p.name === args.name &&
      (args.imageName === undefined || p.imageName === args.imageName) &&
      (args.templateId === undefined || p.templateId === args.templateId) &&
      p.desiredStatus !== "TERMINATED",
    create: (options) => client.createPod(createBody(args), options),
    log: deps.log,
    now: deps.now,
  });
  // An earlier create whose answer was lost made it: bring it to the declared state like adoptId does.
  if (outcome.adopted) return adoptPod(deps, outcome.resource.id, args, declared, inputs, "earlierCreate");
  const created = outcome.resource;
  const id = created.id;
  const subject = subjectOf("pod", args.name, id);
  deps.log.info(`${subject}: created`);
  let live: Pod = created;
  try {
    if (args.desiredStatus === "EXITED") {
      await client.stopPod(id);
      if (args.locked === true) live = await client.updatePod(id, { locked: true });
    }
    live = await waitForPod(deps, id, subject, args, readyTimeoutOf(args.readyTimeoutSeconds));
    return { id, outs: buildOutputs(podPolicy, declared, live) };
  } catch (error) {
    // The pod exists: record it (partial create) so the next run updates it instead of orphaning it.
    const last = error instanceof ReadinessTimeoutError ? (error.last as Pod) : live;
    throw new ResourceInitError(id, withProvider(buildOutputs(podPolicy, declared, last), inputs), reasonFor(subject, error));
  }
}

async function adoptPod(
  deps: ProviderDeps,
  adoptId: string,
  args: PodArgs,
  declared: Props,
  inputs: Props,
  origin: AdoptionOrigin = "adoptId",
): Promise<pulumi.dynamic.CreateResult> {
  const client = deps.client();
  const live = await getForAdoption("pod", adoptId, (id) => client.getPod(id, POD_READ_INCLUDE));
  if (live.desiredStatus === "TERMINATED") throw new Error(`adoptId ${JSON.stringify(adoptId)}: that pod is terminated and cannot be adopted; remove adoptId to create a new pod`);
  const subject = subjectOf("pod", args.name ?? live.name, adoptId);
  const plan = adoptionPlan(podPolicy, declared, live);
  if (plan.conflicts.length > 0) {
    const remedy =
      origin === "adoptId"
        ? "These fields can only be set when a pod is created: declare the live values to adopt this pod, or remove adoptId to create a new pod."
        : earlierCreateRemedy("pod", adoptId);
    throw new Error(`cannot adopt ${subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
  }
  if (plan.unverifiable.length > 0) {
    deps.log.warn(`${subject}: the service does not report ${plan.unverifiable.join(", ")}; adopting on the assumption that they match what is declared`);
  }
  const body: Props = {};
  for (const field of plan.updates) body[field] = declared[field];
  if (plan.updates.includes("env")) body["env"] = mergeEnv(live.env, {}, args.env);
  deps.log.info(`${subject}: adopting the existing pod${plan.updates.length > 0 ? `; updating ${plan.updates.join(", ")}` : ""}`);
  const result = await converge(deps, { id: adoptId, subject, args, declared, inputs, live, body, reset: false, restart: false });
  return { id: adoptId, outs: result.outs };
}

async function updatePod(deps: ProviderDeps, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const args = parseArgs(podDefinition, news);
  const declared = declaredInputs(podPolicy, withoutUnset(news));
  const outcome = computeDiff(podPolicy, withoutUnset(olds), withoutUnset(news), { id });
  if (outcome.replaces.length > 0) throw new Error(`pulumi-gpucloud: pod ${id}: ${outcome.replaces.join(", ")} can only change by replacement, not in an update`);
  const changed = changedFields(outcome);
  const client = deps.client();
  const live = await client.getPod(id, POD_READ_INCLUDE);
  const body = serviceUpdates(podPolicy, outcome, withoutUnset(news));
  // The platform injected keys (PUBLIC_KEY) the user never declared: send them back unchanged.
  if (changed.has("env")) body["env"] = mergeEnv(live.env, olds["env"], args.env);
  const subject = subjectOf("pod", args.name ?? live.name, id);
  return converge(deps, { id, subject, args, declared, inputs: news, live, body, reset: changed.has("resetTrigger"), restart: changed.has("restartTrigger") });
}

interface ConvergeSpec {
  id: string;
  subject: string;
  args: PodArgs;
  declared: Props;
  /** Carries `__provider` into a partial-update record. */
  inputs: Props;
  live: Pod;
  /** PATCH body (service fields only). */
  body: Props;
  reset: boolean;
  restart: boolean;
}

/** Brings an existing pod to the declared state: PATCH, start/stop, reset/restart, lock, then wait. */
async function converge(deps: ProviderDeps, spec: ConvergeSpec): Promise<{ outs: Props }> {
  const client = deps.client();
  const { id, subject, args } = spec;
  let live = spec.live;
  let mutated = false;
  try {
    const body = { ...spec.body };
    const desired = args.desiredStatus ?? "RUNNING";
    // Locking forbids stop/reset (and a PATCH that resets): lock last, after any action below.
    let lockAfter = body["locked"] === true;
    if (lockAfter) delete body["locked"];
    const resetting = Object.keys(body).some((key) => key !== "name" && key !== "locked");
    const blocked = resetting || (desired === "EXITED" && live.desiredStatus === "RUNNING") || (desired === "RUNNING" && spec.reset);
    if (live.locked === true && body["locked"] !== false && blocked) {
      // The declared change needs the lock lifted; it is put back afterwards unless locked: false is declared.
      deps.log.info(`${subject}: unlocking for the update; it is locked again afterwards`);
      body["locked"] = false;
      lockAfter = args.locked !== false;
    }
    if (Object.keys(body).length > 0) {
      deps.log.info(`${subject}: updating ${Object.keys(body).join(", ")} in place (the service may reset the pod: its container disk is wiped)`);
      live = await client.updatePod(id, body);
      mutated = true;
    }
    if (desired === "EXITED" && live.desiredStatus !== "EXITED") {
      deps.log.info(`${subject}: stopping (desiredStatus EXITED)`);
      await client.stopPod(id);
      mutated = true;
    } else if (desired === "RUNNING" && live.desiredStatus === "EXITED") {
      deps.log.info(`${subject}: starting (desiredStatus RUNNING)`);
      await client.startPod(id);
      mutated = true;
    } else if (desired === "RUNNING" && spec.reset) {
      deps.log.info(`${subject}: resetting (resetTrigger changed; the container disk is wiped)`);
      await client.resetPod(id);
      mutated = true;
    } else if (desired === "RUNNING" && spec.restart) {
      deps.log.info(`${subject}: restarting (restartTrigger changed)`);
      await client.restartPod(id);
      mutated = true;
    } else if (spec.reset || spec.restart) {
      deps.log.info(`${subject}: trigger changed but the pod is stopped (desiredStatus EXITED): nothing to restart`);
    }
    if (lockAfter) {
      live = await client.updatePod(id, { locked: true });
      mutated = true;
    }
    live = await waitForPod(deps, id, subject, args, readyTimeoutOf(args.readyTimeoutSeconds));
    return { outs: buildOutputs(podPolicy, spec.declared, live) };
  } catch (error) {
    // Nothing changed yet: a plain failure keeps the previous state, which is still true.
    if (!mutated && !(error instanceof ReadinessTimeoutError)) throw error;
    const last = error instanceof ReadinessTimeoutError ? (error.last as Pod) : live;
    throw new ResourceInitError(id, withProvider(buildOutputs(podPolicy, spec.declared, last), spec.inputs), reasonFor(subject, error));
  }
}

async function deletePod(deps: ProviderDeps, id: string, props: Props): Promise<void> {
  const client = deps.client();
  if (props["locked"] === true) {
    // Destroying is an explicit request: lift the lock the provider set, then terminate.
    try {
      await client.updatePod(id, { locked: false });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
  }
  await deleteIgnoringMissing(() => client.deletePod(id));
}
