// The parts of check / diff / read that are the same for every resource, driven by its definition
// (policy table + args schema + cross-field rules). Create, update and delete are per resource.

import type * as pulumi from "@pulumi/pulumi";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import { isNotFound } from "../../client/errors";
import type { ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import { inputFields, type ResourcePolicy } from "./fieldPolicy";
import { refreshFromLive } from "./declared";
import { isPlaceholderId, pendingCreateOf, rememberPendingCreate, wasTakenOver } from "./partialCreate";
import { forgottenFields } from "./updates";
import { runSchema } from "./validation";
import { isPresent, withoutUnset, type Props } from "./values";

export interface CrossCheckResult {
  failures: pulumi.dynamic.CheckFailure[];
  warnings: string[];
}

export interface ResourceDefinition<Args, L> {
  policy: ResourcePolicy<L>;
  /** zod object of the arguments (service field names plus provider arguments). */
  schema: z.ZodObject;
  /** Rules across fields or against the previous inputs (e.g. a volume may only grow). */
  crossCheck?(args: Props, olds: Props): CrossCheckResult;
  /**
   * Arguments whose values are secrets. The engine prints the value of a failure's property next to
   * the reason, so their failures name no property (the reason still names the field).
   */
  sensitive?: readonly string[];
  /** Only for the type parameter. */
  readonly _args?: Args;
}

export async function checkArgs<Args, L>(def: ResourceDefinition<Args, L>, deps: ProviderDeps, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const args = withoutUnset(news);
  const outcome = runSchema<Args>(def.schema, def.policy.noun, args);
  const failures = [...outcome.failures];
  const warnings: string[] = [];
  if (def.crossCheck) {
    const cross = def.crossCheck(args, withoutUnset(olds ?? {}));
    // Cross-field rules only make sense once every field is individually valid.
    if (failures.length === 0) failures.push(...cross.failures);
    warnings.push(...cross.warnings);
  }
  for (const field of forgottenFields(def.policy, withoutUnset(olds ?? {}), args)) {
    warnings.push(
      `${def.policy.noun} ${field} is no longer declared: the service has no default to go back to, so the ` +
        `${def.policy.noun} keeps its current value. Declare the value you want to change it.`,
    );
  }
  for (const w of warnings) deps.log.warn(w);
  return { inputs: { ...args, __provider: news["__provider"] }, failures: failures.map((f) => withoutSecretValue(def, f)) };
}

function withoutSecretValue<Args, L>(def: ResourceDefinition<Args, L>, f: CheckFailure): CheckFailure {
  const field = f.property.split(/[.[]/)[0] ?? "";
  return def.sensitive?.includes(field) ? { property: "", reason: f.reason } : f;
}

/** Typed arguments for create/update (check has already passed, so failures are a bug). */
export function parseArgs<Args, L>(def: ResourceDefinition<Args, L>, inputs: Props): Args {
  const outcome = runSchema<Args>(def.schema, def.policy.noun, withoutUnset(inputs));
  if (outcome.value === undefined) {
    throw new Error(`pulumi-gpucloud: invalid ${def.policy.noun} arguments: ${outcome.failures.map((f) => f.reason).join("; ")}`);
  }
  return outcome.value;
}

export async function diffArgs<L>(policy: ResourcePolicy<L>, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  if (isPlaceholderId(id)) return replacePlaceholder(policy, id, olds, news);
  const outcome = computeDiff(policy, withoutUnset(olds), withoutUnset(news), { id });
  return { changes: outcome.changes, replaces: outcome.replaces, deleteBeforeReplace: outcome.deleteBeforeReplace };
}

/**
 * A placeholder of a create whose outcome is unknown (partialCreate.ts) is always replaced: its
 * replacement's create adopts what the earlier create made, or creates it. Create first, delete
 * after (deleting a placeholder calls nothing, so the order cannot collide with a unique name).
 */
function replacePlaceholder<L>(policy: ResourcePolicy<L>, id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const record = pendingCreateOf(olds);
  if (record) rememberPendingCreate(policy.noun, id, record, news);
  // The engine wants a property to blame for the replacement: the first declared input will do.
  const fields = inputFields(policy);
  const field = fields.find((f) => isPresent(news, f)) ?? fields[0] ?? "name";
  return { changes: true, replaces: [field], deleteBeforeReplace: false };
}

/**
 * Refresh: the live object rebuilds outputs and inputs for the declared fields. A 404 (or a
 * resource the service reports as gone) returns no id, which removes the resource from state.
 */
export async function readLive<L>(
  policy: ResourcePolicy<L>,
  id: string,
  props: Props | undefined,
  get: (id: string) => Promise<L>,
  gone?: (live: L) => boolean,
): Promise<pulumi.dynamic.ReadResult> {
  // Nothing to read under a placeholder, and dropping it would forget the doubt it records.
  if (isPlaceholderId(id)) return { id, props: props ?? {} };
  let live: L;
  try {
    live = await get(id);
  } catch (error) {
    if (isNotFound(error)) return {};
    throw error;
  }
  if (gone?.(live)) return {};
  const refreshed = refreshFromLive(policy, withoutUnset(props ?? {}), live);
  return { id, props: refreshed.props, inputs: refreshed.inputs };
}

/** Deletes, treating "already gone" as success. */
export async function deleteIgnoringMissing(del: () => Promise<void>): Promise<void> {
  try {
    await del();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/**
 * delete, except for a placeholder (partialCreate.ts): there is no resource under that id, so
 * nothing is called. The engine deletes a placeholder after its replacement adopted or created the
 * resource; any other delete (destroy, a removed resource) leaves a possible resource to the user.
 */
export async function deleteUnlessPlaceholder(deps: ProviderDeps, noun: string, id: string, props: Props, del: () => Promise<void>): Promise<void> {
  if (!isPlaceholderId(id)) return del();
  const subject = subjectOf(noun, props["name"]);
  if (wasTakenOver(id)) {
    deps.log.info(`${subject}: removed the pending-create record ${id} from the stack (its replacement resolved it)`);
    return;
  }
  const record = pendingCreateOf(props);
  deps.log.warn(
    `${subject}: removing the record ${id} of a create whose outcome was never resolved` +
      `${record ? ` (sent at ${record.startedAt})` : ""} without calling the service. If the service did create it, ` +
      `that ${noun} still exists outside the stack${record && record.matchedBefore.length > 0 ? ` (it is none of ${record.matchedBefore.join(", ")})` : ""}: ` +
      "look for it and delete it if it is not wanted.",
  );
}

/** `pod "trainer" (id abc123)` */
export function subjectOf(noun: string, name: unknown, id?: string): string {
  const named = typeof name === "string" && name !== "" ? ` ${JSON.stringify(name)}` : "";
  return `${noun}${named}${id ? ` (id ${id})` : ""}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads the resource to adopt, turning a 404 into a message that says what to do. */
export async function getForAdoption<L>(noun: string, adoptId: string, get: (id: string) => Promise<L>): Promise<L> {
  try {
    return await get(adoptId);
  } catch (error) {
    if (isNotFound(error)) {
      throw new Error(`adoptId ${JSON.stringify(adoptId)}: no ${noun} with this id exists for this API key; check the id, or remove adoptId to create a new ${noun}`);
    }
    throw error;
  }
}

/** How an existing resource came to be adopted: the user's adoptId, or an earlier create of ours. */
export type AdoptionOrigin = "adoptId" | "earlierCreate";

/** What to do when the resource an earlier, interrupted create made differs in create-only fields. */
export function earlierCreateRemedy(noun: string, id: string): string {
  return (
    `the ${noun} an earlier, interrupted create made (id ${id}) was created with other values than are declared now; ` +
    `declare its values to keep it, or delete it to have a new ${noun} created.`
  );
}

/** The error's message, prefixed with the subject unless it already names it. */
export function reasonFor(subject: string, error: unknown): string {
  const message = messageOf(error);
  return message.startsWith(subject) ? message : `${subject}: ${message}`;
}
