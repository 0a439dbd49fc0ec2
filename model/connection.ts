/**
 * The provider process's connections to the management API and the job API: clients built from the
 * connection settings in force at call time (stack config from `configure`, else GPUCLOUD_* env)
 * and reused while those settings stay the same, so every resource shares one keep-alive pool per
 * origin, and reads of one kind that arrive together share list calls (backend/sharedReads.ts).
 * A management client is opened on its first call (backend/lazyApi.ts): a preview of unchanged
 * resources never loads the clients, the transport or the wire schemas.
 *
 * Retries are logged through Pulumi's log so a slow `pulumi up` says why it is slow.
 */
import { createHash } from "node:crypto";
import {
  apiVersionOf,
  configuredApiVersion,
  ENV_VARS,
  resolveJobConnection,
  DEFAULT_CREATE_TIMEOUT_MS,
  resolveCreateTimeoutMs,
  resolveManagementConnection,
  resolveUrlSetting,
  resolveVerbose,
  settingSource,
  type ApiVersion,
} from "../client/config";
import type { JobClient } from "../client/jobClient";
import { lazyManagementApi } from "./backend/lazyApi";
import type { ManagementApi } from "./backend/port";
import { duration } from "../client/errors";
import type { RateLimitWaitInfo, RetryInfo } from "../client/transport";
import { getStackConfig } from "./stackConfig";
import { pulumiSdkLog } from "./pulumiSdkLog";
import { connectionProblems, type JobApiUse } from "../client/configCheck";
import type { ConfigError } from "../client/config";

const managementClients = new Map<string, { api: ManagementApi; close(): Promise<void> }>();
const jobClients = new Map<string, JobClient>();

/** Cache key that never keeps the API key itself in memory longer than needed. */
function cacheKey(url: string, apiKey: string): string {
  return `${url}#${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
}

/** Whether progress detail is printed (gpucloud:verbose / GPUCLOUD_VERBOSE; off by default), read at call time. */
export function progressShown(): boolean {
  return resolveVerbose(getStackConfig(), process.env);
}

function logRetry(info: RetryInfo): void {
  // Progress detail: a retry that succeeds needs nothing of the user; one that fails is the error.
  if (!progressShown()) return;
  // The error's message is already redacted by the transport.
  void pulumiSdkLog().info(`retry ${info.attempt} of ${info.operation} in ${Math.round(info.delayMs)} ms: ${info.error.message}`);
}

/** A wait for a spent hour or day window can last long: the user sees why the up stands still. */
function logRateLimitWait(info: RateLimitWaitInfo): void {
  const quota = info.quota !== undefined ? ` (${info.quota} requests per ${info.window})` : "";
  void pulumiSdkLog().info(
    `the service's ${info.window} rate-limit window${quota} is spent: ${info.operation} waits ${duration(info.waitMs)}, until its reset at ${new Date(info.resetAtMs).toISOString()}`,
  );
}

/** Hooks every management client of the provider reports through (the job API sends no RateLimit headers). */
const HOOKS = { onRetry: logRetry, onRateLimitWait: logRateLimitWait } as const;

/**
 * The settings the last management client was resolved from, and that client: every resource
 * operation asks for its client several times, and resolving (URL checks, hashing the key) each
 * time took 48 ms of a 100-endpoint up in a profile of the provider process. Stack config is
 * replaced, never changed in place (setStackConfig), so its identity and the two env values tell
 * when to resolve again.
 */
let lastResolved: { config: object; envUrl: string | undefined; envKey: string | undefined; api: ManagementApi } | undefined;

/** The management API for the settings in force: v1 as is, or v2 mapped to the same calls. */
export function managementClient(): ManagementApi {
  const config = getStackConfig();
  const envUrl = process.env[ENV_VARS.apiUrl];
  const envKey = process.env[ENV_VARS.apiKey];
  if (lastResolved && lastResolved.config === config && lastResolved.envUrl === envUrl && lastResolved.envKey === envKey)
    return lastResolved.api;
  const { apiUrl, apiKey } = resolveManagementConnection(config, process.env);
  const createTimeoutMs = resolveCreateTimeoutMs(config, process.env);
  const key = `${cacheKey(apiUrl, apiKey)}#${createTimeoutMs ?? ""}`;
  let entry = managementClients.get(key);
  if (!entry) {
    entry = lazyManagementApi({ baseUrl: apiUrl, apiKey, createTimeoutMs, ...HOOKS }, apiVersionOf(apiUrl), { shareReads: {} });
    managementClients.set(key, entry);
  }
  lastResolved = { config, envUrl, envKey, api: entry.api };
  return entry.api;
}

/**
 * The connection settings' problems as check failures, so that preview fails before anything is
 * created. No property: the engine then prints the reason alone (it names the setting).
 */
export function connectionFailures(jobApi: JobApiUse): { property: string; reason: string }[] {
  return connectionProblems(getStackConfig(), process.env, jobApi).map((problem) => ({ property: "", reason: problem.message }));
}

/** One proof per settings in force, per process; `reported`: its full messages were handed out once. */
const proofs = new Map<string, { problems: Promise<readonly ConfigError[]>; reported: boolean }>();

/**
 * The service's own answer to the settings in force (client/connectionProof.ts), as check failures:
 * one cheap read of each API in use, made once per process and settings, whatever the number of
 * resources that ask. The first check to ask gets the full messages; the others a short line naming
 * the setting, so that the engine prints each message once. Empty while the settings fail the
 * checks made without a call (connectionFailures says why) or the service proved them.
 */
export async function connectionProof(jobApi: JobApiUse): Promise<{ property: string; reason: string }[]> {
  const config = getStackConfig();
  if (connectionProblems(config, process.env, jobApi).length > 0) return [];
  const { apiKey, apiUrl } = resolveManagementConnection(config, process.env);
  const jobUrlSet = settingSource("serverlessUrl", config, process.env) !== undefined;
  const serverlessUrl = jobUrlSet ? resolveUrlSetting("serverlessUrl", config, process.env) : undefined;
  const key = `${cacheKey(apiUrl, apiKey)}#${serverlessUrl ?? ""}`;
  let proof = proofs.get(key);
  if (!proof) {
    const source = (setting: "apiKey" | "apiUrl" | "serverlessUrl"): string => settingSource(setting, config, process.env) ?? setting;
    // Loaded at the first check: the proof is the one call a preview of unchanged resources makes.
    const problems = import("../client/connectionProof").then(({ proveConnection }) =>
      proveConnection({
        apiKey: { value: apiKey, source: source("apiKey") },
        apiUrl: { value: apiUrl, source: source("apiUrl") },
        serverlessUrl: serverlessUrl === undefined ? undefined : { value: serverlessUrl, source: source("serverlessUrl") },
      }),
    );
    proof = { problems, reported: false };
    proofs.set(key, proof);
  }
  const problems = await proof.problems;
  if (problems.length === 0) return [];
  const first = !proof.reported;
  proof.reported = true;
  return problems.map((problem) => ({
    property: "",
    reason: first
      ? problem.message
      : `${problem.setting} does not work with the service (its message is printed once, for another resource)`,
  }));
}

/** How long a create may take on the service, in ms (gpucloud:createTimeoutSeconds; default 120 s). */
export function createWindowMs(): number {
  return resolveCreateTimeoutMs(getStackConfig(), process.env) ?? DEFAULT_CREATE_TIMEOUT_MS;
}

/** The API version the settings in force pick (v1 while no URL is set). */
export function currentBackend(): ApiVersion {
  return configuredApiVersion(getStackConfig(), process.env);
}

export async function jobClient(): Promise<JobClient> {
  const { serverlessUrl, apiKey } = resolveJobConnection(getStackConfig(), process.env);
  const key = cacheKey(serverlessUrl, apiKey);
  let client = jobClients.get(key);
  if (!client) {
    // Loaded on first use: only the smoke tests behind JobRunner need it, so previews and resource
    // operations never load the job API client.
    const { JobClient } = await import("../client/jobClient");
    client = jobClients.get(key) ?? new JobClient({ serverlessUrl, apiKey, onRetry: logRetry });
    jobClients.set(key, client);
  }
  return client;
}

/** Closes and forgets every cached client (tests that stop their emulator call this). */
export async function closeClients(): Promise<void> {
  const all = [...managementClients.values(), ...jobClients.values()];
  lastResolved = undefined;
  proofs.clear();
  managementClients.clear();
  jobClients.clear();
  await Promise.allSettled(all.map((c) => c.close()));
}
