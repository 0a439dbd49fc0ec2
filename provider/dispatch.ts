/**
 * Routes a call from a serialized shim (`provider/shims`) to the installed implementation of that
 * resource kind. Lives behind `require("pulumi-gpucloud/provider").d` so the shim text stays tiny.
 */
import { CONFIG_KEYS } from "../client/config";
import type * as pulumi from "@pulumi/pulumi";
import { isProviderKind, type ProviderKind } from "../model/kinds";
import { setStackConfig } from "../model/stackConfig";
import { resourceProviders } from "./resources/registry";
import { OWN_PRICES_KEY } from "../model/cost/ownPrices";

type ProviderMethod = "check" | "diff" | "create" | "read" | "update" | "delete" | "configure";

/** What the host passes to `configure`: a config object whose entries are readable by full key. */
interface ConfigureRequest {
  config: { get(key: string): string | undefined } | Record<string, string>;
}

export async function dispatch(shim: { k: unknown }, method: ProviderMethod, args: unknown[]): Promise<unknown> {
  const kind = shim.k;
  if (!isProviderKind(kind)) {
    throw new Error(
      `pulumi-gpucloud: state names an unknown resource kind ${JSON.stringify(kind)}; upgrade pulumi-gpucloud to the version that created this stack`,
    );
  }
  if (method === "configure") {
    setStackConfig(readConfigureRequest(args[0]));
    return undefined;
  }
  const provider: pulumi.dynamic.ResourceProvider = await providerFor(kind);
  const fn = provider[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
  if (!fn) throw new Error(`pulumi-gpucloud: the ${kind} provider has no ${method} method`);
  const result = await fn.apply(provider, args);
  if (method === "diff" && lacksProviderText(args[1])) return { ...(result as pulumi.dynamic.DiffResult), changes: true };
  return result;
}

/**
 * Whether the state a diff compares against has no provider text: it was written by the provider
 * plugin (a stack moved back from `gpucloud:index:<Kind>` with an alias). The host deletes and
 * reads with the text in the state, so an unchanged resource is then updated, which writes the text
 * (an update with nothing declared changed sends nothing to the service); otherwise the next
 * destroy would find no code to run.
 */
function lacksProviderText(olds: unknown): boolean {
  return typeof olds === "object" && olds !== null && !("__provider" in olds);
}

async function providerFor(kind: ProviderKind): Promise<pulumi.dynamic.ResourceProvider> {
  // The components' providers are loaded on first use (they bring the job API client): a stack
  // without them never loads them.
  if (kind === "smokeTest") return (await import("./smoke/provider")).smokeTestProvider;
  if (kind === "costSummary") return (await import("./cost/summaryProvider")).costSummaryProvider;
  if (kind === "accountSshKeys") return (await import("./account/registry")).accountSshKeysProvider;
  if (kind === "rolloutCandidate" || kind === "rolloutSwitch") return (await import("./rollout/registry")).rolloutProviders()[kind];
  return resourceProviders[kind];
}

/** The stack config the provider reads: the connection's settings (client/config.ts) and your own prices. */
const PROVIDER_CONFIG_KEYS = [...Object.values(CONFIG_KEYS), OWN_PRICES_KEY] as const;

/** The dynamic provider host passes a Config object (`get(key)`); tests may pass a plain record. */
function readConfigureRequest(request: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const config = (request as ConfigureRequest | undefined)?.config;
  if (!config) return out;
  for (const key of PROVIDER_CONFIG_KEYS) {
    const value =
      typeof config.get === "function"
        ? (config as { get(key: string): string | undefined }).get(key)
        : (config as Record<string, string>)[key];
    if (typeof value === "string" && value !== "") out[key] = value;
  }
  return out;
}
