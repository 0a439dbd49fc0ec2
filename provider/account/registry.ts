/** The AccountSshKeys provider on the provider process's connection (loaded on first use). */
import { currentBackend, sshKeysApi } from "../connection";
import { pulumiLog } from "../resources/deps";
import { accountSshKeysProviderWith } from "./sshKeysProvider";

export const accountSshKeysProvider = accountSshKeysProviderWith({ api: sshKeysApi, backend: currentBackend, log: pulumiLog });
