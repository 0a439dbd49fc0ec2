// What the provider records in state, derived from the policy table:
// - outputs = the fields the user declared (read back from the service where it reports them) plus
//   the server-managed outputs. Undeclared input fields stay absent, so the diff can tell "declared
//   before, removed now" from "never declared".
// - env maps hold the declared keys only; keys the platform injected are never recorded.
// - read rebuilds both the outputs and the inputs from the live object, so refresh shows real drift
//   and invents none.

import type { FieldRow, ResourceTable } from "../../model/fields/fieldTable";
import { deepEqual, isPresent, isRecord, type Props } from "../../model/fields/values";

/** The declared input fields of a property bag (outputs or inputs). */
export function declaredInputs<L>(policy: ResourceTable<L>, props: Props): Props {
  const out: Props = {};
  for (const [name, p] of Object.entries(policy.fields)) {
    if (p.kind === "serverManaged" || p.alwaysObserved) continue;
    if (isPresent(props, name)) out[name] = props[name];
  }
  // alwaysObserved fields (a pod's desiredStatus) are inputs only when the user set them.
  for (const [name, p] of Object.entries(policy.fields)) {
    if (p.alwaysObserved && isPresent(props, name) && !deepEqual(props[name], p.default)) out[name] = props[name];
  }
  return out;
}

/** The live value of a declared field, or `keep` when the service does not report it. */
function liveValue<L>(p: FieldRow<L>, declared: unknown, live: L): { value: unknown } | "keep" {
  if (p.envMap) {
    const liveEnv = p.observe?.(live);
    if (!isRecord(liveEnv) || !isRecord(declared)) return "keep";
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(declared)) if (liveEnv[key] !== undefined) out[key] = liveEnv[key];
    return { value: out };
  }
  if (!p.observe) return "keep";
  const value = p.observe(live);
  if (value === undefined) return "keep";
  // Equal in the policy's sense (e.g. same ports in another order): keep the user's spelling so
  // the recorded value stays identical to the input and no diff flickers.
  if (value !== null && deepEqual(value, declared, p.unordered === true)) return { value: declared };
  return { value };
}

/** Outputs: declared fields refreshed from `live`, plus every server-managed output it reports. */
export function buildOutputs<L>(policy: ResourceTable<L>, declared: Props, live: L): Props {
  const out: Props = {};
  for (const [name, p] of Object.entries(policy.fields)) {
    if (p.kind === "serverManaged" || p.alwaysObserved) {
      const value = p.observe?.(live);
      if (value !== undefined && value !== null) out[name] = value;
      else if (p.alwaysObserved && isPresent(declared, name)) out[name] = declared[name];
      continue;
    }
    if (!isPresent(declared, name)) continue;
    const seen = liveValue(p, declared[name], live);
    if (seen === "keep") out[name] = declared[name];
    else if (seen.value !== null && seen.value !== undefined) out[name] = seen.value;
  }
  return out;
}

/** What refresh records: outputs and inputs rebuilt from the live object for the declared fields. */
export function refreshFromLive<L>(policy: ResourceTable<L>, props: Props, live: L): { props: Props; inputs: Props } {
  const outputs = buildOutputs(policy, declaredInputs(policy, props), live);
  return { props: outputs, inputs: declaredInputs(policy, outputs) };
}

/**
 * The env map to send on update: the live map (keeping what the platform injected), with the keys
 * the user declared set, and keys the user declared before but no longer does removed.
 */
export function mergeEnv(liveEnv: unknown, previouslyDeclared: unknown, declared: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(liveEnv)) for (const [k, v] of Object.entries(liveEnv)) if (typeof v === "string") out[k] = v;
  const now = isRecord(declared) ? declared : {};
  if (isRecord(previouslyDeclared)) for (const k of Object.keys(previouslyDeclared)) if (!(k in now)) delete out[k];
  for (const [k, v] of Object.entries(now)) if (typeof v === "string") out[k] = v;
  return out;
}

/**
 * What a program would declare for a resource that exists already (an import): the argument fields
 * the service reports, without what declaring would not change (the field's default or reset
 * value, an empty list, map or string) and without the env keys the platform adds itself, so that the
 * code generated from it is minimal and declaring it plans no change.
 */
export function importedInputs<L>(policy: ResourceTable<L>, live: L): Props {
  const out: Props = {};
  for (const [name, p] of Object.entries(policy.fields)) {
    if (p.kind === "serverManaged" || (p.local && !p.alwaysObserved) || !p.observe) continue;
    const observed = p.observe(live);
    const value = p.envMap && isRecord(observed) ? withoutKeys(observed, p.injectedKeys ?? []) : observed;
    if (value === undefined || value === null || isEmpty(value)) continue;
    const unordered = p.unordered === true;
    if (deepEqual(value, p.default, unordered) || (p.resetTo !== undefined && deepEqual(value, p.resetTo, unordered))) continue;
    out[name] = value;
  }
  return out;
}

function withoutKeys(map: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).filter(([key]) => !keys.includes(key)));
}

/** Nothing to declare: an empty list or map, or an empty string (v2 reports a template without registry credentials with `""`). */
function isEmpty(value: unknown): boolean {
  return value === "" || (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);
}
