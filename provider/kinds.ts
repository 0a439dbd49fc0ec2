/** The resource kinds this package manages; each has a shim, a provider and an SDK class. */
export const RESOURCE_KINDS = ["pod", "endpoint", "networkVolume", "template", "registryAuth"] as const;
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
};

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === "string" && (RESOURCE_KINDS as readonly string[]).includes(value);
}
