import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import networkVolumeShim from "../provider/shims/networkVolume";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import type { NetworkVolumeOutputArguments } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";
import type { ArgumentOutputs } from "./argumentOutputs";
import type { CostEstimate } from "../model/cost/estimate";
import { declarePriced } from "./costRegistry";

/** Arguments of a {@link NetworkVolume}. Field names are the service's own. */
export interface NetworkVolumeArgs {
  /** A name for the volume; need not be unique. Required. Renamed in place. */
  name: pulumi.Input<string>;
  /**
   * Size in GB: 0 to 4000 on the v1 API, 10 to 4096 on v2 (a value outside fails at preview). Required.
   * Grows in place on both; it can never shrink: a smaller value than the current size fails at
   * preview, naming both sizes (create a new volume to start smaller).
   */
  size: pulumi.Input<number>;
  /**
   * Data center that holds the volume, e.g. `"EU-RO-1"`; pods and endpoints using it must run
   * there. Required. Changing it replaces the volume (a new, empty volume).
   */
  dataCenterId: pulumi.Input<string>;
  /**
   * Storage tier, v2 API only: `"STANDARD"` or `"HIGH_PERFORMANCE"`. Default: the data center's
   * primary tier, which the service chooses (not always `"STANDARD"`); the output reports the tier
   * read back from the service either way. Fixed at create: declaring a tier other than the one the
   * volume has replaces it (a new, empty volume); leaving it out never does. On the v1 API only
   * `"STANDARD"` (or leaving it out) is accepted; another value fails at preview.
   */
  type?: pulumi.Input<"STANDARD" | "HIGH_PERFORMANCE">;
  /**
   * Id of an existing volume to manage instead of creating one (an alternative to `pulumi import`,
   * which works with the provider plugin only). Its data center must match; name and size are updated to the declared
   * values (size only upwards). `pulumi destroy` then deletes it unless the resource has the
   * `retainOnDelete` option. Removing `adoptId` later changes nothing; another id replaces the resource.
   */
  adoptId?: pulumi.Input<string>;
}

/** The outputs named like the arguments (each documented on NetworkVolumeArgs). */
export interface NetworkVolume
  extends ArgumentOutputs<NetworkVolumeArgs, Exclude<Extract<keyof NetworkVolumeArgs, NetworkVolumeOutputArguments>, "name">> {}

/**
 * A network volume: persistent storage in one data center, attachable to pods (`networkVolumeId`)
 * and endpoints. Ready as soon as it is created. A volume still attached to a pod or endpoint cannot
 * be deleted; the error names what holds it.
 */
export class NetworkVolume extends pulumi.dynamic.Resource {
  /** The volume's name. */
  declare readonly name: pulumi.Output<string>;
  /** Cost estimate in USD (see {@link CostEstimate}), known at preview once the arguments it needs are. */
  declare readonly costEstimate: pulumi.Output<CostEstimate | undefined>;

  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    const props = registeredProps(RESOURCE_OUTPUTS.networkVolume, args, {
      [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.networkVolume, name, opts),
    });
    super(networkVolumeShim, name, props, opts, RESOURCE_MODULE, RESOURCE_TYPES.networkVolume);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.networkVolume, props);
    declarePriced({ type: RESOURCE_TYPES.networkVolume, name, resource: this });
  }
}
