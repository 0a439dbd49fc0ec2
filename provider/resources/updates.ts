// Turning a diff (or an adoption) into the body of the service's update call: only changed fields
// the update operation accepts, with removals sent as the documented reset value. Env maps are
// merged by the caller (it needs the live map, see declared.ts mergeEnv).

import type { DiffOutcome } from "./diffEngine";
import type { ResourceTable } from "../../model/fields/fieldTable";
import { deepEqual, isPresent, isRecord, quote, type Props } from "../../model/fields/values";

/** Service fields to send for an in-place update. Env maps and provider-side fields are left out. */
export function serviceUpdates<L>(policy: ResourceTable<L>, outcome: DiffOutcome, news: Props): Props {
  const body: Props = {};
  for (const change of outcome.changed) {
    const p = policy.fields[change.field];
    if (p?.kind !== "update" || p.local || p.envMap) continue;
    if (isPresent(news, change.field)) body[change.field] = news[change.field];
    else if (p.resetTo !== undefined) body[change.field] = p.resetTo;
    else if (p.default !== undefined) body[change.field] = p.default;
    // No reset value: the service keeps its current value (check warned about it).
  }
  return body;
}

export function changedFields(outcome: DiffOutcome): Set<string> {
  return new Set(outcome.changed.map((c) => c.field));
}

/** Update fields that have no value to reset to: removing them leaves the live value in place. */
export function forgottenFields<L>(policy: ResourceTable<L>, oldInputs: Props, newInputs: Props): string[] {
  return Object.entries(policy.fields)
    .filter(([, p]) => p.kind === "update" && !p.local && !p.envMap && p.default === undefined && p.resetTo === undefined)
    .filter(([name]) => isPresent(oldInputs, name) && !isPresent(newInputs, name))
    .map(([name]) => name);
}

export interface AdoptionPlan {
  /** Create-only fields whose live value differs from the declared one: adoption must fail. */
  conflicts: string[];
  /** Create-only fields the service does not report: taken on trust. */
  unverifiable: string[];
  /** Update fields to send (differ from the live value, or cannot be read back). */
  updates: string[];
}

/** Compares the declared fields with an existing resource about to be adopted. */
export function adoptionPlan<L>(policy: ResourceTable<L>, declared: Props, live: L): AdoptionPlan {
  const plan: AdoptionPlan = { conflicts: [], unverifiable: [], updates: [] };
  for (const [name, p] of Object.entries(policy.fields)) {
    if (p.local || p.kind === "ignore" || p.kind === "serverManaged" || !isPresent(declared, name)) continue;
    const want = declared[name];
    if (p.chosen) {
      checkChoice(plan, name, want, p.chosen(live));
      continue;
    }
    const seen = p.observe?.(live);
    if (p.envMap) {
      const liveEnv = isRecord(seen) ? seen : {};
      const wantEnv = isRecord(want) ? want : {};
      if (Object.entries(wantEnv).some(([k, v]) => liveEnv[k] !== v)) plan.updates.push(name);
      continue;
    }
    const same = seen !== undefined && deepEqual(seen ?? undefined, want, p.unordered === true);
    if (p.kind === "replace") {
      if (seen === undefined) plan.unverifiable.push(name);
      else if (!same)
        plan.conflicts.push(
          `${name} is ${p.sensitive ? "different" : quote(seen ?? null)} on the live resource but ${p.sensitive ? "another value" : quote(want)} is declared`,
        );
    } else if (!same) {
      plan.updates.push(name);
    }
  }
  return plan;
}

/** A create-only list of options: the live resource's pick must be one of them. */
function checkChoice(plan: AdoptionPlan, name: string, options: unknown, picked: unknown): void {
  if (picked === undefined || picked === null) plan.unverifiable.push(name);
  else if (!Array.isArray(options) || !options.includes(picked))
    plan.conflicts.push(`${name}: the live resource has ${quote(picked)}, which is not among the declared ${quote(options)}`);
}
