// Reading one existing resource by id (or by its name, for kinds whose names the service keeps
// unique) with the values its resource class reports as outputs, on either backend. The SDK's
// lookups (getPod, getTemplate, ...) are this with a connection around it.

import { isNotFound } from "../../client/errors";
import { LookupNotFoundError, type LookupKey } from "./lookupNotFoundError";
import type { ApiErrorFields } from "../../client/errors";
import type { ResourceKind } from "../../model/kinds";
import type { ManagementApi } from "../../model/backend/port";
import { endpointSpec } from "./endpoint";
import { sensitiveFields, tableForBackend, type Backend, type ResourceTable } from "../../model/fields/fieldTable";
import type { ResourceSpec } from "./lifecycle";
import { networkVolumeSpec } from "./networkVolume";
import { podSpec } from "./pod";
import { registryAuthSpec } from "./registryAuth";
import { secretSpec } from "./secret";
import { templateSpec } from "./template";
import type { Props } from "../../model/fields/values";

export type { LookupKey } from "./lookupNotFoundError";

export { LookupNotFoundError } from "./lookupNotFoundError";

type AnySpec = ResourceSpec<never, { id: string; name?: string | undefined }, unknown>;

const SPECS: Record<ResourceKind, AnySpec> = {
  pod: podSpec as unknown as AnySpec,
  endpoint: endpointSpec as unknown as AnySpec,
  networkVolume: networkVolumeSpec as unknown as AnySpec,
  template: templateSpec as unknown as AnySpec,
  registryAuth: registryAuthSpec as unknown as AnySpec,
  secret: secretSpec as unknown as AnySpec,
};

/** Whether the kind can be looked up by name: the service keeps its names unique. */
export function namesAreUnique(kind: ResourceKind): boolean {
  return SPECS[kind].table.deleteBeforeReplaceWhenSame?.includes("name") === true;
}

/** The kind's fields that hold secrets (an env map): a lookup's Output form is secret when one is present. */
export function sensitiveOf(kind: ResourceKind): string[] {
  return sensitiveFields(SPECS[kind].table);
}

/** The kind's noun in messages ("network volume"). */
export function nounOf(kind: ResourceKind): string {
  return SPECS[kind].table.noun;
}

/**
 * The resource as its class's outputs would show it: `id`, then every field the service reports,
 * in the provider's field names on both backends (undeclared inputs included, read from the live
 * object; env maps whole, injected keys included).
 */
export async function readExisting(kind: ResourceKind, api: ManagementApi, backend: Backend, key: LookupKey, lookup: string): Promise<Props> {
  const spec = SPECS[kind];
  const noun = spec.table.noun;
  const what = "id" in key ? `id ${JSON.stringify(key.id)}` : `name ${JSON.stringify(key.name)}`;
  const missing = (why: string, fields: ApiErrorFields, cause?: Error): LookupNotFoundError =>
    new LookupNotFoundError(`${lookup}: no ${noun} with ${what} (${why}). Check the ${"id" in key ? "id" : "name"} and that apiUrl points at the account that owns it.`, noun, key, fields, cause);

  let live: { id: string; name?: string | undefined };
  if ("id" in key) {
    try {
      live = await spec.get(api, key.id);
    } catch (error) {
      if (isNotFound(error)) throw missing(error.message, error, error);
      throw error;
    }
    if (spec.gone?.(live) === true) throw missing(`the service reports it terminated`, noAnswer(lookup));
  } else {
    const found = (await spec.list(api)).filter((l) => l.name === key.name && spec.gone?.(l) !== true);
    const first = found[0];
    if (first === undefined) throw missing(`the service lists none by that name`, noAnswer(lookup));
    live = first;
  }
  return { id: live.id, ...observed(tableForBackend(spec.table as ResourceTable<unknown>, backend), live) };
}

/** Every field the table reads back from the live object, where the service reports a value. */
function observed(table: ResourceTable<unknown>, live: unknown): Props {
  const out: Props = {};
  for (const [name, row] of Object.entries(table.fields)) {
    const value = row.observe?.(live);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/** The error fields of a not-found decided here rather than by a 404 from the service. */
function noAnswer(operation: string): ApiErrorFields {
  return { status: undefined, serviceMessage: undefined, operation, method: "GET", url: "", retryable: false, kind: undefined, retryAfterMs: undefined, requestId: undefined, headers: {} };
}
