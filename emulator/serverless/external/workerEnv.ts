/**
 * The environment the platform gives a worker (WORKER-PROTOCOL.md section 1), every variable under
 * one prefix. The service's own SDK reads them under the service's prefix, so the prefix is a setting;
 * WORKER_ENV_PREFIX tells our own worker loop which one it is.
 */

export interface WorkerEnvInput {
  /** Variable prefix, e.g. "GPUCLOUD" gives GPUCLOUD_POD_ID. */
  prefix: string;
  /** Job API base URL, ending in /v2. */
  serverlessUrl: string;
  endpointId: string;
  workerId: string;
  apiKey: string;
  /** GPU type shown in the URLs' `gpu=` parameter. */
  gpu: string;
  /** Heartbeat interval, real ms (the SDK uses whole seconds). */
  pingIntervalMs: number;
}

export const DEFAULT_WORKER_ENV_PREFIX = "GPUCLOUD";

export function workerEnvironment(w: WorkerEnvInput): Record<string, string> {
  const p = w.prefix;
  const base = `${w.serverlessUrl}/${encodeURIComponent(w.endpointId)}`;
  const gpu = `gpu=${encodeURIComponent(w.gpu)}`;
  return {
    WORKER_ENV_PREFIX: p,
    [`${p}_WEBHOOK_GET_JOB`]: `${base}/job-take/$ID?${gpu}`,
    [`${p}_WEBHOOK_POST_OUTPUT`]: `${base}/job-done/$${p}_POD_ID/$ID?${gpu}`,
    [`${p}_WEBHOOK_POST_STREAM`]: `${base}/job-stream/$${p}_POD_ID/$ID?${gpu}`,
    [`${p}_WEBHOOK_PING`]: `${base}/ping/$${p}_POD_ID?${gpu}`,
    [`${p}_PING_INTERVAL`]: String(Math.max(1000, Math.round(w.pingIntervalMs))),
    [`${p}_AI_API_KEY`]: w.apiKey,
    [`${p}_POD_ID`]: w.workerId,
    // Not in the reference's table, but the worker SDK reports it as the host of a handler's error.
    [`${p}_POD_HOSTNAME`]: `${w.workerId}-worker`,
    [`${p}_ENDPOINT_ID`]: w.endpointId,
    // Offline: the SDK's start-up checks would run nvidia-smi and reach a public DNS server.
    [`${p}_SKIP_GPU_CHECK`]: "true",
    [`${p}_SKIP_AUTO_SYSTEM_CHECKS`]: "true",
  };
}
