// Values the program gave as secrets, kept out of what the plugin prints. The field tables mark the
// arguments that always hold secrets (env, passwords), and their checks never quote them; any other
// argument can also be given as a secret (`pulumi.secret(...)`), and only the plugin knows which:
// the engine tells it (the dynamic resources are sent plain values, see docs/limits.md).
// A check failure or a warning about such a value would quote it, so those texts are redacted, by the
// client's redaction (client/redact.ts), as the API key is from every error.

import { redactText } from "../../client/redact";
import type { Props } from "../../model/fields/values";

/**
 * The texts of the values under `secretKeys` that are at least `minLength` long: every string and
 * number in them, longest first. Redacting every "1" or "true" in a message would garble it and hide
 * nothing, so texts redacted anywhere are 4 characters or more; a failure about the secret argument
 * itself redacts all of its values (redactFailure).
 */
export function secretTexts(values: Props, secretKeys: Iterable<string>, minLength = 4): string[] {
  const texts = new Set<string>();
  const visit = (value: unknown): void => {
    const text = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
    if (text !== undefined) {
      if (text.length < Math.max(1, minLength)) return;
      texts.add(text);
      // As a message quotes it (JSON.stringify), when that spells it differently: "a\"b" for a"b.
      const quoted = JSON.stringify(text).slice(1, -1);
      if (quoted !== text) texts.add(quoted);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  for (const key of secretKeys) visit(values[key]);
  return [...texts].sort((a, b) => b.length - a.length);
}

/**
 * A check failure with the secrets' values redacted; one about an argument given as a secret names
 * no property (the engine would print its value), its reason starting with the argument's name.
 */
export function redactFailure(
  failure: { property: string; reason: string },
  secretKeys: ReadonlySet<string>,
  secrets: readonly string[],
  values: Props,
): { property: string; reason: string } {
  const field = failure.property.split(/[.[]/)[0] ?? "";
  if (!secretKeys.has(field)) return { property: failure.property, reason: redactText(failure.reason, secrets) };
  // Longest first, so that no shorter text splits a longer one before it is replaced whole.
  const all = [...new Set([...secrets, ...secretTexts(values, [field], 1)])].sort((a, b) => b.length - a.length);
  const reason = redactText(failure.reason, all);
  return { property: "", reason: reason.startsWith(`${failure.property}:`) ? reason : `${failure.property}: ${reason}` };
}

/** Runs a create or update: an error it ends with has the secrets' values redacted from its message. */
export async function redactingErrors<T>(secrets: readonly string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (secrets.length > 0 && error instanceof Error) error.message = redactText(error.message, secrets);
    throw error;
  }
}
