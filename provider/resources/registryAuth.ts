// The RegistryAuth resource: create (ambiguity resolved by its unique name), refresh (name only),
// delete. Any change replaces it; ready on create.

import type * as pulumi from "@pulumi/pulumi";
import type { ContainerRegistryAuth } from "../../client/schemas";
import { createWithoutDuplicates } from "./ambiguous";
import { buildOutputs, declaredInputs } from "./declared";
import type { ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import { registryAuthDefinition, registryAuthPolicy } from "./registryAuthArgs";
import {
  checkArgs,
  deleteIgnoringMissing,
  deleteUnlessPlaceholder,
  diffArgs,
  earlierCreateRemedy,
  getForAdoption,
  messageOf,
  parseArgs,
  readLive,
  subjectOf,
  type AdoptionOrigin,
} from "./resourceBase";
import { adoptionPlan } from "./updates";
import { withoutUnset, type Props } from "./values";

export function registryAuthProvider(deps: ProviderDeps): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds: Props, news: Props) => checkArgs(registryAuthDefinition, deps, olds, news),
    diff: (id: string, olds: Props, news: Props) => diffArgs(registryAuthPolicy, id, olds, news),
    create: (inputs: Props) => createRegistryAuth(deps, inputs),
    read: (id: string, props?: Props) => readLive(registryAuthPolicy, id, props, (authId) => deps.client().getRegistryAuth(authId)),
    update: (id: string, olds: Props, news: Props) => updateRegistryAuth(id, olds, news),
    delete: (id: string, props: Props) => deleteUnlessPlaceholder(deps, "registry auth", id, props, () => deleteRegistryAuth(deps, id, props)),
  };
}

async function createRegistryAuth(deps: ProviderDeps, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const args = parseArgs(registryAuthDefinition, inputs);
  const declared = declaredInputs(registryAuthPolicy, withoutUnset(inputs));
  const client = deps.client();
  if (args.adoptId !== undefined) return adoptRegistryAuth(deps, args.adoptId, declared, "adoptId");
  const outcome = await createWithoutDuplicates<ContainerRegistryAuth>({
    subject: subjectOf("registry auth", args.name),
    policy: registryAuthPolicy,
    inputs,
    // Names are unique: the credentials with our name that were not there before are ours (a 409
    // on create after an interrupted one is resolved the same way, see ambiguous.ts).
    list: () => client.listRegistryAuths(),
    matches: (a) => a.name === args.name,
    create: (options) => client.createRegistryAuth({ name: args.name, username: args.username, password: args.password }, options),
    log: deps.log,
    now: deps.now,
  });
  if (outcome.adopted) return adoptRegistryAuth(deps, outcome.resource.id, declared, "earlierCreate");
  return { id: outcome.resource.id, outs: buildOutputs(registryAuthPolicy, declared, outcome.resource) };
}

async function adoptRegistryAuth(deps: ProviderDeps, adoptId: string, declared: Props, origin: AdoptionOrigin): Promise<pulumi.dynamic.CreateResult> {
  const client = deps.client();
  const live = await getForAdoption("registry auth", adoptId, (id) => client.getRegistryAuth(id));
  const subject = subjectOf("registry auth", live.name, adoptId);
  const plan = adoptionPlan(registryAuthPolicy, declared, live);
  if (plan.conflicts.length > 0) {
    const remedy =
      origin === "adoptId"
        ? "Registry credentials cannot be changed: declare the live name to adopt them, or remove adoptId to create new ones."
        : earlierCreateRemedy("registry auth", adoptId);
    throw new Error(`cannot adopt ${subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
  }
  if (origin === "adoptId") {
    deps.log.warn(`${subject}: adopting existing credentials; the service never returns the username or password, so the declared ones are assumed to match`);
  } else {
    // Made by our own earlier create, from these inputs (unless they were changed since: unknowable, never read back).
    deps.log.info(`${subject}: adopting the credentials an earlier, interrupted create made`);
  }
  return { id: adoptId, outs: buildOutputs(registryAuthPolicy, declared, live) };
}

/**
 * Every service field replaces, so an update only ever records provider-side changes (removing
 * adoptId after adoption): nothing to send to the service.
 */
async function updateRegistryAuth(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const outcome = computeDiff(registryAuthPolicy, withoutUnset(olds), withoutUnset(news), { id });
  if (outcome.replaces.length > 0) throw new Error(`pulumi-gpucloud: registry auth ${id}: ${outcome.replaces.join(", ")} can only change by replacement`);
  return { outs: declaredInputs(registryAuthPolicy, withoutUnset(news)) };
}

async function deleteRegistryAuth(deps: ProviderDeps, id: string, props: Props): Promise<void> {
  try {
    await deleteIgnoringMissing(() => deps.client().deleteRegistryAuth(id));
  } catch (error) {
    throw new Error(
      `${subjectOf("registry auth", props["name"], id)} cannot be deleted: ${messageOf(error)}. ` +
        "Pods and templates that use the credentials must drop them (or be deleted) first. To rotate a username or password " +
        "while they are in use, give the credentials a new name too: the new ones are then created first, their users move " +
        "to them, and the old ones are deleted last.",
      { cause: error },
    );
  }
}
