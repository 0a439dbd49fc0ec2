// The connection settings proven by the service itself: one cheap authenticated read of each API
// in use, so that a wrong key, a host that does not answer, a refused port or a URL where something
// other than this service answers fails preview, naming the setting, its value (never the key) and
// the fix. configCheck.ts finds what can be known without a call; this finds the rest.
//
// Each read is a single request on a connection of its own (oneRequest.ts), not the transport's: it
// is the one call a preview of unchanged resources makes, and loading the transport's HTTP library
// for it cost every preview more than the rest of the provider's check and diff. It is never
// retried: a connection check that retried a refused port would take the backoff's seconds for an
// answer that will not change. An answer that proves nothing either way (a 429, a 5xx, a spent
// rate-limit window) is no failure: the calls that follow retry as usual.

import { CONFIG_KEYS, ConfigError, ENV_VARS } from "./config";
import { getOnce, OneRequestFailure, type OneAnswer } from "./oneRequest";
import { stripUserInfo } from "./redact";

/** Where a setting's value came from, as messages name it: "stack config gpucloud:apiUrl". */
export type SettingSource = string;

/** A setting's value in force and where it came from. */
export interface SettingInForce {
  value: string;
  source: SettingSource;
}

/** The settings to prove, resolved and normalized (config.ts), each with where it came from. */
export interface SettingsToProve {
  apiKey: SettingInForce;
  apiUrl: SettingInForce;
  /** Absent where no job API is in use (no JobRunner, no URL set). */
  serverlessUrl?: SettingInForce | undefined;
}

/** A read the check sends to one API, and how the API's own answers look. */
interface Probe {
  setting: "apiUrl" | "serverlessUrl";
  /** What the user calls the API in messages. */
  api: string;
  path: string;
  /** Whether a non-2xx answer of this status, with this body, is this API speaking (the key known). */
  answersAsItself(answer: OneAnswer): boolean;
}

/** Any id: the job API answers an endpoint it does not know with 404 once the key is accepted. */
export const PROBE_ENDPOINT_ID = "gpucloud-connection-check";

/** The management API's check: the catalog's data centers (v2) or the network volumes (v1), both small. */
function managementProbe(apiUrl: string): Probe {
  const v1 = apiUrl.endsWith("/v1");
  return {
    setting: "apiUrl",
    api: "management API",
    path: v1 ? "/networkvolumes" : "/catalog/datacenters",
    // A key lacking the read's scope is a known key (403, the service's answer to a valid key that
    // may not do this): a restricted key is legal, so that proves the key as far as a check can.
    answersAsItself: (answer) => answer.status === 403 && jsonBody(answer.text) !== undefined,
  };
}

/** The job API's check: the health of an endpoint that does not exist (404 from the job API itself). */
const JOB_PROBE: Probe = {
  setting: "serverlessUrl",
  api: "job API",
  path: `/${PROBE_ENDPOINT_ID}/health`,
  answersAsItself: (answer) => {
    const body = jsonBody(answer.text);
    // The job API's errors are `{"error": "..."}`; the management API's are problem documents.
    return (answer.status === 404 || answer.status === 403) && isRecord(body) && typeof body["error"] === "string";
  },
};

/** How long one read may take before the check calls the host unresponsive. */
export const PROOF_TIMEOUT_MS = 10_000;

export interface ProofOptions {
  /** How long one read may take, in ms (default PROOF_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * The problems the service's answers show, each a ConfigError naming the setting, the value and the
 * fix; empty when both reads were answered by this service with the key accepted (or proved nothing).
 */
export async function proveConnection(settings: SettingsToProve, options: ProofOptions = {}): Promise<ConfigError[]> {
  const reads: Array<Promise<ConfigError | undefined>> = [
    prove(managementProbe(settings.apiUrl.value), settings.apiUrl, settings, options),
  ];
  if (settings.serverlessUrl) reads.push(prove(JOB_PROBE, settings.serverlessUrl, settings, options));
  const found = await Promise.all(reads);
  return found.filter((problem): problem is ConfigError => problem !== undefined);
}

async function prove(
  probe: Probe,
  url: SettingInForce,
  settings: SettingsToProve,
  options: ProofOptions,
): Promise<ConfigError | undefined> {
  const timeoutMs = options.timeoutMs ?? PROOF_TIMEOUT_MS;
  try {
    const answer = await getOnce({ baseUrl: url.value, path: probe.path, apiKey: settings.apiKey.value, timeoutMs });
    return judgeAnswer(probe, url, settings.apiKey.source, answer);
  } catch (error) {
    return error instanceof OneRequestFailure ? judgeFailure(probe, url, error, timeoutMs) : undefined;
  }
}

/** The problem an answer shows, if any. */
function judgeAnswer(probe: Probe, url: SettingInForce, keySource: SettingSource, answer: OneAnswer): ConfigError | undefined {
  const shown = stripUserInfo(url.value);
  if (answer.status === 401) {
    const keySetting = keySource.endsWith(ENV_VARS.apiKey) ? ENV_VARS.apiKey : CONFIG_KEYS.apiKey;
    return new ConfigError(
      keySetting,
      `The API key (${keySource}) was refused by the ${probe.api} at "${shown}" (401 Unauthorized). ` +
        `Set the key of your account: \`pulumi config set --secret ${CONFIG_KEYS.apiKey} <key>\` or the environment variable ${ENV_VARS.apiKey}` +
        ` (for the local emulator, a key it was started with: \`gpucloud-emulator --api-key <key>\`; without one it prints the key it made).`,
    );
  }
  // Proves nothing either way (410: a retired v1 URL, which the calls themselves explain).
  if (answer.status === 429 || answer.status === 410 || answer.status >= 500) return undefined;
  if (answer.status >= 200 && answer.status < 300 && jsonBody(answer.text) !== undefined) return undefined;
  if (probe.answersAsItself(answer)) return undefined;
  return wrongService(probe, url, `it answered GET ${probe.path} with ${describeAnswer(answer)}`);
}

function judgeFailure(probe: Probe, url: SettingInForce, error: OneRequestFailure, timeoutMs: number): ConfigError | undefined {
  const shown = stripUserInfo(url.value);
  const where = new URL(url.value);
  const port = where.port || (where.protocol === "https:" ? "443" : "80");
  const settingName = settingOf(probe, url.source);
  const fix = isLoopback(where.hostname)
    ? `Is the emulator running on ${port}? Start it with \`npx gpucloud-emulator --port ${port}\`, or set ${settingName} to the ${probe.api} URL it prints.`
    : `Check the host and port in ${settingName}, and that this machine can reach it.`;
  if (error.kind === "timeout") {
    return new ConfigError(
      settingName,
      `${url.source} is "${shown}": nothing answered GET ${probe.path} there within ${Math.round(timeoutMs / 1000)} s. ${fix}`,
    );
  }
  // Only a connection that could not be set up says the setting is wrong; one that broke after it
  // was set up (a reset, a close) reached something, and proves nothing either way.
  if (error.kind !== "connect") return undefined;
  const code = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(error.message)?.[1];
  const what =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? `the host "${where.hostname}" is not known (${code})`
      : code === "ECONNREFUSED"
        ? `nothing listens on ${where.hostname}:${port} (connection refused, ECONNREFUSED)`
        : `${where.host} could not be reached (${code ?? "connection failed"})`;
  return new ConfigError(settingName, `${url.source} is "${shown}": ${what}. ${fix}`);
}

function wrongService(probe: Probe, url: SettingInForce, answered: string): ConfigError {
  const shown = stripUserInfo(url.value);
  const origin = new URL(url.value).origin;
  const emulatorUrl = probe.setting === "apiUrl" ? `${origin}/api/v2` : `${origin}/v2`;
  return new ConfigError(
    settingOf(probe, url.source),
    `${url.source} is "${shown}", but what answers there is not the service's ${probe.api}: ${answered}. ` +
      `Set it to the ${probe.api} URL: on the emulator "${emulatorUrl}" (the URL it prints at start), on the service its ${probe.api} base ending in /v2.`,
  );
}

/** The setting a message names: the config key, or the environment variable the value came from. */
function settingOf(probe: Probe, source: SettingSource): string {
  return source.endsWith(ENV_VARS[probe.setting]) ? ENV_VARS[probe.setting] : CONFIG_KEYS[probe.setting];
}

function describeAnswer(answer: OneAnswer): string {
  const type = answer.headers["content-type"];
  const contentType = Array.isArray(type) ? type[0] : type;
  return `${answer.status}${contentType ? ` (${contentType.split(";")[0]})` : ""}`;
}

function jsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127\./.test(hostname);
}
