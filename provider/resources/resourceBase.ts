// The parts of check / diff / read that are the same for every resource, driven by its definition
// (policy table + args schema + cross-field rules). Create, update and delete are per resource.

import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { isNotFound } from "../client/errors";
import type { ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import type { ResourcePolicy } from "./fieldPolicy";
import { refreshFromLive } from "./declared";
import { forgottenFields } from "./updates";
import { runSchema } from "./validation";
import { withoutUnset, type Props } from "./values";

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
  return { inputs: { ...args, __provider: news["__provider"] }, failures };
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
  const outcome = computeDiff(policy, withoutUnset(olds), withoutUnset(news), { id });
  return { changes: outcome.changes, replaces: outcome.replaces, deleteBeforeReplace: outcome.deleteBeforeReplace };
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

/** The error's message, prefixed with the subject unless it already names it. */
export function reasonFor(subject: string, error: unknown): string {
  const message = messageOf(error);
  return message.startsWith(subject) ? message : `${subject}: ${message}`;
}
