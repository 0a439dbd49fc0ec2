// The lookups only the v2 API serves (the catalog, the account's limits), on one connection each:
// the SDK's getGpuTypes / getAccountLimits (with the program's connection) and the provider
// plugin's functions of the same names (with the provider's) go through here.

import { apiVersionOf, ConfigError, CONFIG_KEYS } from "../../client/config";
import type { ManagementClientV2 } from "../../client/managementV2";
import type { AccountLimit, AccountLimits } from "./accountLimits";

/** Runs `call` on a v2 client of the connection, closed after; a ConfigError when the URL is v1's. */
export async function withV2Client<T>(
  lookup: string,
  connection: { apiKey: string; apiUrl: string },
  call: (client: ManagementClientV2) => Promise<T>,
): Promise<T> {
  if (apiVersionOf(connection.apiUrl) !== "v2") {
    throw new ConfigError(
      CONFIG_KEYS.apiUrl,
      `${lookup} needs the service's v2 API, but the management URL ends in /v1: set ${CONFIG_KEYS.apiUrl} (or the apiUrl of the lookup or of its provider) to the /v2 URL.`,
    );
  }
  // Loaded on the first lookup: a program that reads no catalog and no limits never loads the client.
  const { ManagementClientV2 } = await import("../../client/managementV2");
  const client = new ManagementClientV2({ baseUrl: connection.apiUrl, apiKey: connection.apiKey });
  try {
    return await call(client);
  } finally {
    await client.close();
  }
}

/** The account's hourly spend cap and serverless worker quota. */
export async function accountLimitsOf(client: ManagementClientV2): Promise<AccountLimits> {
  const { spendRate, serverlessWorkers } = await client.accountLimits();
  return { spendRate: limitOf(spendRate), serverlessWorkers: limitOf(serverlessWorkers) };
}

function limitOf(wire: { limit?: number | undefined; current?: number | undefined }): AccountLimit {
  return { ...(wire.limit !== undefined ? { limit: wire.limit } : {}), ...(wire.current !== undefined ? { current: wire.current } : {}) };
}
