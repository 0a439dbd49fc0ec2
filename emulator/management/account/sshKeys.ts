/**
 * The account's registered SSH public keys (/api/v2/account/ssh-keys), read and replaced whole.
 * Reference (getSshKeys, updateSshKeys): "Replaces the account's full set of registered SSH public
 * keys. Existing keys not present in the request are removed; send `[]` to remove all keys. Keys
 * take effect for pods created afterwards with `startSsh` — running pods are not updated." A pod
 * created with startSsh gets them as PUBLIC_KEY, one key per line (pods/create.ts). Saved in the
 * state file.
 */
import type { AccountData } from "../../state/model";

export function replaceSshKeys(account: AccountData, keys: readonly string[]): string[] {
  account.sshKeys = [...keys];
  return account.sshKeys;
}
