/**
 * The account's limits (v2 API only): `getAccountLimits()` and its Output form. The API key needs
 * the scope `account:read`; without it the call fails with a PermissionDeniedError (403).
 */
import * as pulumi from "@pulumi/pulumi";
import type { AccountLimits } from "../model/lookup/accountLimits";
import { accountLimitsOf, withV2Client } from "../model/lookup/v2Lookups";
import { lookupConnection, type LookupOptions } from "./connection";

export type { AccountLimit, AccountLimits } from "../model/lookup/accountLimits";

/** The account's hourly spend cap and serverless worker quota (see {@link AccountLimits}). */
export async function getAccountLimits(options: LookupOptions = {}): Promise<AccountLimits> {
  return withV2Client("getAccountLimits", lookupConnection(options), accountLimitsOf);
}

/** {@link getAccountLimits} as an Output, for use inside a program. */
export function getAccountLimitsOutput(options: LookupOptions = {}): pulumi.Output<AccountLimits> {
  return pulumi.output(getAccountLimits(options));
}
