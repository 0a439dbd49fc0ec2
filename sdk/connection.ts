/**
 * The management API connection of the SDK's lookups (getBilling, getGpuTypes, ...): the options
 * given, else the `gpucloud:apiKey` / `gpucloud:apiUrl` stack config when called from a program,
 * else GPUCLOUD_API_KEY / GPUCLOUD_API_URL.
 */
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_KEYS, configuredApiVersion, resolveManagementConnection, type ApiVersion } from "../client/config";

export interface LookupOptions {
  /** API key; default: stack config `gpucloud:apiKey`, then GPUCLOUD_API_KEY. */
  apiKey?: string;
  /**
   * Management API base URL ending in /v2 (today's API) or /v1; default: stack config
   * `gpucloud:apiUrl`, then GPUCLOUD_API_URL.
   */
  apiUrl?: string;
}

export function lookupConnection(options: LookupOptions): { apiKey: string; apiUrl: string } {
  return resolveManagementConnection(
    {
      // Raw lookups: the typed Config API would warn about reading a secret as plain text.
      [CONFIG_KEYS.apiKey]: options.apiKey ?? pulumi.runtime.getConfig(CONFIG_KEYS.apiKey),
      [CONFIG_KEYS.apiUrl]: options.apiUrl ?? pulumi.runtime.getConfig(CONFIG_KEYS.apiUrl),
    },
    process.env,
  );
}

/** The management API version the program's stack config (or environment) picks; v1 while none is set. */
export function programApiVersion(): ApiVersion {
  return configuredApiVersion({ [CONFIG_KEYS.apiUrl]: pulumi.runtime.getConfig(CONFIG_KEYS.apiUrl) }, process.env);
}
