// The one diff engine: compares the last recorded outputs (olds) with the checked new inputs (news)
// field by field, as the resource's policy table says. Resources never hand-write a diff.

import type { DiffContext, FieldRow, ResourceTable } from "../../model/fields/fieldTable";
import { containsUnknown } from "../../model/fields/values";
import { deepEqual, isPresent, isProviderInput, isRecord, type Props } from "../../model/fields/values";

export type ChangeKind = "add" | "update" | "delete";

export interface FieldChange {
  field: string;
  kind: ChangeKind;
  /** The field can only be set at create (or is not in the table at all). */
  replace: boolean;
  /** The new value is not known yet (preview). */
  unknown: boolean;
  /** For env maps: the declared keys that differ. */
  keys?: string[];
}

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Per property (env maps per key, as `env.KEY`), in Pulumi's detailed-diff vocabulary. */
  detailedDiff: Record<string, { kind: ChangeKind; replace: boolean }>;
  changed: FieldChange[];
}

export function computeDiff<L>(policy: ResourceTable<L>, olds: Props, news: Props, ctx: DiffContext = {}): DiffOutcome {
  const changed: FieldChange[] = [];
  const names = new Set<string>(Object.keys(policy.fields));
  for (const key of Object.keys(news)) if (!isProviderInput(key)) names.add(key);

  for (const field of names) {
    const fieldPolicy = policy.fields[field];
    if (!fieldPolicy) {
      // A field the table does not know (only reachable with state from another version): the
      // provider cannot apply it in place, so it is a replacement, never a silent no-op.
      if (isPresent(news, field) && !deepEqual(olds[field], news[field])) {
        changed.push({ field, kind: isPresent(olds, field) ? "update" : "add", replace: true, unknown: containsUnknown(news[field]) });
      }
      continue;
    }
    if (fieldPolicy.kind === "ignore" || fieldPolicy.kind === "serverManaged") continue;
    const change = compareField(field, fieldPolicy, olds, news, ctx);
    if (change) changed.push(change);
  }

  const replaces = changed.filter((c) => c.replace).map((c) => c.field);
  const detailedDiff: DiffOutcome["detailedDiff"] = {};
  for (const c of changed) {
    if (c.keys && c.keys.length > 0) for (const k of c.keys) detailedDiff[`${c.field}.${k}`] = { kind: c.kind, replace: c.replace };
    else detailedDiff[c.field] = { kind: c.kind, replace: c.replace };
  }
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && keepsUniqueName(policy, olds, news),
    detailedDiff,
    changed,
  };
}

function compareField<L>(field: string, p: FieldRow<L>, olds: Props, news: Props, ctx: DiffContext): FieldChange | undefined {
  const newHas = isPresent(news, field);
  const oldHas = isPresent(olds, field);
  const kind: ChangeKind = !oldHas ? "add" : !newHas ? "delete" : "update";
  const replace = p.kind === "replace";
  const newValue = news[field];
  const oldValue = olds[field];

  if (newHas && containsUnknown(newValue)) return { field, kind, replace, unknown: true };
  if (p.same) return p.same(oldValue, newValue, ctx) ? undefined : { field, kind, replace, unknown: false };
  if (p.envMap) {
    const keys = changedEnvKeys(oldHas ? oldValue : {}, newHas ? newValue : {});
    return keys.length === 0 ? undefined : { field, kind, replace, unknown: false, keys };
  }
  const effectiveNew = newHas ? newValue : p.default;
  const effectiveOld = oldHas ? oldValue : p.default;
  if (effectiveNew === undefined && effectiveOld === undefined) return undefined;
  if (deepEqual(effectiveOld, effectiveNew, p.unordered === true)) return undefined;
  return { field, kind, replace: replace || p.replaceIf?.(effectiveOld, effectiveNew) !== undefined, unknown: false };
}

/**
 * Declared-keys comparison: a key counts when the user declares it now (value differs from the
 * recorded one) or declared it before and no longer does (it must be removed). The recorded map
 * holds only declared keys (see declared.ts), so keys the platform injected never show up.
 */
export function changedEnvKeys(oldMap: unknown, newMap: unknown): string[] {
  const olds = isRecord(oldMap) ? oldMap : {};
  const news = isRecord(newMap) ? newMap : {};
  const keys = new Set<string>();
  for (const [k, v] of Object.entries(news)) if (v === undefined || olds[k] !== v) keys.add(k);
  for (const k of Object.keys(olds)) if (!(k in news)) keys.add(k);
  return [...keys].sort();
}

function keepsUniqueName<L>(policy: ResourceTable<L>, olds: Props, news: Props): boolean {
  const fields = policy.deleteBeforeReplaceWhenSame ?? [];
  // An unknown name may well turn out to be the same: deleting first is the only safe order.
  const same = (a: unknown, b: unknown): boolean =>
    policy.uniqueNamesIgnoreCase === true && typeof a === "string" && typeof b === "string"
      ? a.toLowerCase() === b.toLowerCase()
      : deepEqual(a, b);
  return fields.some((f) => containsUnknown(news[f]) || (isPresent(news, f) && same(olds[f], news[f])));
}
