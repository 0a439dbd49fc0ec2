// Every resource describes its fields in one table instead of hand-writing diff, read and adopt
// logic: what a change of the field means, what the service assumes when it is absent, and how to
// read the field back from the live object. diffEngine.ts and declared.ts interpret the table.

import type { Json } from "./values";

/**
 * - update: the service's update operation can change the field in place.
 * - replace: only settable at create; a change means a new resource.
 * - ignore: provider-side settings that never cause an update (e.g. the readiness deadline).
 * - serverManaged: an output the service computes; never compared.
 */
export type FieldKind = "update" | "replace" | "ignore" | "serverManaged";

export interface DiffContext {
  /** The resource's id (diff and update know it). */
  id?: string | undefined;
}

export interface FieldPolicy<L = unknown> {
  readonly kind: FieldKind;
  /**
   * What the service uses when the field is not given (the reference's default). An absent field
   * and this value compare equal, and removing a declared field sends this value on update.
   * Without a default, removing an update field leaves the live value as it is (check warns).
   */
  readonly default?: Json;
  /**
   * The value sent on update when the user removes a declared field, for fields whose absent
   * value is not a fixed default (a pod's disk sizes come from its template when it has one), so
   * that newly declaring a value is always applied rather than assumed equal to a default.
   */
  readonly resetTo?: Json;
  /**
   * Env-map semantics: only keys the user declared are compared, written and read back; keys the
   * platform injects (PUBLIC_KEY, PORT, ...) are left alone.
   */
  readonly envMap?: boolean;
  /** A list whose order the service does not keep (compared as a multiset). */
  readonly unordered?: boolean;
  /** Replaces the equality test (e.g. adoptId compares with the resource id). */
  readonly same?: (oldValue: unknown, newValue: unknown, ctx: DiffContext) => boolean;
  /** Reads the field from the live object; undefined when the service does not report it. */
  readonly observe?: (live: L) => unknown;
  /** The output always carries the live value, declared or not (e.g. a pod's desiredStatus). */
  readonly alwaysObserved?: boolean;
  /** Never printed in messages (passwords). */
  readonly sensitive?: boolean;
  /** A provider-side argument (deadline, trigger, desired state): never sent to the service as a field. */
  readonly local?: boolean;
}

export interface ResourcePolicy<L = unknown> {
  /** Noun used in messages: "pod", "endpoint", ... */
  readonly noun: string;
  readonly fields: Readonly<Record<string, FieldPolicy<L>>>;
  /**
   * Fields holding a name the service keeps unique: a replacement that keeps the same value must
   * delete the old resource first, or the create would collide with it.
   */
  readonly deleteBeforeReplaceWhenSame?: readonly string[];
}

type Options<L> = Omit<FieldPolicy<L>, "kind">;

export const update = <L>(options: Options<L> = {}): FieldPolicy<L> => ({ kind: "update", ...options });
export const replace = <L>(options: Options<L> = {}): FieldPolicy<L> => ({ kind: "replace", ...options });
export const ignore = <L>(options: Options<L> = {}): FieldPolicy<L> => ({ kind: "ignore", ...options });
export const serverManaged = <L>(observe: (live: L) => unknown): FieldPolicy<L> => ({ kind: "serverManaged", observe });

/** Fields the user can set (everything but server-managed outputs). */
export function inputFields<L>(policy: ResourcePolicy<L>): string[] {
  return Object.entries(policy.fields)
    .filter(([, p]) => p.kind !== "serverManaged")
    .map(([name]) => name);
}

export function fieldsOfKind<L>(policy: ResourcePolicy<L>, kind: FieldKind): string[] {
  return Object.entries(policy.fields)
    .filter(([, p]) => p.kind === kind)
    .map(([name]) => name);
}

/** A provider-side trigger: any new value (including a first one) asks for the action; removing it does not. */
export function triggerSame(oldValue: unknown, newValue: unknown): boolean {
  return newValue === undefined || newValue === null || newValue === oldValue;
}

/**
 * adoptId: removing it after adoption changes nothing (the resource is already managed); setting it
 * to the id the resource already has changes nothing; any other id means a different resource.
 */
export function adoptIdSame(oldValue: unknown, newValue: unknown, ctx: DiffContext): boolean {
  if (newValue === undefined || newValue === null) return true;
  return newValue === oldValue || (ctx.id !== undefined && newValue === ctx.id);
}
