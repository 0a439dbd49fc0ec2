/** The AccountSshKeys provider on the provider process's connection (loaded on first use). */
import { currentBackend, managementClient } from "../../model/connection";
import { pulumiLog, type ProgressLog } from "../resources/deps";
import { accountSshKeysProviderWith, type SshKeysApi } from "./sshKeysProvider";
import { fileJournal } from "../resources/createJournal";

/** The account's SSH key operations (v2 only), or why there are none. */
function sshKeysApi(): SshKeysApi | string {
  const account = managementClient().account;
  return account ?? "account SSH keys need the service's v2 API: set gpucloud:apiUrl to the /v2 URL";
}

/** The provider reporting its progress through `log` (the provider plugin's goes to the engine, by resource). */
export function accountSshKeysProviderLogging(log: ProgressLog) {
  return accountSshKeysProviderWith({ api: sshKeysApi, backend: currentBackend, log, journal: () => fileJournal() });
}

export const accountSshKeysProvider = accountSshKeysProviderLogging(pulumiLog);
