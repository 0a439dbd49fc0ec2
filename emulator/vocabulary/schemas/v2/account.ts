/**
 * Request and response shapes of /api/v2/account, /account/limits and /account/secrets
 * (management-api-v2-today.md sections 2 and 3). `AccountLimits`' inner fields are the emulator's
 * assumption: the reference shows only that both objects exist (emulator README, "Account limits").
 */
import { z } from "zod";

/** Allowed secret names (the reference's pattern, section 2.2; 1..191 characters is checked beside it). */
export const SECRET_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;

/** A secret value must be strictly under 16 MiB of UTF-8 (the schema's maxLength is 16777216 characters). */
export const SECRET_VALUE_MAX_CHARS = 16_777_216;
/** A description holds at most 65,535 bytes of UTF-8 (checked by the command, after the value: see updateSecret in management/account/secrets.ts). */
export const SECRET_DESCRIPTION_MAX_BYTES = 65_535;

const SecretName = z
  .string()
  .min(1)
  .max(191)
  .regex(SECRET_NAME_PATTERN, "must start with a letter or _ and hold only letters, digits, _ . - /");
const SecretValue = z.string().min(1).max(SECRET_VALUE_MAX_CHARS);

export const CreateSecretRequest = z.strictObject({ name: SecretName, value: SecretValue, description: z.string().optional() });
export type CreateSecretRequest = z.infer<typeof CreateSecretRequest>;

export const UpdateSecretRequest = z
  .strictObject({ value: SecretValue.optional(), description: z.string().optional() })
  .refine((body) => Object.keys(body).length > 0, {
    message: "send at least one of value, description (minProperties 1; name cannot change)",
  });
export type UpdateSecretRequest = z.infer<typeof UpdateSecretRequest>;

export const ListSecretsQuery = z.object({ name: z.string().optional() });

export const Secret = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  valueLastUpdatedAt: z.string().nullable(),
});
export const ListSecretsResponse = z.object({ secrets: z.array(Secret) });

export const Account = z.object({ id: z.string(), email: z.string().nullable() });

const Limit = z.object({ limit: z.number(), current: z.number() });
export const AccountLimits = z.object({ spendRate: Limit, serverlessWorkers: Limit });
