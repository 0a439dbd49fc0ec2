// The Secret's specifics (management-api-v2-today.md section 2): v2 only; names are unique, so a
// lost create is resolved by name and a 409 names the secret that holds it; the value and the
// description change in separate PATCHes, value first, because the service does not apply the two
// atomically; the value never appears in a message.

import { ConflictError } from "../../client/errors";
import type { SecretV2 } from "../../client/schemasV2";
import { secretsOf } from "../../model/backend/port";
import { deleteIgnoringMissing, type Operation, type ResourceSpec } from "./lifecycle";
import type { SecretArgs } from "../../model/kinds/secret/secretFields";
import { secretReader } from "../../model/kinds/secret/secretReader";
import type { SecretCreateBody } from "../../client/managementV2";

/** Names compare without regard to case, as the service's list filter does. */
const sameName = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

export const secretSpec: ResourceSpec<SecretArgs, SecretV2, SecretCreateBody> = {
  ...secretReader,
  matches: (s, args) => sameName(s.name, args.name),
  uniqueName: true,
  async create(client, body) {
    try {
      return await secretsOf(client).create(body);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const holder = await secretsOf(client)
        .list(body.name)
        .then((found) => found[0])
        .catch(() => undefined);
      const which = holder ? ` (id ${holder.id}${holder.name !== body.name ? `, named ${JSON.stringify(holder.name)}` : ""})` : "";
      // Still a ConflictError, so the lost-create resolution (createOnce.ts) recognises "name taken".
      throw new ConflictError(
        `a secret named ${JSON.stringify(body.name)} already exists in the account${which}; names are unique (without regard to case). ` +
          `To manage that secret from this stack, set adoptId to its id${holder ? ` (${JSON.stringify(holder.id)})` : ""} ` +
          `(gpucloud.getSecret({ name: ${JSON.stringify(body.name)} }) finds it); or choose another name. [${error.message}]`,
        error,
        { cause: error },
      );
    }
  },
  converge: (op, changes) => applySecretChanges(op, changes.body),
  adoptRemedy: "A secret's name is fixed: declare the live name to adopt it, or remove adoptId to create a new secret.",
  adoptNote: (origin) =>
    origin === "adoptId"
      ? {
          level: "warn",
          text: "adopting an existing secret: the service never returns its value, so the declared value is written to it (a rotation)",
        }
      : { level: "info", text: "adopting the secret an earlier, interrupted create made; its value is written again" },
  async delete({ client, id }) {
    // Consumers that still name it simply stop resolving it at their next boot (the SDK's `ref`
    // makes them depend on the secret, so Pulumi deletes or updates them first).
    await deleteIgnoringMissing(() => secretsOf(client).delete(id));
  },
};

/**
 * The value, then the description, each in a PATCH of its own. When the value's PATCH fails, the
 * secret is read again: a `valueLastUpdatedAt` that moved means the value was written after all,
 * so the failure is recorded as a partial update holding the new value.
 */
async function applySecretChanges(op: Operation<SecretArgs, SecretV2>, body: Record<string, unknown>): Promise<void> {
  const secrets = secretsOf(op.client);
  const value = body["value"];
  const description = body["description"];
  if (typeof value === "string") {
    const before = (op.live ?? (await secrets.get(op.id))).valueLastUpdatedAt;
    op.deps.log.info(`${op.subject}: rotating the value (pods and workers that use it get the new value at their next boot)`);
    try {
      op.live = await secrets.update(op.id, { value });
    } catch (error) {
      const after = await secrets.get(op.id).catch(() => undefined);
      if (after !== undefined && after.valueLastUpdatedAt !== before) {
        op.live = after;
        op.mutated = true;
      }
      throw error;
    }
    op.mutated = true;
  }
  if (typeof description === "string") {
    op.deps.log.info(`${op.subject}: ${description === "" ? "clearing" : "updating"} the description`);
    op.live = await secrets.update(op.id, { description });
    op.mutated = true;
  }
}
