// The connection settings checked as a whole, before anything is called: what `check` reports at
// preview for every resource, so that `up` never starts creating with settings that cannot work.
//
// Each setting alone is checked by config.ts (present, an http(s) URL, the right ending). What
// this adds is the mix-up of the two URLs, told apart by what can be known without a call:
// - the same URL in both settings is a mix-up wherever it points;
// - a job URL ending in /api/v2 is the emulator's management URL (the emulator serves both APIs on
//   one origin: management under /api/v2 and /v1, jobs under /v2 at the root; the service serves
//   them on two hosts, both ending in /v2), and with a management URL that is the root /v2 of the
//   same origin the two are swapped; a job URL ending in /v1 is refused by config.ts, naming the swap;
// - what cannot be known without a call: the service's two /v2 URLs swapped (two hosts, same
//   path), or a management URL that is the emulator's job base while no job URL is set. Those
//   surface on the first call (a management list that answers 404 names the setting then).

import { CONFIG_KEYS, ConfigError, ENV_VARS, resolveApiKey, resolveUrlSetting, type Env, type StackConfig } from "./config";
import { stripUserInfo } from "./redact";

/** Whether the settings' user needs the job API (JobRunner, EndpointRollout) or only the management API. */
export type JobApiUse = "required" | "ifSet";

/**
 * Every problem of the connection settings in force, each a ConfigError naming the setting, the
 * value (URLs without user info; the key is never shown) and the fix. Empty when they can work.
 */
export function connectionProblems(config: StackConfig, env: Env, jobApi: JobApiUse): ConfigError[] {
  const problems: ConfigError[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ConfigError) problems.push(error);
      else throw error;
      return undefined;
    }
  };
  attempt(() => resolveApiKey(config, env));
  const apiUrl = attempt(() => resolveUrlSetting("apiUrl", config, env));
  const jobSet = jobApi === "required" || isSet("serverlessUrl", config, env);
  const serverlessUrl = jobSet ? attempt(() => resolveUrlSetting("serverlessUrl", config, env)) : undefined;
  if (serverlessUrl !== undefined) {
    const mixUp = mixUpOf(apiUrl, serverlessUrl);
    if (mixUp) problems.push(mixUp);
  }
  return problems;
}

function isSet(setting: keyof typeof CONFIG_KEYS, config: StackConfig, env: Env): boolean {
  return Boolean(config[CONFIG_KEYS[setting]]?.trim() || env[ENV_VARS[setting]]?.trim());
}

/** Both URLs are normalized (config.ts): no trailing slash, no query. */
function mixUpOf(apiUrl: string | undefined, serverlessUrl: string): ConfigError | undefined {
  const job = new URL(serverlessUrl);
  const shownJob = stripUserInfo(serverlessUrl);
  if (job.pathname.endsWith("/api/v2")) {
    const swapped = apiUrl !== undefined && new URL(apiUrl).origin === job.origin && new URL(apiUrl).pathname === "/v2";
    return new ConfigError(
      swapped ? `${CONFIG_KEYS.apiUrl} and ${CONFIG_KEYS.serverlessUrl}` : CONFIG_KEYS.serverlessUrl,
      `${CONFIG_KEYS.serverlessUrl} is "${shownJob}", which ends in /api/v2: that is the emulator's management API URL, not the job API's` +
        (swapped ? `, and ${CONFIG_KEYS.apiUrl} is "${stripUserInfo(apiUrl)}", its job API URL: the two settings are swapped. ` : ". ") +
        `Set ${CONFIG_KEYS.serverlessUrl} to the job API URL the emulator prints (the /v2 at the root of its origin, "${job.origin}/v2"), ` +
        `and ${CONFIG_KEYS.apiUrl} to its management URL ("${job.origin}/api/v2").`,
    );
  }
  if (apiUrl === undefined) return undefined;
  if (apiUrl === serverlessUrl) {
    const api = new URL(apiUrl);
    const shownApi = stripUserInfo(apiUrl);
    return new ConfigError(
      `${CONFIG_KEYS.apiUrl} and ${CONFIG_KEYS.serverlessUrl}`,
      `${CONFIG_KEYS.apiUrl} and ${CONFIG_KEYS.serverlessUrl} are both "${shownApi}": the management API and the job API are different services. ` +
        `On the emulator the management URL is "${api.origin}/api/v2" and the job URL "${api.origin}/v2"; on the service they are on two different hosts, ` +
        `both ending in /v2. Set each to its own URL.`,
    );
  }
  return undefined;
}
