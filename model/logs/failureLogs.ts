// The last lines of a pod's or worker's log, for a failure message (provider/logNotes.ts): read
// with the connection settings in force, through a transport of its own that is closed at once
// (a failure path, off every hot path), bounded to FAILURE_LOG_LINES lines, FAILURE_LOG_BYTES bytes
// and FAILURE_LOG_TIMEOUT_MS. Loaded only when something failed: the provider imports it with
// `await import(...)`, so a deploy that fails nothing never loads the log reader.

import { apiVersionOf, resolveManagementConnection } from "../../client/config";
import { readRecentLog, type LogTarget, type RecentLog } from "../../client/logs";
import { Transport } from "../../client/transport";
import { getStackConfig } from "../stackConfig";

/** Lines a failure message shows of the log concerned. */
export const FAILURE_LOG_LINES = 20;
/** Bytes of line text a failure message shows at most (the oldest lines go first). */
export const FAILURE_LOG_BYTES = 8_192;
/** How long a failure waits for the log, at most. */
export const FAILURE_LOG_TIMEOUT_MS = 5_000;

/** The log's last lines, or undefined where the API has no logs (v1). */
export async function readFailureLog(target: LogTarget): Promise<RecentLog | undefined> {
  const { apiUrl, apiKey } = resolveManagementConnection(getStackConfig(), process.env);
  if (apiVersionOf(apiUrl) !== "v2") return undefined;
  // One retry at most: the read must not hold the failure it explains for long.
  const transport = new Transport({ baseUrl: apiUrl, apiKey, maxRetries: 1, timeoutMs: FAILURE_LOG_TIMEOUT_MS });
  try {
    return await readRecentLog(transport, target, {
      lines: FAILURE_LOG_LINES,
      maxBytes: FAILURE_LOG_BYTES,
      timeoutMs: FAILURE_LOG_TIMEOUT_MS,
    });
  } finally {
    await transport.close();
  }
}
