/**
 * Account secrets (/api/v2/account/secrets; management-api-v2-today.md section 2): names unique per
 * account (409; compared case-insensitively, an assumption), immutable, never starting with the
 * platform prefix; the value is write-only (no answer carries it) and reaches pods and workers when
 * they boot (placeholders.ts). An update that carries both value and description writes the value
 * first, then the description, not atomically, as the service does (2.3).
 */
import { newId } from "../../ids";
import { DEFAULT_WORKER_ENV_PREFIX } from "../../serverless/external/workerEnv";
import type { AccountData, SecretRecord } from "../../state/model";
import { SECRET_DESCRIPTION_MAX_BYTES } from "../../vocabulary/schemas/v2/account";
import type { ManagementContext } from "../context";
import { Refusal, conflict, invalid, notFound } from "../errors";

/**
 * The platform's upper-case env prefix (`GPUCLOUD` unless --worker-env-prefix says otherwise, as in
 * GPUCLOUD_POD_ID): the placeholder's prefix and the reserved secret-name prefix.
 */
export function servicePrefix(ctx: Pick<ManagementContext, "options">): string {
  return ctx.options.serverless.workerEnvPrefix ?? DEFAULT_WORKER_ENV_PREFIX;
}

export function secretOf(account: AccountData, id: string): SecretRecord {
  const secret = account.secrets.get(id);
  if (!secret) throw notFound(`secret ${id}`);
  return secret;
}

/** The account's secret of that name, compared case-insensitively (listSecrets' `name`: "matched case-insensitively"). */
export function secretNamed(account: AccountData, name: string): SecretRecord | undefined {
  const wanted = name.toLowerCase();
  for (const secret of account.secrets.values()) if (secret.name.toLowerCase() === wanted) return secret;
  return undefined;
}

/** The account's secrets: every one, or (listSecrets' `name` given) only the one of that name. */
export function secretsOf(account: AccountData, name: string | undefined): SecretRecord[] {
  if (name === undefined) return [...account.secrets.values()];
  const secret = secretNamed(account, name);
  return secret ? [secret] : [];
}

/** `description`: "at most 65,535 bytes of UTF-8" (2.2), checked here rather than by the schema: see updateSecret. */
function checkDescription(description: string | undefined): void {
  if (description !== undefined && Buffer.byteLength(description, "utf8") > SECRET_DESCRIPTION_MAX_BYTES) {
    throw invalid(
      "description",
      `must be at most ${SECRET_DESCRIPTION_MAX_BYTES} bytes of UTF-8, got ${Buffer.byteLength(description, "utf8")}`,
    );
  }
}

/** CreateSecretRequest.name: "names starting with the reserved prefix `<SERVICE>` are rejected, case-insensitively; unique per account". */
export function createSecret(
  ctx: ManagementContext,
  account: AccountData,
  input: { name: string; value: string; description?: string | undefined },
): SecretRecord {
  const prefix = servicePrefix(ctx);
  if (input.name.toUpperCase().startsWith(prefix)) {
    throw invalid(
      "name",
      `names starting with the reserved prefix ${prefix} (in any case) are not allowed, got ${JSON.stringify(input.name)}; choose another name`,
    );
  }
  checkDescription(input.description);
  const taken = secretNamed(account, input.name);
  if (taken) {
    throw conflict(
      `a secret named ${JSON.stringify(taken.name)} already exists (${taken.id}); names are unique per account: update that secret, or choose another name`,
      [`invalid name: ${JSON.stringify(input.name)} is already taken`],
    );
  }
  const now = ctx.clock.now();
  const secret: SecretRecord = {
    id: newId("secret", (candidate) => account.secrets.has(candidate)),
    accountId: account.accountId,
    createdAtMs: now,
    name: input.name,
    description: input.description ?? null,
    value: input.value,
    valueLastUpdatedAtMs: now,
  };
  account.secrets.set(secret.id, secret);
  return secret;
}

/** "the value is written first, then the description, not atomically: a failure on the description leaves the new value in force" (2.3). */
export function updateSecret(
  ctx: ManagementContext,
  secret: SecretRecord,
  change: { value?: string | undefined; description?: string | undefined },
): SecretRecord {
  if (change.value !== undefined) {
    secret.value = change.value;
    secret.valueLastUpdatedAtMs = ctx.clock.now();
    ctx.changed();
  }
  if (change.description !== undefined) {
    try {
      checkDescription(change.description);
    } catch (error) {
      if (change.value !== undefined && error instanceof Refusal) {
        throw new Refusal(
          error.status,
          `${error.message} (the new value was written before the description failed and is in force)`,
          error.errors,
        );
      }
      throw error;
    }
    // `""` clears it (UpdateSecretRequest.description).
    secret.description = change.description === "" ? null : change.description;
  }
  return secret;
}

/** "Delete is permanent; env vars that still reference the name simply stop resolving" (2.3). */
export function deleteSecret(account: AccountData, secret: SecretRecord): void {
  account.secrets.delete(secret.id);
}
