// Small value helpers shared by check, diff and read: presence, structural equality, and how a
// value is quoted in messages.

import { OWNER_INPUT } from "../kinds";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Props = Record<string, unknown>;

/** A typed input's fields as a property bag (its own copy). */
export function fieldsOf(input: object): Props {
  return Object.fromEntries(Object.entries(input));
}

/** A field counts as declared when it is present and neither undefined nor null (null = unset). */
export function isPresent(props: Props | undefined, key: string): boolean {
  if (!props || !Object.hasOwn(props, key)) return false;
  const value = props[key];
  return value !== undefined && value !== null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON-like values. `unordered` compares lists as multisets. */
export function deepEqual(a: unknown, b: unknown, unordered = false): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    if (!unordered) return a.every((item, i) => deepEqual(item, b[i]));
    const rest = [...b];
    for (const item of a) {
      const at = rest.findIndex((other) => deepEqual(item, other));
      if (at < 0) return false;
      rest.splice(at, 1);
    }
    return true;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
    for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}

/** A value as it should appear in a message: JSON for data, a placeholder for functions etc. */
export function quote(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  } catch {
    return String(value);
  }
}

/** What kind of value this is, for messages about values that must not be printed (secrets). */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value;
}

/** Inputs the provider adds for itself (the dynamic provider's code, the owner): never a field, never a change. */
export function isProviderInput(key: string): boolean {
  return key === "__provider" || key === OWNER_INPUT;
}

/** A copy without undefined/null values and without the provider's own inputs (`__provider`, `__owner`). */
export function withoutUnset(props: Props): Props {
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) {
    if (isProviderInput(key) || value === undefined || value === null) continue;
    out[key] = value;
  }
  return out;
}

// During preview, inputs that depend on outputs not yet known arrive as this sentinel string (the
// dynamic provider host's `rpc.unknownValue`), anywhere in the input tree: a whole field, one list
// element, one env value. check must accept it and diff must treat it as "may change".

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value is, or contains somewhere inside it, an unknown. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
