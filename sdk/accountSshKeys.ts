import * as pulumi from "@pulumi/pulumi";
import { ACCOUNT_SSH_KEYS_TYPE, OWNER_INPUT, RESOURCE_MODULE } from "../model/kinds";
import { ownerIdentity } from "./props";
import accountSshKeysShim from "../provider/shims/accountSshKeys";

/** Arguments of {@link AccountSshKeys}. */
export interface AccountSshKeysArgs {
  /**
   * The account's whole set of SSH public keys, each an authorized_keys line
   * (`"ssh-ed25519 AAAA... me@laptop"`, the contents of a `.pub` file); `[]` registers none.
   * Required. In place (the set is replaced whole; order carries no meaning). Pods created
   * afterwards with `startSsh` get them as `PUBLIC_KEY`; running pods keep the keys they have.
   */
  keys: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * The account's registered SSH public keys (v2 API only: on v1, preview fails naming the fix).
 * Declare one per account: the keys are one list, and two of these would overwrite each other.
 * Create records the keys registered before and `destroy` puts them back. A pod's `startSsh`
 * does nothing without registered keys, and the service reads them only when the pod is created:
 * give each pod that needs them `dependsOn: [sshKeys]` (nothing else orders the two), or the pod
 * may be created first without them (the pod's create then warns).
 */
export class AccountSshKeys extends pulumi.dynamic.Resource {
  /** The keys registered, as the service answered. */
  declare readonly keys: pulumi.Output<string[]>;
  /** The keys registered before this resource was created; `destroy` restores them. */
  declare readonly replacedKeys: pulumi.Output<string[]>;

  constructor(name: string, args: AccountSshKeysArgs, opts?: pulumi.CustomResourceOptions) {
    const owner = ownerIdentity(ACCOUNT_SSH_KEYS_TYPE, name, opts);
    super(
      accountSshKeysShim,
      name,
      { keys: args.keys, replacedKeys: undefined, [OWNER_INPUT]: owner },
      opts,
      RESOURCE_MODULE,
      ACCOUNT_SSH_KEYS_TYPE,
    );
  }
}
