// The names the provider plugin serves under: the package `gpucloud` (also the namespace of its
// stack config, `gpucloud:apiKey`, which is how the engine hands a default provider its settings),
// one module `index`, resources named like the SDK's classes and functions like its lookups.

import { ACCOUNT_SSH_KEYS_TYPE, RESOURCE_KINDS, RESOURCE_TYPES, type ResourceKind } from "../../model/kinds";
import { lookupName } from "../../model/lookup/lookupKey";

/** The package name: plugin `pulumi-resource-gpucloud`, provider type `pulumi:providers:gpucloud`. */
export const PACKAGE = "gpucloud";

/** What the plugin serves as resources: the resource kinds and the account's SSH keys. */
export type PluginResourceKind = ResourceKind | "accountSshKeys";
export const PLUGIN_RESOURCE_KINDS: readonly PluginResourceKind[] = [...RESOURCE_KINDS, "accountSshKeys"];

/** `Pod`, `AccountSshKeys`, ...: the type name, as the SDK's class is named. */
export function typeNameOf(kind: PluginResourceKind): string {
  return kind === "accountSshKeys" ? ACCOUNT_SSH_KEYS_TYPE : RESOURCE_TYPES[kind];
}

/** `gpucloud:index:Pod` */
export function resourceToken(kind: PluginResourceKind): string {
  return `${PACKAGE}:index:${typeNameOf(kind)}`;
}

/** The functions: a lookup per resource kind, the v2 catalog and the account's limits. */
export const CATALOG_FUNCTIONS = ["getGpuTypes", "getCpuTypes", "getDataCenters"] as const;
export type CatalogFunction = (typeof CATALOG_FUNCTIONS)[number];
export const ACCOUNT_LIMITS_FUNCTION = "getAccountLimits";

/** `gpucloud:index:getPod` */
export function functionToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** `gpucloud:index:CostEstimate`: an object type of the package. */
export function typeToken(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** The lookup function of a resource kind: `gpucloud:index:getPod`. */
export function lookupToken(kind: ResourceKind): string {
  return functionToken(lookupName(kind));
}
