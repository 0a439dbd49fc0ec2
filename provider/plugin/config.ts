// The provider's settings. A default provider is configured from the stack's `gpucloud:*` config,
// an explicit one (`pulumi:providers:gpucloud`) from its own inputs; both arrive in the Configure
// request: `args` holds the inputs (secrets still wrapped), `variables` the same as plain strings
// keyed `gpucloud:config:<name>`. They become the stack config the model reads, under full keys
// (`gpucloud:apiKey`), as the dynamic resources' configure gives it; the GPUCLOUD_* environment
// variables stay the fallback for a setting left unset, as for the dynamic resources.
//
// The engine also puts the stack's config in the PULUMI_CONFIG environment variable of every
// process of the package, explicit providers' included: it is never read here, so an explicit
// provider without apiKey cannot silently take the stack's key.

import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { CONFIG_KEYS, ENV_VARS } from "../../client/config";
import { OWN_PRICES_KEY, parseOwnPrices } from "../../model/cost/ownPrices";
import { deepEqual, isUnknown, kindOf, type Props } from "../../model/fields/values";
import { PACKAGE } from "./tokens";

/**
 * The settings, by the name a provider resource's input has: the stack config key each comes from,
 * the environment variable that stands in for it when unset, and what it is (the schema's words).
 */
export const PROVIDER_SETTINGS = {
  apiUrl: {
    key: CONFIG_KEYS.apiUrl,
    env: ENV_VARS.apiUrl,
    description:
      "The management API's base URL. Its ending picks the API the provider speaks: `/v2` (today's API, " +
      "`https://<the service's API host>/v2`) or `/v1` (the earlier one); the local emulator's is `http://127.0.0.1:<port>/api/v2`.",
  },
  serverlessUrl: {
    key: CONFIG_KEYS.serverlessUrl,
    env: ENV_VARS.serverlessUrl,
    description:
      "The job API's base URL, ending in `/v2` (the emulator's: `http://127.0.0.1:<port>/v2`). The resources do not " +
      "need it; when set, it is checked at preview against `apiUrl` (the two swapped, or the same URL in both).",
  },
  apiKey: {
    key: CONFIG_KEYS.apiKey,
    env: ENV_VARS.apiKey,
    description: "The API key (for the local emulator, any non-empty key it was started with). Kept secret.",
  },
  prices: {
    key: OWN_PRICES_KEY,
    env: undefined,
    description:
      "Your prices for what the service's catalog does not quote, as JSON, in USD per GB-month (a month being 30 days), " +
      'e.g. `{"networkVolumePerGbMonth": {"STANDARD": 0.07, "HIGH_PERFORMANCE": 0.14}, "containerDiskPerGbMonth": 0.1, "podVolumePerGbMonth": 0.1}`: ' +
      "network volume storage and pod disks in the resources' cost estimates (`costEstimate`). Default: none (the estimates say what they leave out).",
  },
} as const;
export type ProviderSetting = keyof typeof PROVIDER_SETTINGS;

/** The settings that hold a credential: kept secret in the provider's state. */
export const SECRET_SETTINGS: readonly ProviderSetting[] = ["apiKey"];

const SETTINGS = Object.keys(PROVIDER_SETTINGS) as ProviderSetting[];

/** The configuration in force: stack config by full key, and whether a setting was not known yet (preview). */
export interface ProviderConfiguration {
  config: Record<string, string>;
  unknown: ProviderSetting[];
}

/**
 * The stack config a Configure request gives (its args unwrapped): the args where set, else the
 * variables. A price sheet may come as an object (structured config): it is kept as its JSON text.
 */
export function configurationOf(variables: ReadonlyMap<string, string>, args: Props): ProviderConfiguration {
  const config: Record<string, string> = {};
  const unknown: ProviderSetting[] = [];
  for (const setting of SETTINGS) {
    const key = PROVIDER_SETTINGS[setting].key;
    const value = args[setting] ?? variables.get(`${PACKAGE}:config:${setting}`);
    if (value === undefined || value === null) continue;
    if (isUnknown(value)) unknown.push(setting);
    else {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (text.trim() !== "") config[key] = text;
    }
  }
  return { config, unknown };
}

/**
 * CheckConfig: each setting a string (the price sheet also a JSON object) and the price sheet a
 * valid one. Whether the URLs and key can work is said by every resource's check, in the same
 * words as for the dynamic resources (model/connection.ts). Keys of the `gpucloud` namespace that
 * are no setting of the provider (a CostReport's budget) are passed through.
 */
export function checkProviderConfig(news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const setting of SETTINGS) {
    const value = news[setting];
    if (value === undefined || value === null || isUnknown(value)) continue;
    const shown = SECRET_SETTINGS.includes(setting) ? kindOf(value) : JSON.stringify(value);
    if (setting === "prices" && typeof value === "object") {
      failures.push(...pricesFailures(JSON.stringify(value)));
      continue;
    }
    if (typeof value !== "string") {
      failures.push({ property: setting, reason: `${setting}: expected a string, got ${shown}` });
      continue;
    }
    if (setting === "prices") failures.push(...pricesFailures(value));
  }
  return failures;
}

function pricesFailures(text: string): CheckFailure[] {
  if (text.trim() === "") return [];
  try {
    parseOwnPrices(text, new Date());
    return [];
  } catch (error) {
    return [{ property: "prices", reason: error instanceof Error ? error.message : String(error) }];
  }
}

/** DiffConfig: the settings that changed. A provider's settings never replace its resources. */
export function changedSettings(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((key) => key !== "version"));
  return [...keys].filter((key) => isUnknown(news[key]) || !deepEqual(olds[key], news[key])).sort();
}
