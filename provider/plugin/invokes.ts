// The plugin's functions: the lookups of one resource by id (or unique name), the v2 catalog, the
// account's limits and the reads (an endpoint's workers and releases, public templates, logs,
// billing), on the provider's connection (its configuration, else GPUCLOUD_* env). The same
// readers as the SDK's lookups (model/lookup); results as the SDK's, except that the catalog
// lists come as one property each (a function returns an object): `{ gpuTypes: [...] }`, each
// entry as the service lists it (keys it adds later included).

import { ConfigError, resolveManagementConnection } from "../../client/config";
import { currentBackend, managementClient } from "../../model/connection";
import { RESOURCE_KINDS, type ResourceKind } from "../../model/kinds";
import { readExisting, secretInfoOf, sensitiveOf } from "../../model/lookup/lookup";
import { LookupArgsError } from "../../model/lookup/lookupArgsError";
import { lookupName, parseLookupKey } from "../../model/lookup/lookupKey";
import { LookupNotFoundError } from "../../model/lookup/lookupNotFoundError";
import { READ_NAMES } from "../../model/lookup/readNames";
import { runRead } from "../../model/lookup/reads";
import { accountLimitsOf, withV2Client } from "../../model/lookup/v2Lookups";
import { getStackConfig } from "../../model/stackConfig";
import { isRecord, messageOf, type Props, withoutUnset } from "../../model/fields/values";
import type { ManagementClientV2 } from "../../client/managementV2";
import { ACCOUNT_LIMITS_FUNCTION, CATALOG_FUNCTIONS, functionToken, lookupToken, type CatalogFunction } from "./tokens";

/** A function's result, and which of its properties are secret. */
export interface FunctionResult {
  outputs: Props;
  secretKeys: readonly string[];
}

export type PluginFunction = (args: Props) => Promise<FunctionResult>;

/** Each catalog function's result property and its call. */
const CATALOG: Record<CatalogFunction, { property: string; read(client: ManagementClientV2): Promise<readonly unknown[]> }> = {
  getGpuTypes: { property: "gpuTypes", read: (c) => c.gpuTypes() },
  getCpuTypes: { property: "cpuTypes", read: (c) => c.cpuTypes() },
  getDataCenters: { property: "dataCenters", read: (c) => c.dataCenters() },
};

export function pluginFunctions(): ReadonlyMap<string, PluginFunction> {
  const out = new Map<string, PluginFunction>();
  for (const kind of RESOURCE_KINDS) out.set(lookupToken(kind), (args) => lookUp(kind, args));
  for (const name of CATALOG_FUNCTIONS) {
    const { property, read } = CATALOG[name];
    out.set(functionToken(name), async (args) => {
      noArguments(name, args);
      const items = await withV2Client(name, connection(), read);
      return { outputs: { [property]: items }, secretKeys: [] };
    });
  }
  // The reads (workers, releases, public templates, logs, billing): the SDK's, on the provider's connection.
  for (const name of READ_NAMES)
    out.set(functionToken(name), async (args) => ({ outputs: (await runRead(name, args, connection())) as Props, secretKeys: [] }));
  out.set(functionToken(ACCOUNT_LIMITS_FUNCTION), async (args) => {
    noArguments(ACCOUNT_LIMITS_FUNCTION, args);
    const limits = await withV2Client(ACCOUNT_LIMITS_FUNCTION, connection(), accountLimitsOf);
    return { outputs: { ...limits }, secretKeys: [] };
  });
  return out;
}

/** One resource, as its lookup in the SDK returns it; secret where it holds an env map. */
async function lookUp(kind: ResourceKind, args: Props): Promise<FunctionResult> {
  const lookup = lookupName(kind);
  const key = parseLookupKey(kind, withoutUnset(args));
  let found: Props;
  try {
    found = await readExisting(kind, managementClient(), currentBackend(), key, lookup);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof LookupNotFoundError || error instanceof LookupArgsError) throw error;
    throw new Error(`${lookup} ${JSON.stringify(key)}: ${messageOf(error)}`, { cause: error });
  }
  const outputs: Props =
    kind === "secret" ? secretInfoOf(found as { name: string }) : kind === "registryAuth" ? pick(found, ["id", "name"]) : found;
  return { outputs, secretKeys: sensitiveOf(kind).filter((field) => outputs[field] !== undefined) };
}

/** The provider's management connection (for the v2-only functions, which open their own client). */
function connection(): { apiKey: string; apiUrl: string } {
  return resolveManagementConnection(getStackConfig(), process.env);
}

function noArguments(name: string, args: Props): void {
  const given = Object.keys(withoutUnset(args));
  if (given.length > 0) throw new LookupArgsError(`${name} takes no arguments (got ${given.join(", ")}); call it with none.`);
}

function pick(value: unknown, fields: readonly string[]): Props {
  const out: Props = {};
  if (isRecord(value)) for (const field of fields) if (value[field] !== undefined && value[field] !== null) out[field] = value[field];
  return out;
}
