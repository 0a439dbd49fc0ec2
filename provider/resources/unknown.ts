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
