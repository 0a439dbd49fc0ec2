/**
 * The provider process's clients for the service, built from the connection settings in force at
 * call time (stack config from `configure`, else GPUCLOUD_* env) and reused while those settings
 * stay the same, so every resource shares one keep-alive pool per origin.
 *
 * Retries are logged through Pulumi's log so a slow `pulumi up` says why it is slow.
 */
import * as pulumi from "@pulumi/pulumi";
import { createHash } from "node:crypto";
import { resolveJobConnection, resolveManagementConnection } from "../client/config";
import { JobClient } from "../client/jobClient";
import { ManagementClient } from "../client/management";
import type { RetryInfo } from "../client/transport";
import { getStackConfig } from "./runtimeConfig";

const managementClients = new Map<string, ManagementClient>();
const jobClients = new Map<string, JobClient>();

/** Cache key that never keeps the API key itself in memory longer than needed. */
function cacheKey(url: string, apiKey: string): string {
  return `${url}#${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
}

function logRetry(info: RetryInfo): void {
  // The error's message is already redacted by the transport.
  void pulumi.log.info(`retry ${info.attempt} of ${info.operation} in ${Math.round(info.delayMs)} ms: ${info.error.message}`);
}

export function managementClient(): ManagementClient {
  const { apiUrl, apiKey } = resolveManagementConnection(getStackConfig(), process.env);
  const key = cacheKey(apiUrl, apiKey);
  let client = managementClients.get(key);
  if (!client) {
    client = new ManagementClient({ baseUrl: apiUrl, apiKey, onRetry: logRetry });
    managementClients.set(key, client);
  }
  return client;
}

export function jobClient(): JobClient {
  const { serverlessUrl, apiKey } = resolveJobConnection(getStackConfig(), process.env);
  const key = cacheKey(serverlessUrl, apiKey);
  let client = jobClients.get(key);
  if (!client) {
    client = new JobClient({ serverlessUrl, apiKey, onRetry: logRetry });
    jobClients.set(key, client);
  }
  return client;
}

/** Closes and forgets every cached client (tests that stop their emulator call this). */
export async function closeClients(): Promise<void> {
  const all = [...managementClients.values(), ...jobClients.values()];
  managementClients.clear();
  jobClients.clear();
  await Promise.allSettled(all.map((c) => c.close()));
}
