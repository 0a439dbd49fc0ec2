/** The AccountSshKeys provider on the provider process's connection (loaded on first use). */
import { V2Backend } from "../../model/backend/v2Backend";
import { currentBackend, managementClient } from "../../model/connection";
import { pulumiLog } from "../resources/deps";
import { accountSshKeysProviderWith, type SshKeysApi } from "./sshKeysProvider";

/** The account's SSH key operations (v2 only), or why there are none. */
function sshKeysApi(): SshKeysApi | string {
  const api = managementClient();
  return api instanceof V2Backend ? api : "account SSH keys need the service's v2 API: set gpucloud:apiUrl to the /v2 URL";
}

export const accountSshKeysProvider = accountSshKeysProviderWith({ api: sshKeysApi, backend: currentBackend, log: pulumiLog });
