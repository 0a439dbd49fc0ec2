// Reading the recent lines of a pod's or a serverless worker's log from a program or a script
// (client/logs.ts does the reading: bounded, redacted). The client code loads at the first call, so
// a program that never reads a log does not load it (test/sdk/programLoad.test.ts).

import type { LogSource, LogLine, LogReadEnd, RecentLog, RecentLogOptions } from "../client/logs";

export type { LogSource, LogLine, LogReadEnd, RecentLog };

export interface ReadLogOptions extends RecentLogOptions {
  /** The management API v2 base URL (ends in /v2); default: GPUCLOUD_API_URL. Logs are a v2 feature: a v1 URL is refused. */
  apiUrl?: string | undefined;
  /** The API key; default: GPUCLOUD_API_KEY. */
  apiKey?: string | undefined;
}

async function read(target: { podId: string } | { endpointId: string; workerId: string }, options: ReadLogOptions): Promise<RecentLog> {
  const [{ apiVersionOf, CONFIG_KEYS, ConfigError, resolveManagementConnection }, { readRecentLog }, { Transport }] = await Promise.all([
    import("../client/config"),
    import("../client/logs"),
    import("../client/transport"),
  ]);
  const config: Record<string, string> = {};
  if (options.apiUrl !== undefined) config[CONFIG_KEYS.apiUrl] = options.apiUrl;
  if (options.apiKey !== undefined) config[CONFIG_KEYS.apiKey] = options.apiKey;
  const { apiUrl, apiKey } = resolveManagementConnection(config, process.env);
  if (apiVersionOf(apiUrl) !== "v2") {
    throw new ConfigError(
      CONFIG_KEYS.apiUrl,
      `logs are read through the management API v2, and ${apiUrl} is the v1 API: give the /v2 URL (apiUrl or GPUCLOUD_API_URL)`,
    );
  }
  const transport = new Transport({ baseUrl: apiUrl, apiKey });
  try {
    return await readRecentLog(transport, target, options);
  } finally {
    await transport.close();
  }
}

/**
 * The last lines of a pod's log (default 20; at most `maxBytes` of text, within `timeoutMs`), secrets
 * redacted. See docs/logs.md.
 */
export function readPodLog(podId: string, options: ReadLogOptions = {}): Promise<RecentLog> {
  return read({ podId }, options);
}

/** The last lines of a serverless worker's log (worker ids: the endpoint's workers), secrets redacted. See docs/logs.md. */
export function readWorkerLog(endpointId: string, workerId: string, options: ReadLogOptions = {}): Promise<RecentLog> {
  return read({ endpointId, workerId }, options);
}
