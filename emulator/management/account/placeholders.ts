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
import { DEFAULT_WORKER_ENV_PREFIX } from "../../serverless/external/workerEnv";
import type { AccountData } from "../../state/model";
import type { ManagementContext } from "../context";
import { secretNamed } from "./secrets";

/**
 * The platform's upper-case env prefix (`GPUCLOUD` unless --worker-env-prefix says otherwise, as in
 * GPUCLOUD_POD_ID): the placeholder's prefix and the reserved secret-name prefix.
 */
export function servicePrefix(ctx: Pick<ManagementContext, "options">): string {
  return ctx.options.serverless.workerEnvPrefix ?? DEFAULT_WORKER_ENV_PREFIX;
}

export function placeholderPattern(prefix: string): RegExp {
  return new RegExp(`\\{\\{\\s*${prefix}_SECRET_([a-zA-Z_][a-zA-Z0-9_.\\-/]*)\\s*\\}\\}`, "g");
}

/** `env` as a booting pod or worker receives it: every resolvable placeholder replaced by its value. */
export function resolveSecrets(account: AccountData | undefined, env: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
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
