// Secrets: a credential never sits in a plain environment variable of a pod or template, where the
// service stores and shows it as configuration. It goes in an account Secret, and the env holds
// the Secret's reference (`secret.ref`, `{{ GPUCLOUD_SECRET_<name> }}`), which the service
// replaces when the pod or worker boots. A credential is recognised by the variable's name and by
// the value's shape. (Registry passwords and Secret values are always Pulumi secrets: the package
// makes them so in state and previews.)

import { z } from "zod";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { SERVICE_ENV_PREFIX } from "../../client/secrets";
import { gpuResourcePolicy } from "./define";
import { stringMapOf, violationText } from "./resources";

/** Config of {@link secretsPolicy} (`gpucloud-secrets`). */
export interface SecretsPolicyConfig {
  /** Env variable names allowed to hold a plain value although their name looks like a credential's, e.g. `["TOKENIZERS_PARALLELISM"]`. Default none. */
  allowedKeys?: string[];
}

const secretsConfig: z.ZodType<Required<SecretsPolicyConfig>> & z.ZodObject = z.object({
  allowedKeys: z
    .array(z.string())
    .default([])
    .describe("Env names allowed to hold a plain value although they look like a credential's. Default none."),
});

/** Names that say the value is a credential (PUBLIC_KEY, the SSH key the platform reads, is not one). */
const CREDENTIAL_NAME = /PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH/i;
const NOT_CREDENTIAL_NAMES = new Set(["PUBLIC_KEY"]);

/** Shapes of well-known credentials, whatever the variable is called. */
const CREDENTIAL_SHAPES: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: "a private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { what: "an access key id", pattern: /\bAKIA[0-9A-Z]{16}\b/ },
  { what: "a GitHub token", pattern: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/ },
  { what: "a GitLab token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { what: "a Hugging Face token", pattern: /\bhf_[A-Za-z0-9]{20,}\b/ },
  { what: "an API key", pattern: /\bsk-[A-Za-z0-9_-]{20,}\b/ },
  { what: "a Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { what: "a JSON web token", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
];

/** The reference the service replaces with a Secret's value at boot, e.g. `{{ GPUCLOUD_SECRET_hf_token }}`. */
const SECRET_REFERENCE = new RegExp(`^\\{\\{\\s*${SERVICE_ENV_PREFIX}_SECRET_[^}\\s]+\\s*\\}\\}$`);

/** A credential-looking value as a message may show it: its first characters and its length, never the rest. */
export function redacted(value: string): string {
  return `"${value.slice(0, 3)}..." (${value.length} characters, the rest withheld)`;
}

/** Why an env entry looks like a plain credential, or undefined. */
function credentialIn(key: string, value: string): string | undefined {
  if (value === "" || SECRET_REFERENCE.test(value.trim())) return undefined;
  const shape = CREDENTIAL_SHAPES.find((s) => s.pattern.test(value));
  if (shape) return `looks like ${shape.what}`;
  if (CREDENTIAL_NAME.test(key) && !NOT_CREDENTIAL_NAMES.has(key.toUpperCase())) return "is a plain value under a credential's name";
  return undefined;
}

/** No credential in a plain env value of a pod or template: only Secret references. */
export const secretsPolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-secrets",
  description:
    "No credential (by env name or by value shape) in a plain environment variable of a pod or template: credentials go in a gpucloud.Secret and the env holds its reference (secret.ref).",
  enforcementLevel: "mandatory",
  config: secretsConfig,
  check: (resource, config) => {
    if (resource.kind !== "pod" && resource.kind !== "template") return [];
    const out: string[] = [];
    for (const [key, value] of stringMapOf(resource.props["env"])) {
      if (config.allowedKeys.includes(key)) continue;
      const why = credentialIn(key, value);
      if (why === undefined) continue;
      out.push(
        violationText({
          resource,
          field: `env.${key}`,
          shown: redacted(value),
          rule: `${why}: env values are stored and shown as plain configuration`,
          fix: `keep it in a Secret (new gpucloud.Secret("...", { name: "${key}", value: config.requireSecret("...") })) and set env.${key} to its reference, secret.ref; or add "${key}" to allowedKeys if it is no credential`,
        }),
      );
    }
    return out;
  },
});
