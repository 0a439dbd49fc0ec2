/**
 * Account secrets as pods and workers see them: an env value holding `{{ <PREFIX>_SECRET_<name> }}`
 * gets the secret's value when the pod or worker BOOTS. The stored configuration keeps the
 * placeholder, so a rotated value reaches only the next boot and a read never shows a value.
 *
 * Assumptions (emulator README, "Account secrets"): whitespace inside the braces is optional and
 * may be any amount; a placeholder may sit inside a longer value; the name is matched
 * case-insensitively (as the list filter and name uniqueness are); a placeholder naming no secret
 * (e.g. a deleted one) is left as it is, literally.
 */
import type { AccountData } from "../../state/model";
import { secretNamed } from "./secrets";

export function placeholderPattern(prefix: string): RegExp {
  return new RegExp(`\\{\\{\\s*${prefix}_SECRET_([a-zA-Z_][a-zA-Z0-9_.\\-/]*)\\s*\\}\\}`, "g");
}

/** `env` as a booting pod or worker receives it: every resolvable placeholder replaced by its value. */
export function resolveSecrets(
  account: AccountData | undefined,
  env: Readonly<Record<string, string>>,
  prefix: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = placeholderPattern(prefix);
  for (const [key, value] of Object.entries(env)) {
    out[key] =
      account === undefined || !value.includes("{{")
        ? value
        : value.replace(pattern, (literal, name: string) => secretNamed(account, name)?.value ?? literal);
  }
  return out;
}
