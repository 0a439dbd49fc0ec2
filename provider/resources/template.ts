// The Template resource: create (ambiguity resolved by its unique name), in-place update through
// PATCH with declared-keys env merging, refresh, delete. Templates are ready as soon as created.

import type * as pulumi from "@pulumi/pulumi";
import type { Template, TemplateCreateInput } from "../../client/schemas";
import { createWithoutDuplicates } from "./ambiguous";
import { buildOutputs, declaredInputs, mergeEnv } from "./declared";
import type { ManagementApi, ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
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
import { templateDefinition, templatePolicy, type TemplateArgs } from "./templateArgs";
import { adoptionPlan, changedFields, serviceUpdates } from "./updates";
import { withoutUnset, type Props } from "./values";

function createBody(args: TemplateArgs): TemplateCreateInput {
  const { adoptId: _a, ...body } = args;
  return body;
}

export function templateProvider(deps: ProviderDeps): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds: Props, news: Props) => checkArgs(templateDefinition, deps, olds, news),
    diff: (id: string, olds: Props, news: Props) => diffArgs(templatePolicy, id, olds, news),
    create: (inputs: Props) => createTemplate(deps, inputs),
    read: (id: string, props?: Props) => readLive(templatePolicy, id, props, (templateId) => deps.client().getTemplate(templateId)),
    update: (id: string, olds: Props, news: Props) => updateTemplate(deps, id, olds, news),
    delete: (id: string, props: Props) => deleteUnlessPlaceholder(deps, "template", id, props, () => deleteTemplate(deps, id, props)),
  };
}

async function createTemplate(deps: ProviderDeps, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const args = parseArgs(templateDefinition, inputs);
  const declared = declaredInputs(templatePolicy, withoutUnset(inputs));
  const client = deps.client();
  if (args.adoptId !== undefined) return adoptTemplate(deps, args.adoptId, args, declared, "adoptId");
  const outcome = await createWithoutDuplicates<Template>({
    subject: subjectOf("template", args.name),
    policy: templatePolicy,
    inputs,
    // Names are unique: the template with our name that was not there before is ours (a 409 on
    // create after an interrupted one is resolved the same way, see ambiguous.ts).
    list: () => client.listTemplates(),
    matches: (t) => t.name === args.name,
    create: (options) => client.createTemplate(createBody(args), options),
    log: deps.log,
    now: deps.now,
  });
  // An earlier create whose answer was lost made it: bring it to the declared state like adoptId does.
  if (outcome.adopted) return adoptTemplate(deps, outcome.resource.id, args, declared, "earlierCreate");
  return { id: outcome.resource.id, outs: buildOutputs(templatePolicy, declared, outcome.resource) };
}

async function adoptTemplate(deps: ProviderDeps, adoptId: string, args: TemplateArgs, declared: Props, origin: AdoptionOrigin): Promise<pulumi.dynamic.CreateResult> {
  const client = deps.client();
  const live = await getForAdoption("template", adoptId, (id) => client.getTemplate(id));
  const subject = subjectOf("template", live.name, adoptId);
  const plan = adoptionPlan(templatePolicy, declared, live);
  if (plan.conflicts.length > 0) {
    const remedy =
      origin === "adoptId"
        ? "category and isServerless can only be set when a template is created: declare the live values to adopt it, or remove adoptId to create a new template."
        : earlierCreateRemedy("template", adoptId);
    throw new Error(`cannot adopt ${subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
  }
  const body: Props = {};
  for (const field of plan.updates) body[field] = field === "env" ? mergeEnv(live.env, {}, args.env) : declared[field];
  deps.log.info(`${subject}: adopting the existing template${plan.updates.length > 0 ? `; updating ${plan.updates.join(", ")}` : ""}`);
  const updated = Object.keys(body).length > 0 ? await client.updateTemplate(adoptId, body) : live;
  return { id: adoptId, outs: buildOutputs(templatePolicy, declared, updated) };
}

async function updateTemplate(deps: ProviderDeps, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const args = parseArgs(templateDefinition, news);
  const declared = declaredInputs(templatePolicy, withoutUnset(news));
  const outcome = computeDiff(templatePolicy, withoutUnset(olds), withoutUnset(news), { id });
  if (outcome.replaces.length > 0) throw new Error(`pulumi-gpucloud: template ${id}: ${outcome.replaces.join(", ")} can only change by replacement, not in an update`);
  const client = deps.client();
  const body = serviceUpdates(templatePolicy, outcome, withoutUnset(news));
  let live: Template | undefined;
  if (changedFields(outcome).has("env")) {
    // Keep what the platform injected (PORT, PORT_HEALTH on serverless templates).
    live = await client.getTemplate(id);
    body["env"] = mergeEnv(live.env, olds["env"], args.env);
  }
  if (Object.keys(body).length > 0) {
    deps.log.info(`${subjectOf("template", args.name, id)}: updating ${Object.keys(body).join(", ")} (endpoints using it roll out the change)`);
    live = await client.updateTemplate(id, body);
  }
  return { outs: buildOutputs(templatePolicy, declared, live ?? (await client.getTemplate(id))) };
}

async function deleteTemplate(deps: ProviderDeps, id: string, props: Props): Promise<void> {
  const client = deps.client();
  try {
    await deleteIgnoringMissing(() => client.deleteTemplate(id));
  } catch (error) {
    const users = await usersOf(client, id).catch(() => [] as string[]);
    const held = users.length > 0 ? ` It is used by ${users.join(", ")}: delete those or point them at another template first.` : "";
    throw new Error(
      `${subjectOf("template", props["name"], id)} cannot be deleted: ${messageOf(error)}.${held} ` +
        "If this delete is part of a replacement (category or isServerless changed), give the template a new name instead: " +
        "the new template is then created first and its users move to it before the old one is deleted.",
      { cause: error },
    );
  }
}

/** Endpoints and pods built on the template, as `endpoint "a" (id x)`. */
async function usersOf(client: ManagementApi, templateId: string): Promise<string[]> {
  const [endpoints, pods] = await Promise.all([client.listEndpoints(), client.listPods({ templateId })]);
  return [
    ...endpoints.filter((e) => e.templateId === templateId).map((e) => subjectOf("endpoint", e.name, e.id)),
    ...pods.filter((p) => p.templateId === templateId && p.desiredStatus !== "TERMINATED").map((p) => subjectOf("pod", p.name, p.id)),
  ];
}
