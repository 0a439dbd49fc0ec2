// Where the client's connection comes from: Pulumi stack config first (full keys such as
// "gpucloud:apiKey", as a dynamic provider's configure() receives them), then environment
// variables. Read at call time, never stored in state. There are deliberately no default URLs:
// pointing a forgotten setting at a real, billed service would be worse than a clear error.

import { stripUserInfo } from "./redact";
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";

export interface Connection {
  apiKey: string;
  /**
   * Management API base, no trailing slash. Its ending picks the API version the provider speaks:
   * /v2 (today's API) or /v1 (the earlier API, kept for compatibility and offline use).
   */
  apiUrl: string;
  /** Job API base, ends in /v2 (no trailing slash). */
  serverlessUrl: string;
}

export type StackConfig = Readonly<Record<string, string | undefined>>;
export type Env = Readonly<Record<string, string | undefined>>;

export const CONFIG_KEYS = {
  apiKey: "gpucloud:apiKey",
  apiUrl: "gpucloud:apiUrl",
  serverlessUrl: "gpucloud:serverlessUrl",
  createTimeoutSeconds: "gpucloud:createTimeoutSeconds",
  verbose: "gpucloud:verbose",
} as const;

export const ENV_VARS = {
  apiKey: "GPUCLOUD_API_KEY",
  apiUrl: "GPUCLOUD_API_URL",
  serverlessUrl: "GPUCLOUD_SERVERLESS_URL",
  createTimeoutSeconds: "GPUCLOUD_CREATE_TIMEOUT_SECONDS",
  verbose: "GPUCLOUD_VERBOSE",
} as const;

/** A missing or malformed setting. The message names the setting, the value given and the fix. */
export class ConfigError extends GpuCloudError {
  /** The stack config key concerned, e.g. "gpucloud:apiUrl". */
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
  }
}
nameErrorClass(ConfigError, "ConfigError");

type Setting = keyof typeof CONFIG_KEYS;

function lookup(setting: Setting, config: StackConfig, env: Env): { value: string; source: string } | undefined {
  const fromConfig = config[CONFIG_KEYS[setting]]?.trim();
  if (fromConfig) return { value: fromConfig, source: `stack config ${CONFIG_KEYS[setting]}` };
  const fromEnv = env[ENV_VARS[setting]]?.trim();
  if (fromEnv) return { value: fromEnv, source: `environment variable ${ENV_VARS[setting]}` };
  return undefined;
}

/** Where a setting in force comes from, as messages name it ("stack config gpucloud:apiUrl"); undefined when unset. */
export function settingSource(setting: Setting, config: StackConfig, env: Env = process.env): string | undefined {
  return lookup(setting, config, env)?.source;
}

export function resolveApiKey(config: StackConfig, env: Env = process.env): string {
  const found = lookup("apiKey", config, env);
  if (!found) {
    throw new ConfigError(
      CONFIG_KEYS.apiKey,
      `No API key for the service: run \`pulumi config set --secret ${CONFIG_KEYS.apiKey} <key>\` ` +
        `or set the environment variable ${ENV_VARS.apiKey}` +
        ` (for the local emulator, any non-empty key it was started with).`,
    );
  }
  return found.value;
}

// No port is assumed: the emulator prints its own URLs when it starts.
const EXAMPLE_PORT = "<port>";

/** The management API versions the provider speaks, picked by the ending of apiUrl. */
export type ApiVersion = "v1" | "v2";

/** The API version a normalized management URL speaks (see resolveManagementConnection). */
export function apiVersionOf(apiUrl: string): ApiVersion {
  return apiUrl.endsWith("/v2") ? "v2" : "v1";
}

/**
 * The API version the management URL in force picks, without requiring the other settings
 * (check runs before anything is called); v1 while no URL is set.
 */
export function configuredApiVersion(config: StackConfig, env: Env = process.env): ApiVersion {
  const found = lookup("apiUrl", config, env);
  return found ? apiVersionOf(found.value.replace(/\/+$/, "")) : "v1";
}

/** One URL setting, present and well-formed (http(s), the right ending), normalized. */
export function resolveUrlSetting(setting: "apiUrl" | "serverlessUrl", config: StackConfig, env: Env): string {
  const version = "/v2";
  const what = setting === "apiUrl" ? "management API" : "job API";
  const found = lookup(setting, config, env);
  if (!found) {
    throw new ConfigError(
      CONFIG_KEYS[setting],
      `No ${what} URL: run \`pulumi config set ${CONFIG_KEYS[setting]} <url>\` or set the environment variable ` +
        `${ENV_VARS[setting]}, e.g. to the ${what} URL the emulator prints when it starts ` +
        `(like "http://127.0.0.1:${EXAMPLE_PORT}${setting === "apiUrl" ? "/api" : ""}${version}"). ` +
        (setting === "apiUrl" ? "The URL ends in /v2 (today's API) or /v1 (the earlier API)." : `The URL ends in ${version}.`),
    );
  }
  if (setting === "apiUrl") {
    // Either version: the ending picks the backend.
    const trimmed = found.value.trim().replace(/\/+$/, "");
    return normalizeBaseUrl(found.value, trimmed.endsWith("/v1") ? "/v1" : "/v2", CONFIG_KEYS[setting], found.source, true);
  }
  return normalizeBaseUrl(found.value, version, CONFIG_KEYS[setting], found.source);
}

/**
 * Validates an http(s) base URL ending in `version` ("/v1" or "/v2"), strips trailing slashes.
 * Exported for tests and for callers that take URLs from elsewhere.
 */
export function normalizeBaseUrl(value: string, version: "/v1" | "/v2", setting: string, source = setting, eitherVersion = false): string {
  const shown = stripUserInfo(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      setting,
      `${source} is not a URL (got "${shown}"): set it to an absolute http(s) URL ending in ${version}, e.g. "http://127.0.0.1:${EXAMPLE_PORT}${version}".`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(setting, `${source} must be an http or https URL (got "${shown}").`);
  }
  if (url.search || url.hash) {
    throw new ConfigError(setting, `${source} must not have a query or fragment (got "${shown}"): give the base URL ending in ${version}.`);
  }
  const trimmed = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  if (!trimmed.endsWith(version)) {
    const other = version === "/v1" ? "/v2" : "/v1";
    if (eitherVersion) {
      throw new ConfigError(
        setting,
        `${source} must be a management API base, ending in /v2 (today's API) or /v1 (the earlier one) (got "${shown}"): ` +
          `the emulator's is "${url.origin}/api/v2" (the URL it prints as the management API), the service's ends in /v2.`,
      );
    }
    const hint = trimmed.endsWith(other)
      ? ` It ends in ${other}: that is the ${other === "/v1" ? "management API" : "job API"}'s URL; check that the two settings are not swapped.`
      : ` Append ${version}, e.g. "${stripUserInfo(trimmed)}${version}".`;
    throw new ConfigError(setting, `${source} must end in ${version} (got "${shown}").${hint}`);
  }
  return trimmed;
}

/**
 * A create's timeout (TransportOptions.createTimeoutMs) when no setting gives one, and how long an
 * unanswered create is looked for after it. Here, not in transport.ts: a preview reads it without
 * loading the transport.
 */
export const DEFAULT_CREATE_TIMEOUT_MS = 120_000;

/** The longest create timeout a setting may ask for, in seconds (an hour). */
const MAX_CREATE_TIMEOUT_SECONDS = 3600;

/**
 * How long a create may take on the service, in ms, or undefined for the default (transport.ts
 * DEFAULT_CREATE_TIMEOUT_MS): the create's own timeout, and how long a create that got no answer
 * is looked for before it is recorded as pending.
 */
export function resolveCreateTimeoutMs(config: StackConfig, env: Env = process.env): number | undefined {
  const found = lookup("createTimeoutSeconds", config, env);
  if (!found) return undefined;
  const seconds = Number(found.value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_CREATE_TIMEOUT_SECONDS) {
    throw new ConfigError(
      CONFIG_KEYS.createTimeoutSeconds,
      `${found.source} must be a number of seconds from 1 to ${MAX_CREATE_TIMEOUT_SECONDS} (got "${found.value}"): ` +
        "how long the service may take to create a resource; leave it unset for 120.",
    );
  }
  return seconds * 1000;
}

/**
 * Whether progress detail is printed (waits, updates, retries): `gpucloud:verbose` or
 * GPUCLOUD_VERBOSE set to true, 1 or yes. Off by default, so a preview and an up print only what a
 * user must act on (warnings, failures) and the cost summary.
 */
export function resolveVerbose(config: StackConfig, env: Env = process.env): boolean {
  const found = lookup("verbose", config, env);
  return found !== undefined && /^(true|1|yes)$/i.test(found.value);
}

/** Key and both URLs; every one must be set. */
export function resolveConnection(config: StackConfig, env: Env = process.env): Connection {
  return {
    apiKey: resolveApiKey(config, env),
    apiUrl: resolveUrlSetting("apiUrl", config, env),
    serverlessUrl: resolveUrlSetting("serverlessUrl", config, env),
  };
}

/** Key and management URL only (resources other than job runs need no job API URL). */
export function resolveManagementConnection(config: StackConfig, env: Env = process.env): Omit<Connection, "serverlessUrl"> {
  return { apiKey: resolveApiKey(config, env), apiUrl: resolveUrlSetting("apiUrl", config, env) };
}

/** Key and job API URL only. */
export function resolveJobConnection(config: StackConfig, env: Env = process.env): Omit<Connection, "apiUrl"> {
  return { apiKey: resolveApiKey(config, env), serverlessUrl: resolveUrlSetting("serverlessUrl", config, env) };
}
