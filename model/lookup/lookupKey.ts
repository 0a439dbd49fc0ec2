// What a lookup of one resource is given: an id, or a name for kinds whose names are unique. The
// SDK's lookups and the provider plugin's functions parse it alike.

import { z } from "zod";
import type { ResourceKind } from "../kinds";
import { namesAreUnique, nounOf } from "./lookup";
import { LookupArgsError } from "./lookupArgsError";
import type { LookupKey } from "./lookupNotFoundError";

/** The lookup's name, `getPod`, `getNetworkVolume`, ... (also its function name in the provider plugin). */
export function lookupName(kind: ResourceKind): string {
  return `get${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)}`;
}

/** The id (or name) looked up; a LookupArgsError saying what to give otherwise. */
export function parseLookupKey(kind: ResourceKind, args: unknown): LookupKey {
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
