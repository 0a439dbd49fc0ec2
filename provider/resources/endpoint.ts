// The Endpoint resource: create (flashboot fix-up, readiness on workersMin, ambiguity resolution,
// adoption), rolling-release updates through PATCH, refresh, and delete after scaling to 0.

import type * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound } from "../../client/errors";
import type { EndpointTypeInput } from "../../client/management";
import type { Endpoint, EndpointCreateInput } from "../../client/schemas";
import { createWithoutDuplicates } from "./ambiguous";
import { readyTimeoutOf } from "./commonArgs";
import { buildOutputs, declaredInputs } from "./declared";
import type { ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import { endpointDefinition, endpointPolicy, type EndpointArgs } from "./endpointArgs";
import { waitForEndpoint, waitForNoWorkers } from "./endpointReadiness";
import { ResourceInitError, withProvider } from "./partialCreate";
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
import { adoptionPlan, serviceUpdates } from "./updates";
import { withoutUnset, type Props } from "./values";
import { ReadinessTimeoutError } from "./waitFor";

function createBody(args: EndpointArgs): EndpointCreateInput & EndpointTypeInput {
  const { readyTimeoutSeconds: _t, adoptId: _a, ...body } = args;
  return body;
}

export function endpointProvider(deps: ProviderDeps): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds: Props, news: Props) => checkArgs(endpointDefinition, deps, olds, news),
    diff: (id: string, olds: Props, news: Props) => diffArgs(endpointPolicy, id, olds, news),
    create: (inputs: Props) => createEndpoint(deps, inputs),
    read: (id: string, props?: Props) => readLive(endpointPolicy, id, props, (endpointId) => deps.client().getEndpoint(endpointId)),
    update: (id: string, olds: Props, news: Props) => updateEndpoint(deps, id, olds, news),
    delete: (id: string, props: Props) => deleteUnlessPlaceholder(deps, "endpoint", id, props, () => deleteEndpoint(deps, id, props)),
  };
}

async function createEndpoint(deps: ProviderDeps, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const args = parseArgs(endpointDefinition, inputs);
  const declared = declaredInputs(endpointPolicy, withoutUnset(inputs));
  if (args.adoptId !== undefined) return adoptEndpoint(deps, args.adoptId, args, declared, inputs);
  const client = deps.client();
  const outcome = await createWithoutDuplicates<Endpoint>({
    subject: subjectOf("endpoint", args.name),
    policy: endpointPolicy,
    inputs,
    list: () => client.listEndpoints(),
    matches: (e) => e.name === args.name && e.templateId === args.templateId,
    create: (options) => client.createEndpoint(createBody(args), options),
    log: deps.log,
    now: deps.now,
  });
  // An earlier create whose answer was lost made it: bring it to the declared state like adoptId does.
  if (outcome.adopted) return adoptEndpoint(deps, outcome.resource.id, args, declared, inputs, "earlierCreate");
  const created = outcome.resource;
  const id = created.id;
  const subject = subjectOf("endpoint", args.name, id);
  deps.log.info(`${subject}: created`);
  let live: Endpoint = created;
  try {
    // The service ignores flashboot: false on create (NOTES section 1): set it right after.
    if (args.flashboot === false && live.flashboot !== false) live = await client.updateEndpoint(id, { flashboot: false });
    live = await waitForEndpoint(deps, id, subject, args.workersMin ?? 0, readyTimeoutOf(args.readyTimeoutSeconds));
    return { id, outs: buildOutputs(endpointPolicy, declared, live) };
  } catch (error) {
    const last = error instanceof ReadinessTimeoutError ? (error.last as Endpoint) : live;
    throw new ResourceInitError(id, withProvider(buildOutputs(endpointPolicy, declared, last), inputs), reasonFor(subject, error));
  }
}

async function adoptEndpoint(
  deps: ProviderDeps,
  adoptId: string,
  args: EndpointArgs,
  declared: Props,
  inputs: Props,
  origin: AdoptionOrigin = "adoptId",
): Promise<pulumi.dynamic.CreateResult> {
  const client = deps.client();
  const live = await getForAdoption("endpoint", adoptId, (id) => client.getEndpoint(id));
  const subject = subjectOf("endpoint", args.name ?? live.name, adoptId);
  const plan = adoptionPlan(endpointPolicy, declared, live);
  if (plan.conflicts.length > 0) {
    const remedy =
      origin === "adoptId"
        ? "computeType can only be set when an endpoint is created: declare the live value to adopt it, or remove adoptId to create a new endpoint."
        : earlierCreateRemedy("endpoint", adoptId);
    throw new Error(`cannot adopt ${subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
  }
  const body: Props = {};
  for (const field of plan.updates) body[field] = declared[field];
  deps.log.info(`${subject}: adopting the existing endpoint${plan.updates.length > 0 ? `; updating ${plan.updates.join(", ")}` : ""}`);
  return { id: adoptId, outs: await applyAndWait(deps, adoptId, subject, args, declared, inputs, body, live) };
}

async function updateEndpoint(deps: ProviderDeps, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const args = parseArgs(endpointDefinition, news);
  const declared = declaredInputs(endpointPolicy, withoutUnset(news));
  const outcome = computeDiff(endpointPolicy, withoutUnset(olds), withoutUnset(news), { id });
  if (outcome.replaces.length > 0) throw new Error(`pulumi-gpucloud: endpoint ${id}: ${outcome.replaces.join(", ")} can only change by replacement, not in an update`);
  const body = serviceUpdates(endpointPolicy, outcome, withoutUnset(news));
  const subject = subjectOf("endpoint", args.name, id);
  return { outs: await applyAndWait(deps, id, subject, args, declared, news, body, undefined) };
}

/** PATCH (a rolling release), then wait for workersMin. Failures after the PATCH keep the new state. */
async function applyAndWait(
  deps: ProviderDeps,
  id: string,
  subject: string,
  args: EndpointArgs,
  declared: Props,
  inputs: Props,
  body: Props,
  known: Endpoint | undefined,
): Promise<Props> {
  const client = deps.client();
  let live = known;
  if (Object.keys(body).length > 0) {
    deps.log.info(`${subject}: updating ${Object.keys(body).join(", ")} (a rolling release of the workers)`);
    // The type is fixed; the client needs it only to keep it on a renamed endpoint.
    live = await client.updateEndpoint(id, { ...body, type: args.type ?? "QUEUE" });
  }
  try {
    live = await waitForEndpoint(deps, id, subject, args.workersMin ?? 0, readyTimeoutOf(args.readyTimeoutSeconds));
    return buildOutputs(endpointPolicy, declared, live);
  } catch (error) {
    const last = error instanceof ReadinessTimeoutError ? (error.last as Endpoint) : live;
    if (last === undefined) throw error;
    throw new ResourceInitError(id, withProvider(buildOutputs(endpointPolicy, declared, last), inputs), reasonFor(subject, error));
  }
}

/**
 * Scale to 0 first (the service may refuse to delete an endpoint with running workers), then
 * delete; if it still refuses, wait for the workers to go and try once more.
 */
async function deleteEndpoint(deps: ProviderDeps, id: string, props: Props): Promise<void> {
  const client = deps.client();
  const subject = subjectOf("endpoint", props["name"], id);
  try {
    await client.updateEndpoint(id, { workersMin: 0, workersMax: 0 });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  try {
    await deleteIgnoringMissing(() => client.deleteEndpoint(id));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === undefined || error.status >= 500) throw error;
    deps.log.info(`${subject}: the service refused the delete (${error.message}); waiting for the workers to stop`);
    const timeout = typeof props["readyTimeoutSeconds"] === "number" ? props["readyTimeoutSeconds"] : readyTimeoutOf(undefined);
    try {
      await waitForNoWorkers(deps, id, subject, timeout);
    } catch (waitError) {
      if (isNotFound(waitError)) return;
      throw waitError;
    }
    await deleteIgnoringMissing(() => client.deleteEndpoint(id));
  }
}
