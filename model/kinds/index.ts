/** The resource kinds this package manages; each has a shim, a provider and an SDK class. */
export const RESOURCE_KINDS = ["pod", "endpoint", "networkVolume", "template", "registryAuth", "secret"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * Dynamic resources get the type token `pulumi-nodejs:dynamic/<module>:<type>`; these make the
 * package's resources read as `pulumi-nodejs:dynamic/gpucloud:Pod` in previews and state.
 */
export const RESOURCE_MODULE = "gpucloud";
export const RESOURCE_TYPES: Record<ResourceKind, string> = {
  pod: "Pod",
  endpoint: "Endpoint",
  networkVolume: "NetworkVolume",
  template: "Template",
  registryAuth: "RegistryAuth",
  secret: "Secret",
};

/**
 * The input that names the stack resource a create is for: `org/project/stack|parent chain|Type|name`
 * from the TypeScript classes, the resource's URN through the provider plugin. The provider proves
 * by it that a resource found on the service was made by an earlier, interrupted create of this
 * very resource (provider/resources/ownership.ts); it never causes a change.
 */
export const OWNER_INPUT = "__owner";

/**
 * The env var that marks pods and templates with a hash of their owner (OWNER_INPUT): the service
 * keeps it, so a lost or interrupted create is found by it on any machine. It names no stack or
 * resource; the provider adds it at create and treats it like a key the platform injects.
 */
export const OWNER_MARKER_ENV = "PULUMI_GPUCLOUD_OWNER";

export const SMOKE_TEST_TYPE = "SmokeTest";
/** The two steps of an EndpointRollout: the candidate check on a canary, and the switch of the serving endpoint. */
export const ROLLOUT_CANDIDATE_TYPE = "RolloutCandidate";
export const ROLLOUT_SWITCH_TYPE = "RolloutSwitch";
/** The CostReport component's record of the stack's cost (its check prints the change against the last up). */
export const COST_SUMMARY_TYPE = "CostSummary";
/** The account's registered SSH public keys (v2), one resource per account. */
export const ACCOUNT_SSH_KEYS_TYPE = "AccountSshKeys";

/**
 * Everything a shim can dispatch to: the resources plus the components' own dynamic resources
 * (JobRunner's smoke-test run, EndpointRollout's candidate check and switch, CostReport's summary),
 * so that their work runs in the provider process during `up` only.
 */
export const PROVIDER_KINDS = [
  ...RESOURCE_KINDS,
  "smokeTest",
  "rolloutCandidate",
  "rolloutSwitch",
  "costSummary",
  "accountSshKeys",
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(value: unknown): value is ProviderKind {
  return typeof value === "string" && (PROVIDER_KINDS as readonly string[]).includes(value);
}
