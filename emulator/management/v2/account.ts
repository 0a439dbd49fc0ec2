/**
 * /api/v2/account, /account/limits and /account/secrets (management-api-v2-today.md sections 2, 3).
 * Secrets: names unique per account (409; compared case-insensitively, an assumption), immutable,
 * never starting with the platform prefix; the value is write-only (no answer carries it) and
 * reaches pods and workers when they boot (account/secrets.ts). An update that carries both value
 * and description writes the value first, then the description, not atomically, as the service does.
 */
import { notFound } from "../../http/errors";
import type { Operation } from "../../http/router";
import { newId } from "../../ids";
import type { AccountData, SecretRecord } from "../../state/model";
import { limitsView } from "../account/limits";
import { secretNamed, servicePrefix } from "../account/secrets";
import { isoTime } from "../context";
import {
  CreateSecretRequest,
  ListSecretsQuery,
  SECRET_DESCRIPTION_MAX_BYTES,
  UpdateSecretRequest,
} from "./accountSchemas";
import { type V2Context, defineV2Operation } from "./operation";
import { ProblemError, fieldProblem } from "./problem";

const TAG = "account";

function secretView(secret: SecretRecord): { id: string; name: string; description: string | null; createdAt: string; valueLastUpdatedAt: string | null } {
  return {
    id: secret.id,
    name: secret.name,
    description: secret.description,
    createdAt: isoTime(secret.createdAtMs),
    valueLastUpdatedAt: isoTime(secret.valueLastUpdatedAtMs),
  };
}

function secretOf(account: AccountData, id: string): SecretRecord {
  const secret = account.secrets.get(id);
  if (!secret) throw notFound(`secret ${id}`);
  return secret;
}

function checkDescription(description: string | undefined): void {
  if (description !== undefined && Buffer.byteLength(description, "utf8") > SECRET_DESCRIPTION_MAX_BYTES) {
    throw fieldProblem("description", `must be at most ${SECRET_DESCRIPTION_MAX_BYTES} bytes of UTF-8, got ${Buffer.byteLength(description, "utf8")}`);
  }
}

export function v2AccountOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    defineV2Operation({
      method: "GET",
      path: "/account",
      operationId: "getAccount",
      tag: TAG,
      scope: "account:read",
      summary: "Get your account",
      response: { status: 200, description: "OK", schemaName: "Account" },
      errors: [],
      handle({ accountId }) {
        // No email is on file for an emulator account (the reference allows null).
        return { status: 200, body: { id: accountId, email: null } };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/account/limits",
      operationId: "getAccountLimits",
      tag: TAG,
      scope: "account:read",
      summary: "Get account limits: the hourly spend cap and the serverless worker quota, each with its current use",
      response: { status: 200, description: "OK", schemaName: "AccountLimits" },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: limitsView(ctx, account(accountId)) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/account/secrets",
      operationId: "listSecrets",
      tag: TAG,
      scope: "secrets:read",
      summary: "List secrets (query name: only the secret of that name, matched case-insensitively)",
      query: ListSecretsQuery,
      response: { status: 200, description: "OK", schemaName: "ListSecretsResponse" },
      errors: [400],
      handle({ accountId, query }) {
        const acct = account(accountId);
        const secrets = query.name === undefined ? [...acct.secrets.values()] : [secretNamed(acct, query.name)].filter((s) => s !== undefined);
        return { status: 200, body: { secrets: secrets.map(secretView) } };
      },
    }),
    defineV2Operation({
      method: "POST",
      path: "/account/secrets",
      operationId: "createSecret",
      tag: TAG,
      scope: "secrets:write",
      summary: "Create a secret",
      body: CreateSecretRequest,
      bodyName: "CreateSecretRequest",
      response: { status: 201, description: "Created", schemaName: "Secret" },
      errors: [400, 409, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        const prefix = servicePrefix(ctx);
        if (body.name.toUpperCase().startsWith(prefix)) {
          throw fieldProblem("name", `names starting with the reserved prefix ${prefix} (in any case) are not allowed, got ${JSON.stringify(body.name)}; choose another name`);
        }
        checkDescription(body.description);
        const taken = secretNamed(acct, body.name);
        if (taken) {
          throw new ProblemError(409, `a secret named ${JSON.stringify(taken.name)} already exists (${taken.id}); names are unique per account: update that secret, or choose another name`, [
            `invalid name: ${JSON.stringify(body.name)} is already taken`,
          ]);
        }
        const now = ctx.clock.now();
        const secret: SecretRecord = {
          id: newId("secret", (candidate) => acct.secrets.has(candidate)),
          accountId,
          createdAtMs: now,
          name: body.name,
          description: body.description ?? null,
          value: body.value,
          valueLastUpdatedAtMs: now,
        };
        acct.secrets.set(secret.id, secret);
        return { status: 201, body: secretView(secret) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/account/secrets/{id}",
      operationId: "getSecret",
      tag: TAG,
      scope: "secrets:read",
      summary: "Get a secret (never its value)",
      response: { status: 200, description: "OK", schemaName: "Secret" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: secretView(secretOf(account(accountId), params.id ?? "")) };
      },
    }),
    defineV2Operation({
      method: "PATCH",
      path: "/account/secrets/{id}",
      operationId: "updateSecret",
      tag: TAG,
      scope: "secrets:write",
      summary: "Rotate a secret's value and/or change its description (value first, then description: not atomic)",
      body: UpdateSecretRequest,
      bodyName: "UpdateSecretRequest",
      response: { status: 200, description: "OK", schemaName: "Secret" },
      errors: [400, 404, 422],
      handle({ accountId, params, body }) {
        const secret = secretOf(account(accountId), params.id ?? "");
        if (body.value !== undefined) {
          secret.value = body.value;
          secret.valueLastUpdatedAtMs = ctx.clock.now();
          ctx.changed();
        }
        if (body.description !== undefined) {
          try {
            checkDescription(body.description);
          } catch (error) {
            // As the service: the value written above stays in force although the call fails.
            if (body.value !== undefined && error instanceof ProblemError) {
              throw new ProblemError(error.status, `${error.message} (the new value was written before the description failed and is in force)`, error.errors);
            }
            throw error;
          }
          secret.description = body.description === "" ? null : body.description;
        }
        return { status: 200, body: secretView(secret) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/account/secrets/{id}",
      operationId: "deleteSecret",
      tag: TAG,
      scope: "secrets:write",
      summary: "Delete a secret (env values that name it stop resolving)",
      response: { status: 204, description: "Deleted" },
      errors: [404],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const secret = secretOf(acct, params.id ?? "");
        acct.secrets.delete(secret.id);
        return { status: 204 };
      },
    }),
  ];
}
