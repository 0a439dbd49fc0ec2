/**
 * One lookup's call (see lookups.ts): the key checked, the resource read from the service, a
 * failure made one line. Loaded on a program's first lookup, with what it needs (the key's schema,
 * the management clients, the field tables): a program without lookups never loads them.
 */
import { ConfigError } from "../client/config";
import { openManagementApi } from "../model/backend/openApi";
import type { ResourceKind } from "../model/kinds";
import { readExisting } from "../model/lookup/lookup";
import { LookupArgsError } from "../model/lookup/lookupArgsError";
import { lookupName, parseLookupKey } from "../model/lookup/lookupKey";
import { LookupNotFoundError } from "../model/lookup/lookupNotFoundError";
import { lookupConnection, type LookupOptions } from "./connection";
import { callFailure, LookupError } from "./programError";

export { secretInfoOf, sensitiveOf } from "../model/lookup/lookup";

/**
 * One lookup; fails with one error saying what was looked up, the id or name and the cause
 * (LookupArgsError, ConfigError, LookupNotFoundError, or a LookupError whose cause is the
 * service's error), which a Pulumi program prints as that one line (programError.ts).
 */
export async function lookUp(kind: ResourceKind, args: unknown, options: LookupOptions): Promise<Record<string, unknown>> {
  const lookup = lookupName(kind);
  try {
    const key = parseLookupKey(kind, args);
    const { apiKey, apiUrl } = lookupConnection(options);
    const { api, backend, close } = openManagementApi({ baseUrl: apiUrl, apiKey });
    try {
      return await readExisting(kind, api, backend, key, lookup);
    } catch (error) {
      throw callFailure(`${lookup} ${JSON.stringify(key)}`, [LookupNotFoundError, LookupArgsError], error);
    } finally {
      await close();
    }
  } catch (error) {
    throw callFailure(lookup, [LookupArgsError, ConfigError, LookupNotFoundError, LookupError], error);
  }
}
