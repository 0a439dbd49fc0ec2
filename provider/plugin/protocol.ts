// How values cross the provider protocol, apart from protobuf itself: secrets, unknowns and what
// the engine may not be sent. Pure functions on plain values (the server converts them from and to
// protobuf Structs).
//
// - Secrets: the plugin accepts secrets (Configure says so), so a secret value arrives wrapped as
//   `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": ...}`
//   anywhere in a property tree. The lifecycle works on plain values, so they are unwrapped on the
//   way in, remembering which top-level properties held one; on the way out those properties, and
//   the fields a resource always keeps secret (its table's sensitive rows), are wrapped whole.
// - Unknowns: at preview a value not known yet arrives as the string
//   "04da6b54-80e4-46f7-96ec-b56ff0331ba9" (the same sentinel the dynamic-provider host passes on,
//   its `rpc.unknownValue`), which the lifecycle's check and diff already treat as unknown: it is
//   passed through as it is, also inside a secret.
// - The engine is never sent `undefined` (a Struct cannot hold it) nor the dynamic provider's
//   `__provider` text, which a resource migrated from a dynamic one still has in its old state.

import { isRecord, type Props } from "../../model/fields/values";

/** The key and value that mark a secret in the protocol's property values. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** What a property bag holds once its secrets are unwrapped, and which of its properties held one. */
export interface Revealed {
  values: Props;
  secretKeys: Set<string>;
}

export function isSecretValue(value: unknown): value is { value?: unknown } {
  return isRecord(value) && value[SECRET_SIG_KEY] === SECRET_SIG;
}

/** A value with every secret inside it unwrapped, and whether it held one. */
export function reveal(value: unknown): { value: unknown; secret: boolean } {
  if (isSecretValue(value)) return { value: reveal(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(reveal);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (isRecord(value)) {
    let secret = false;
    const out: Props = {};
    for (const [key, item] of Object.entries(value)) {
      const revealed = reveal(item);
      out[key] = revealed.value;
      secret ||= revealed.secret;
    }
    return { value: out, secret };
  }
  return { value, secret: false };
}

/** A property bag unwrapped for the lifecycle; undefined (no bag sent) reads as none. */
export function revealProps(props: Props | undefined): Revealed {
  const values: Props = {};
  const secretKeys = new Set<string>();
  for (const [key, item] of Object.entries(props ?? {})) {
    const revealed = reveal(item);
    values[key] = revealed.value;
    if (revealed.secret) secretKeys.add(key);
  }
  return { values, secretKeys };
}

export function secretOf(value: unknown): Props {
  return { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

/**
 * A property bag as the engine is sent it: the named properties wrapped as secrets (whole, once),
 * `undefined` left out (a list keeps its length with null), and no `__provider`.
 */
export function forEngine(props: Props, secretKeys: Iterable<string> = []): Props {
  const secret = new Set(secretKeys);
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) {
    if (key === "__provider" || value === undefined) continue;
    const clean = withoutUndefined(value);
    out[key] = secret.has(key) && !isSecretValue(clean) ? secretOf(clean) : clean;
  }
  return out;
}

function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : withoutUndefined(item)));
  if (isRecord(value)) {
    const out: Props = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = withoutUndefined(item);
    return out;
  }
  return value;
}

/** The secret properties of a result: the resource's sensitive fields, and any its inputs held as secrets. */
export function secretKeysOf(sensitive: readonly string[], ...inputs: Revealed[]): Set<string> {
  const keys = new Set(sensitive);
  for (const input of inputs) for (const key of input.secretKeys) keys.add(key);
  return keys;
}

/** One property's change in the protocol's words (PropertyDiff.Kind). */
export type PropertyDiffKind = "ADD" | "ADD_REPLACE" | "UPDATE" | "UPDATE_REPLACE" | "DELETE" | "DELETE_REPLACE";

/** The lifecycle's per-field diff as the protocol's detailed diff. */
export function detailedDiffOf(
  detailed: Readonly<Record<string, { kind: "add" | "update" | "delete"; replace: boolean }>>,
): Record<string, PropertyDiffKind> {
  const out: Record<string, PropertyDiffKind> = {};
  for (const [path, change] of Object.entries(detailed)) {
    out[path] = `${change.kind.toUpperCase() as "ADD" | "UPDATE" | "DELETE"}${change.replace ? "_REPLACE" : ""}` as PropertyDiffKind;
  }
  return out;
}
