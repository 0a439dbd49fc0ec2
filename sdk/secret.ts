import * as pulumi from "@pulumi/pulumi";
import { secretPlaceholder } from "../client/secrets";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import secretShim from "../provider/shims/secret";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";

/**
 * Arguments of a {@link Secret}, an account secret of the service's v2 API (apiUrl ending in /v2;
 * on the v1 API the preview fails saying so).
 */
export interface SecretArgs {
  /**
   * The secret's name, unique in the account (without regard to case), e.g. `"HF_TOKEN"`: what
   * env values name in the placeholder (`secret.ref`). Required. 1 to 191 characters: a letter or
   * `_`, then letters, digits, `_ . - /`; not starting with `GPUCLOUD` (reserved). Fixed at create:
   * a change replaces the secret (a new name is created before the old one is deleted; the same
   * name in another case deletes first).
   */
  name: pulumi.Input<string>;
  /**
   * The value, e.g. `config.requireSecret("hfToken")`. Required; 1 character or more, under 16 MiB.
   * Always a Pulumi secret (a plain string is made one): state holds it encrypted only, and the
   * preview shows `[secret]`. The service never returns it, so the provider compares with the value
   * it recorded to see a change, and a change made outside Pulumi (drift) cannot be seen, not even
   * by `pulumi refresh`. A change rotates the value in place (same id, new `valueLastUpdatedAt`).
   * A rotation reaches a pod or worker only when it next boots: see {@link Secret}.
   */
  value: pulumi.Input<string>;
  /** A description; at most 65,535 bytes. Default none; `""` clears it. In place. */
  description?: pulumi.Input<string>;
  /**
   * Id of an existing secret to manage instead of creating one (an alternative to `pulumi import`,
   * which works with the provider plugin only); find it with `getSecret({ name })`. The name must match. The service
   * never returns the value, so adopting writes the declared value to it (a rotation).
   * `pulumi destroy` then deletes it unless the resource has the `retainOnDelete` option. Removing
   * `adoptId` later changes nothing; another id replaces the resource.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * An account secret: a value the service keeps encrypted and hands to pods and serverless workers
 * whose env names it, when they boot. Put `secret.ref` in an env map (a Pod's `env`, a Template's
 * `env` for endpoints): the service configuration then holds the placeholder
 * `{{ GPUCLOUD_SECRET_<name> }}`, never the value, and the consumer depends on the secret (created
 * after it, deleted or changed before it is deleted).
 *
 * **Rotation takes effect at the next boot only.** Pods and workers already running keep the old
 * value. To have a rotation reach them in the same `pulumi up`, tie them to `valueLastUpdatedAt`:
 *
 * ```ts
 * const hfToken = new gpucloud.Secret("hf-token", { name: "HF_TOKEN", value: config.requireSecret("hfToken") });
 * // A pod restarts (and boots with the new value) whenever the value changes:
 * new gpucloud.Pod("app", { ..., env: { HF_TOKEN: hfToken.ref }, restartTrigger: hfToken.valueLastUpdatedAt });
 * // An endpoint's workers roll when its template changes:
 * new gpucloud.Template("worker", { ..., env: { HF_TOKEN: hfToken.ref, SECRET_VERSION: hfToken.valueLastUpdatedAt } });
 * ```
 */
export class Secret extends pulumi.dynamic.Resource {
  /** The secret's name. */
  declare readonly name: pulumi.Output<string>;
  /** The description, as last read back; undefined when none was declared. */
  declare readonly description: pulumi.Output<string | undefined>;
  /** When the secret was created (ISO 8601, UTC). */
  declare readonly createdAt: pulumi.Output<string>;
  /**
   * When the value was last set (ISO 8601, UTC): at create, and at every rotation. The only sign of a
   * rotation the service gives; use it as a Pod's `restartTrigger`, or in a Template's env (e.g.
   * `SECRET_VERSION`), to restart or roll what uses the secret when the value changes.
   */
  declare readonly valueLastUpdatedAt: pulumi.Output<string>;
  /**
   * The env value that receives the secret at boot: `{{ GPUCLOUD_SECRET_<name> }}`, e.g.
   * `env: { HF_TOKEN: hfToken.ref }`. Not itself secret. Using it makes the consumer depend on this
   * secret, so Pulumi creates the secret first and deletes (or updates) the consumer before the secret.
   */
  readonly ref: pulumi.Output<string>;

  constructor(name: string, args: SecretArgs, opts?: pulumi.CustomResourceOptions) {
    // The value is always a secret input: the engine keeps it encrypted in state, and
    // additionalSecretOutputs keeps the recorded copy secret even if an engine stopped copying
    // secretness from inputs to outputs.
    const props = registeredProps(RESOURCE_OUTPUTS.secret, args, {
      [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.secret, name, opts),
      value: pulumi.secret(args.value),
    });
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["value"] });
    super(secretShim, name, props, secretOpts, RESOURCE_MODULE, RESOURCE_TYPES.secret);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.secret, props);
    // An Output of this resource's own name: whatever takes it depends on the secret.
    this.ref = this.name.apply(secretPlaceholder);
  }
}
