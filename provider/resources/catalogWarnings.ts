// GPU types and data centers come and go faster than this package is released: an id the
// reference does not list is a warning (it may be new), not a failure.

import { closest } from "./validation";
import { isUnknown } from "./unknown";
import { quote } from "./values";

export function unknownIdWarnings(noun: string, field: string, value: unknown, known: readonly string[]): string[] {
  const values = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const out: string[] = [];
  values.forEach((v: unknown, i) => {
    if (typeof v !== "string" || isUnknown(v) || known.includes(v)) return;
    const near = closest(v, known);
    const at = Array.isArray(value) ? `${field}[${i}]` : field;
    out.push(`${noun} ${at}: ${quote(v)} is not a known id${near ? ` (did you mean ${quote(near)}?)` : ""}; it is passed to the service as given`);
  });
  return out;
}
