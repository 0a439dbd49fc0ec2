/** The AccountSshKeys provider on the provider process's connection (loaded on first use). */
import { currentBackend, managementClient } from "../../model/connection";
import { pulumiLog } from "../resources/deps";
import { accountSshKeysProviderWith, type SshKeysApi } from "./sshKeysProvider";

/** The account's SSH key operations (v2 only), or why there are none. */
function sshKeysApi(): SshKeysApi | string {
  const api = managementClient();
  const sshKeys = api.sshKeys?.bind(api);
  const replaceSshKeys = api.replaceSshKeys?.bind(api);
  return sshKeys && replaceSshKeys
    ? { sshKeys, replaceSshKeys }
    : "account SSH keys need the service's v2 API: set gpucloud:apiUrl to the /v2 URL";
}

export const accountSshKeysProvider = accountSshKeysProviderWith({ api: sshKeysApi, backend: currentBackend, log: pulumiLog });
