import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import registryAuthShim from "../provider/shims/registryAuth";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import type { RegistryAuthOutputArguments } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";
import type { ArgumentOutputs } from "./argumentOutputs";

/**
 * Arguments of a {@link RegistryAuth}. The service has no update operation for credentials: any
 * change replaces them (new id; pods and templates referring to `registryAuth.id` are updated).
 */
export interface RegistryAuthArgs {
  /**
   * A name, unique in the account. Required. When a replacement keeps the same name, the old
   * credentials are deleted before the new ones are created, which the service refuses while pods
   * or templates use them: to rotate credentials in use, change the name together with the
   * password (e.g. `ghcr-2025-07`), so the new ones are created first and their users move over.
   */
  name: pulumi.Input<string>;
  /** The registry user name. Required. Stored as a secret in state. Changing it replaces the credentials. */
  username: pulumi.Input<string>;
  /**
   * The registry password or access token, e.g. `config.requireSecret("registryToken")`. Required.
   * Always stored as a secret in state (the service never returns it, so the provider compares
   * with the recorded value to see a change). Changing it replaces the credentials.
   */
  password: pulumi.Input<string>;
  /**
   * Id of existing credentials to manage instead of creating them (an alternative to `pulumi import`,
   * which works with the provider plugin only). The name must match; the service never returns the username or
   * password, so the declared ones are taken on trust. `pulumi destroy` then deletes them unless the
   * resource has the `retainOnDelete` option. Removing `adoptId` later changes nothing.
   */
  adoptId?: pulumi.Input<string>;
}

/** The outputs named like the arguments (each documented on RegistryAuthArgs). */
export interface RegistryAuth
  extends ArgumentOutputs<RegistryAuthArgs, Exclude<Extract<keyof RegistryAuthArgs, RegistryAuthOutputArguments>, "name">> {}

/**
 * Container registry credentials, for pods and templates with private images
 * (`containerRegistryAuthId: registryAuth.id`). Ready as soon as created.
 */
export class RegistryAuth extends pulumi.dynamic.Resource {
  /** The credentials' name. */
  declare readonly name: pulumi.Output<string>;

  constructor(name: string, args: RegistryAuthArgs, opts?: pulumi.CustomResourceOptions) {
    const props = registeredProps(RESOURCE_OUTPUTS.registryAuth, args, {
      [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.registryAuth, name, opts),
      // Secret inputs make the engine keep the same-named outputs secret; additionalSecretOutputs
      // below does so even if a future engine stops copying secretness from inputs.
      username: pulumi.secret(args.username),
      password: pulumi.secret(args.password),
    });
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["username", "password"] });
    super(registryAuthShim, name, props, secretOpts, RESOURCE_MODULE, RESOURCE_TYPES.registryAuth);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.registryAuth, props);
  }
}
