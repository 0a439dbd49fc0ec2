// Reading one existing resource by id (or by its name, for kinds whose names the v1 API kept
// unique; on v2 a name that several share is refused) with the values its resource class reports as outputs, on either backend. The SDK's
// lookups (getPod, getTemplate, ...) are this with a connection around it.

import { isNotFound, type ApiErrorFields } from "../../client/errors";
import { secretPlaceholder } from "../../client/secrets";
import type { ManagementApi } from "../backend/port";
import { sensitiveFields, tableForBackend, type Backend, type ResourceTable } from "../fields/fieldTable";
import type { Props } from "../fields/values";
import type { ResourceKind } from "../kinds";
import { LookupArgsError } from "./lookupArgsError";
import { LookupNotFoundError, type LookupKey } from "./lookupNotFoundError";
import { KIND_READERS as READERS } from "../kinds/registry";

/** Whether the kind can be looked up by name: the service keeps its names unique. */
export function namesAreUnique(kind: ResourceKind): boolean {
  return READERS[kind].table.deleteBeforeReplaceWhenSame?.includes("name") === true;
}

/** The kind's fields that hold secrets (an env map): a lookup's Output form is secret when one is present. */
export function sensitiveOf(kind: ResourceKind): string[] {
  return sensitiveFields(READERS[kind].table);
}

/** The kind's noun in messages ("network volume"). */
export function nounOf(kind: ResourceKind): string {
  return READERS[kind].table.noun;
}

/**
 * The resource as its class's outputs would show it: `id`, then every field the service reports,
 * in the provider's field names on both backends (undeclared inputs included, read from the live
 * object; env maps whole, injected keys included).
 */
export async function readExisting(
  kind: ResourceKind,
  api: ManagementApi,
  backend: Backend,
  key: LookupKey,
  lookup: string,
): Promise<Props> {
  const reader = READERS[kind];
  const noun = reader.table.noun;
  const what = "id" in key ? `id ${JSON.stringify(key.id)}` : `name ${JSON.stringify(key.name)}`;
  const missing = (why: string, fields: ApiErrorFields, cause?: Error): LookupNotFoundError =>
    new LookupNotFoundError(
      `${lookup}: no ${noun} with ${what} (${why}). Check the ${"id" in key ? "id" : "name"} and that apiUrl points at the account that owns it.`,
      noun,
      key,
      fields,
      cause,
    );

  let live: { id: string; name?: string | undefined };
  if ("id" in key) {
    try {
      live = await reader.get(api, key.id);
    } catch (error) {
      if (isNotFound(error)) throw missing(error.message, error, error);
      throw error;
    }
    if (reader.gone?.(live) === true) throw missing(`the service reports it terminated`, noAnswer(lookup));
  } else {
    // v2 names are case-insensitive and not unique (the reference states no uniqueness, and lists
    // templates newest first): every match counts, and more than one is refused, never the first taken.
    const wanted = key.name.toLowerCase();
    const found = (await reader.list(api)).filter((l) => l.name?.toLowerCase() === wanted && reader.gone?.(l) !== true);
    const first = found[0];
    if (first === undefined) throw missing(`the service lists none by that name`, noAnswer(lookup));
    if (found.length > 1)
      throw new LookupArgsError(
        `${lookup}: ${found.length} ${noun}s are named ${JSON.stringify(key.name)} (names are compared without regard to case, and the ` +
          `service does not keep them unique): ${found.map((l) => `${l.id} (${JSON.stringify(l.name)})`).join(", ")}. ` +
          `Look it up by id instead, e.g. { id: ${JSON.stringify(first.id)} }, or rename or delete the others.`,
      );
    live = first;
  }
  return { id: live.id, ...observed(tableForBackend(reader.table as ResourceTable<unknown>, backend), live) };
}

/**
 * A secret's lookup result as users see it: with `ref`, the placeholder env values take (as
 * `Secret.ref` gives it), and without the empty description the service reports for none.
 */
export function secretInfoOf<T extends { name: string; description?: string | undefined }>(
  info: T,
): Omit<T, "description"> & { description?: string; ref: string } {
  const { description, ...rest } = info;
  return { ...rest, ...(description ? { description } : {}), ref: secretPlaceholder(info.name) };
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
  return {
    status: undefined,
    serviceMessage: undefined,
    operation,
    method: "GET",
    url: "",
    retryable: false,
    kind: undefined,
    retryAfterMs: undefined,
    requestId: undefined,
    headers: {},
  };
}
