/**
 * /api/v2/account, /account/limits, /account/secrets and /account/ssh-keys
 * (management-api-v2-today.md sections 2, 3): the account's commands (management/account/) in v2
 * shapes.
 */
import type { Operation } from "../../http/router";
import type { SecretRecord } from "../../state/model";
import { CreateSecretRequest, ListSecretsQuery, UpdateSecretRequest } from "../../vocabulary/schemas/v2/account";
import { UpdateSshKeysRequest } from "../../vocabulary/schemas/v2/requests";
import { limitsView } from "../account/limits";
import { createSecret, deleteSecret, secretOf, secretsOf, updateSecret } from "../account/secrets";
import { replaceSshKeys } from "../account/sshKeys";
import { isoTime } from "../context";
import type { V2Context } from "./operation";

/** Never the value: it is write-only ("no operation ever returns them", 2). */
function secretView(secret: SecretRecord): {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  valueLastUpdatedAt: string | null;
} {
  return {
    id: secret.id,
    name: secret.name,
    description: secret.description,
    createdAt: isoTime(secret.createdAtMs),
    valueLastUpdatedAt: isoTime(secret.valueLastUpdatedAtMs),
  };
}

export function v2SshKeyOperations({ route }: V2Context): Operation[] {
  return [
    route(
      ["GET /account/ssh-keys", "getSshKeys", "account:read", "List registered SSH public keys"],
      { answer: [200, "SshKeys"], errors: [] },
      ({ account }) => ({ status: 200, body: { keys: [...account.sshKeys] } }),
    ),
    route(
      ["PUT /account/ssh-keys", "updateSshKeys", "account:write", "Replace registered SSH public keys"],
      { body: ["UpdateSshKeysRequest", UpdateSshKeysRequest], answer: [200, "SshKeys", "OK — the updated key set"], errors: [422] },
      ({ account, body }) => ({ status: 200, body: { keys: [...replaceSshKeys(account, body.keys)] } }),
    ),
  ];
}

export function v2AccountOperations({ ctx, route }: V2Context): Operation[] {
  return [
    // No email is on file for an emulator account (the reference allows null).
    route(
      ["GET /account", "getAccount", "account:read", "Get your account"],
      { answer: [200, "Account"], errors: [] },
      ({ accountId }) => ({ status: 200, body: { id: accountId, email: null } }),
    ),
    route(
      [
        "GET /account/limits",
        "getAccountLimits",
        "account:read",
        "Get account limits: the hourly spend cap and the serverless worker quota, each with its current use",
      ],
      { answer: [200, "AccountLimits"], errors: [] },
      ({ account }) => {
        const limits = limitsView(ctx, account);
        if (!ctx.options.quirks.accountLimitsOtherFieldNames) return { status: 200, body: limits };
        const renamed = (l: { limit: number; current: number }) => ({ max: l.limit, used: l.current });
        return { status: 200, body: { spendRate: renamed(limits.spendRate), serverlessWorkers: renamed(limits.serverlessWorkers) } };
      },
    ),
    route(
      [
        "GET /account/secrets",
        "listSecrets",
        "secrets:read",
        "List secrets (query name: only the secret of that name, matched case-insensitively)",
      ],
      { query: ListSecretsQuery, answer: [200, "ListSecretsResponse"], errors: [400] },
      ({ account, query }) => ({
        status: 200,
        body: { secrets: [...ctx.visibility.listed(secretsOf(account, query.name))].map(secretView) },
      }),
    ),
    route(
      ["POST /account/secrets", "createSecret", "secrets:write", "Create a secret"],
      { body: ["CreateSecretRequest", CreateSecretRequest], answer: [201, "Secret"], errors: [400, 409, 422] },
      ({ account, body }) => ({ status: 201, body: secretView(createSecret(ctx, account, body)) }),
    ),
    route(
      ["GET /account/secrets/{id}", "getSecret", "secrets:read", "Get a secret (never its value)"],
      { answer: [200, "Secret"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: secretView(secretOf(account, id)) }),
    ),
    route(
      [
        "PATCH /account/secrets/{id}",
        "updateSecret",
        "secrets:write",
        "Rotate a secret's value and/or change its description (value first, then description: not atomic)",
      ],
      { body: ["UpdateSecretRequest", UpdateSecretRequest], answer: [200, "Secret"], errors: [400, 404, 422] },
      ({ account, id, body }) => ({ status: 200, body: secretView(updateSecret(ctx, secretOf(account, id), body)) }),
    ),
    route(
      ["DELETE /account/secrets/{id}", "deleteSecret", "secrets:write", "Delete a secret (env values that name it stop resolving)"],
      { answer: [204, undefined, "Deleted"], errors: [404] },
      ({ account, id }) => {
        deleteSecret(account, secretOf(account, id));
        return { status: 204 };
      },
    ),
  ];
}
