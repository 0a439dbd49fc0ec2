/**
 * /api/v2/account/ssh-keys: the account's registered SSH public keys, read and replaced whole.
 * Reference (getSshKeys, updateSshKeys): "Replaces the account's full set of registered SSH public
 * keys. Existing keys not present in the request are removed; send `[]` to remove all keys. Keys
 * take effect for pods created afterwards with `startSsh` — running pods are not updated." A pod
 * created with startSsh gets them as PUBLIC_KEY (pods.ts), one key per line.
 */
import type { Operation } from "../../http/router";
import { type V2Context, defineV2Operation } from "./operation";
import { UpdateSshKeysRequest } from "./schemas";

const TAG = "account";

export function v2SshKeyOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  return [
    defineV2Operation({
      method: "GET",
      path: "/account/ssh-keys",
      operationId: "getSshKeys",
      tag: TAG,
      scope: "account:read",
      summary: "List registered SSH public keys",
      response: { status: 200, description: "OK", schemaName: "SshKeys" },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: { keys: [...ctx.store.account(accountId).sshKeys] } };
      },
    }),
    defineV2Operation({
      method: "PUT",
      path: "/account/ssh-keys",
      operationId: "updateSshKeys",
      tag: TAG,
      scope: "account:write",
      summary: "Replace registered SSH public keys",
      body: UpdateSshKeysRequest,
      bodyName: "UpdateSshKeysRequest",
      response: { status: 200, description: "OK — the updated key set", schemaName: "SshKeys" },
      errors: [422],
      handle({ accountId, body }) {
        const account = ctx.store.account(accountId);
        account.sshKeys = [...body.keys];
        return { status: 200, body: { keys: [...account.sshKeys] } };
      },
    }),
  ];
}
