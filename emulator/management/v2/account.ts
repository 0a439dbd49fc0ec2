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
import { createSecret, deleteSecret, secretNamed, secretOf, updateSecret } from "../account/secrets";
import { replaceSshKeys } from "../account/sshKeys";
import { isoTime } from "../context";
import { type V2Context, v2Route } from "./operation";

/** Never the value: it is write-only ("no operation ever returns them", 2). */
function secretView(secret: SecretRecord): { id: string; name: string; description: string | null; createdAt: string; valueLastUpdatedAt: string | null } {
  return { id: secret.id, name: secret.name, description: secret.description, createdAt: isoTime(secret.createdAtMs), valueLastUpdatedAt: isoTime(secret.valueLastUpdatedAtMs) };
}

export function v2SshKeyOperations(v: V2Context): Operation[] {
  const account = (id: string) => v.ctx.store.account(id);
  return [
    v2Route("GET /account/ssh-keys", "getSshKeys", "account:read", "List registered SSH public keys",
      { answer: [200, "SshKeys"], errors: [] },
      ({ accountId }) => ({ status: 200, body: { keys: [...account(accountId).sshKeys] } })),
    v2Route("PUT /account/ssh-keys", "updateSshKeys", "account:write", "Replace registered SSH public keys",
      { body: ["UpdateSshKeysRequest", UpdateSshKeysRequest], answer: [200, "SshKeys", "OK — the updated key set"], errors: [422] },
      ({ accountId, body }) => ({ status: 200, body: { keys: [...replaceSshKeys(account(accountId), body.keys)] } })),
  ];
}

export function v2AccountOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    // No email is on file for an emulator account (the reference allows null).
    v2Route("GET /account", "getAccount", "account:read", "Get your account",
      { answer: [200, "Account"], errors: [] },
      ({ accountId }) => ({ status: 200, body: { id: accountId, email: null } })),
    v2Route("GET /account/limits", "getAccountLimits", "account:read", "Get account limits: the hourly spend cap and the serverless worker quota, each with its current use",
      { answer: [200, "AccountLimits"], errors: [] },
      ({ accountId }) => ({ status: 200, body: limitsView(ctx, account(accountId)) })),
    v2Route("GET /account/secrets", "listSecrets", "secrets:read", "List secrets (query name: only the secret of that name, matched case-insensitively)",
      { query: ListSecretsQuery, answer: [200, "ListSecretsResponse"], errors: [400] },
      ({ accountId, query }) => {
        const acct = account(accountId);
        const secrets = query.name === undefined ? [...acct.secrets.values()] : [secretNamed(acct, query.name)].filter((s) => s !== undefined);
        return { status: 200, body: { secrets: secrets.map(secretView) } };
      }),
    v2Route("POST /account/secrets", "createSecret", "secrets:write", "Create a secret",
      { body: ["CreateSecretRequest", CreateSecretRequest], answer: [201, "Secret"], errors: [400, 409, 422] },
      ({ accountId, body }) => ({ status: 201, body: secretView(createSecret(ctx, account(accountId), body)) })),
    v2Route("GET /account/secrets/{id}", "getSecret", "secrets:read", "Get a secret (never its value)",
      { answer: [200, "Secret"], errors: [404] },
      ({ accountId, params }) => ({ status: 200, body: secretView(secretOf(account(accountId), params.id ?? "")) })),
    v2Route("PATCH /account/secrets/{id}", "updateSecret", "secrets:write", "Rotate a secret's value and/or change its description (value first, then description: not atomic)",
      { body: ["UpdateSecretRequest", UpdateSecretRequest], answer: [200, "Secret"], errors: [400, 404, 422] },
      ({ accountId, params, body }) => ({ status: 200, body: secretView(updateSecret(ctx, secretOf(account(accountId), params.id ?? ""), body)) })),
    v2Route("DELETE /account/secrets/{id}", "deleteSecret", "secrets:write", "Delete a secret (env values that name it stop resolving)",
      { answer: [204, undefined, "Deleted"], errors: [404] },
      ({ accountId, params }) => {
        const acct = account(accountId);
        deleteSecret(acct, secretOf(acct, params.id ?? ""));
        return { status: 204 };
      }),
  ];
}
