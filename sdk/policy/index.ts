/**
 * `pulumi-gpucloud/policy`: policies that hold a stack's GPU pods, endpoints, templates and network
 * volumes to an organisation's GPU, cost and security rules at preview, the same for a TypeScript
 * program and for any language through the provider plugin.
 *
 * Use the ready pack (the `policy-pack` folder of this package: `pulumi preview --policy-pack
 * node_modules/pulumi-gpucloud/policy-pack`), or compose your own:
 *
 * ```ts
 * import { PolicyPack } from "@pulumi/policy";
 * import { imagesPolicy, secretsPolicy } from "pulumi-gpucloud/policy";
 * new PolicyPack("my-rules", { policies: [imagesPolicy, secretsPolicy] });
 * ```
 *
 * Each policy's config is set per policy in the `--policy-pack-config` file (see docs/policy.md).
 * This module is loaded only through this subpath: the main entry of the package never loads it.
 */
import { PolicyPack, type Policies, type PolicyPackArgs } from "@pulumi/policy";
import { resourceCostPolicy, stackCostPolicy } from "./cost";
import { deploySafetyPolicy } from "./deploySafety";
import { exposurePolicy } from "./exposure";
import { imagesPolicy } from "./images";
import { placementPolicy } from "./placement";
import { scalePolicy } from "./scale";
import { secretsPolicy } from "./secrets";
import { volumePlacementPolicy } from "./volumePlacement";

export type { ResourceCostPolicyConfig, StackCostPolicyConfig } from "./cost";
export type { DeploySafetyPolicyConfig } from "./deploySafety";
export type { ExposurePolicyConfig } from "./exposure";
export type { ImagesPolicyConfig } from "./images";
export type { PlacementPolicyConfig } from "./placement";
export type { ScalePolicyConfig } from "./scale";
export type { SecretsPolicyConfig } from "./secrets";
export type { VolumePlacementPolicyConfig } from "./volumePlacement";
export { kindOfType, typeTokensOf, type PolicyEnforcementLevel } from "./resources";
export {
  deploySafetyPolicy,
  exposurePolicy,
  imagesPolicy,
  placementPolicy,
  resourceCostPolicy,
  scalePolicy,
  secretsPolicy,
  stackCostPolicy,
  volumePlacementPolicy,
};

/** The name the ready pack is published under (`pulumi policy publish`), and its policies' prefix. */
export const POLICY_PACK_NAME = "gpucloud";

/** Every policy of the ready pack, in the order the docs list them. */
export const gpucloudPolicies: Policies = [
  resourceCostPolicy,
  stackCostPolicy,
  placementPolicy,
  scalePolicy,
  secretsPolicy,
  exposurePolicy,
  imagesPolicy,
  deploySafetyPolicy,
  volumePlacementPolicy,
];

/**
 * Starts the ready pack: every policy above at its default enforcement level, overridden per policy
 * by `--policy-pack-config`. Call it once, from a policy pack's entry point (constructing a
 * PolicyPack serves it to the engine).
 */
export function createGpucloudPolicyPack(args: Partial<PolicyPackArgs> = {}): PolicyPack {
  return new PolicyPack(POLICY_PACK_NAME, {
    description: "GPU, cost and security rules for the GPU cloud's pods, endpoints, templates and network volumes.",
    ...args,
    policies: args.policies ?? gpucloudPolicies,
  });
}
