/**
 * The account's limits (v2 API only): `getAccountLimits()` and its Output form. The API key needs
 * the scope `account:read`; without it the call fails with a PermissionDeniedError (403).
 */
import * as pulumi from "@pulumi/pulumi";
import { apiVersionOf, ConfigError, CONFIG_KEYS } from "../client/config";
import { lookupConnection, type LookupOptions } from "./connection";

/** One limit of the account. */
export interface AccountLimit {
  /** The cap, when the service reports it. */
  limit?: number;
  /** The use now, when the service reports it. */
  current?: number;
}

/**
 * The account's limits as `GET /v2/account/limits` reports them. The service documents what each
 * limit means but not the fields inside each; `limit` and `current` are read where present.
 */
export interface AccountLimits {
  /**
   * The hourly spend cap, in USD per hour, over everything of the account that runs (pods and
   * serverless workers): a start that would take the running cost over it is refused (402).
   * $80/hour by default, raised on request.
   */
  spendRate: AccountLimit;
  /** The serverless worker quota: the most the sum of `workersMax` over all the account's endpoints may be. */
  serverlessWorkers: AccountLimit;
}

/** The account's hourly spend cap and serverless worker quota (see {@link AccountLimits}). */
export async function getAccountLimits(options: LookupOptions = {}): Promise<AccountLimits> {
  const { apiKey, apiUrl } = lookupConnection(options);
  if (apiVersionOf(apiUrl) !== "v2") {
    throw new ConfigError(
      CONFIG_KEYS.apiUrl,
      `getAccountLimits needs the service's v2 API, but the management URL ends in /v1: set ${CONFIG_KEYS.apiUrl} (or the apiUrl option) to the /v2 URL.`,
    );
  }
  // Loaded on the first call: a program that never asks for its limits never loads the client.
  const { ManagementClientV2 } = await import("../client/managementV2");
  const client = new ManagementClientV2({ baseUrl: apiUrl, apiKey });
  try {
    const { spendRate, serverlessWorkers } = await client.accountLimits();
    return { spendRate: limitOf(spendRate), serverlessWorkers: limitOf(serverlessWorkers) };
  } finally {
    await client.close();
  }
}

/** {@link getAccountLimits} as an Output, for use inside a program. */
export function getAccountLimitsOutput(options: LookupOptions = {}): pulumi.Output<AccountLimits> {
  return pulumi.output(getAccountLimits(options));
}

function limitOf(wire: { limit?: number | undefined; current?: number | undefined }): AccountLimit {
  return { ...(wire.limit !== undefined ? { limit: wire.limit } : {}), ...(wire.current !== undefined ? { current: wire.current } : {}) };
}
