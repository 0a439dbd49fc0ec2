/**
 * One lookup's call (see lookups.ts): the key checked, the resource read from the service, a
 * failure made one line. Loaded on a program's first lookup, with what it needs (the key's schema,
 * the management clients, the field tables): a program without lookups never loads them.
 */
import { z } from "zod";
import { ConfigError } from "../client/config";
import { openManagementApi } from "../model/backend/openApi";
import type { ResourceKind } from "../model/kinds";
import { namesAreUnique, nounOf, readExisting } from "../model/lookup/lookup";
import { LookupNotFoundError, type LookupKey } from "../model/lookup/lookupNotFoundError";
import { lookupConnection, type LookupOptions } from "./connection";
import { LookupArgsError } from "./lookupArgsError";
import { callFailure, LookupError } from "./programError";

export { sensitiveOf } from "../model/lookup/lookup";

function lookupName(kind: ResourceKind): string {
  return `get${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)}`;
}

function parseKey(kind: ResourceKind, args: unknown): LookupKey {
  const lookup = lookupName(kind);
  const id = z
    .object({ id: z.string().trim().min(1) })
    .strict()
    .safeParse(args);
  if (id.success) return id.data;
  const byName = namesAreUnique(kind)
    ? z
        .object({ name: z.string().trim().min(1) })
        .strict()
        .safeParse(args)
    : undefined;
  if (byName?.success) return byName.data;
  const wanted = namesAreUnique(kind) ? `{ id: "<${nounOf(kind)} id>" } or { name: "<its name>" }` : `{ id: "<${nounOf(kind)} id>" }`;
  throw new LookupArgsError(
    `${lookup}: ${JSON.stringify(args) ?? String(args)} is not a lookup key: give ${wanted}, each a non-empty string.`,
  );
}

/**
 * One lookup; fails with one error saying what was looked up, the id or name and the cause
 * (LookupArgsError, ConfigError, LookupNotFoundError, or a LookupError whose cause is the
 * service's error), which a Pulumi program prints as that one line (programError.ts).
 */
export async function lookUp(kind: ResourceKind, args: unknown, options: LookupOptions): Promise<Record<string, unknown>> {
  const lookup = lookupName(kind);
  try {
    const key = parseKey(kind, args);
    const { apiKey, apiUrl } = lookupConnection(options);
    const { api, backend, close } = openManagementApi({ baseUrl: apiUrl, apiKey });
    try {
      return await readExisting(kind, api, backend, key, lookup);
    } catch (error) {
      throw callFailure(`${lookup} ${JSON.stringify(key)}`, [LookupNotFoundError], error);
    } finally {
      await close();
    }
  } catch (error) {
    throw callFailure(lookup, [LookupArgsError, ConfigError, LookupNotFoundError, LookupError], error);
  }
}
