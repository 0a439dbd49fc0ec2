// Who a resource on the service belongs to. A create that reached the service must be found again
// by whoever runs next (the same `up` after a lost answer, the next `up` after the deploying process
// was killed), and a resource of another stack must never be taken for ours. The proof is, by kind:
//
//   - a marker on the service: pods, templates and v2 endpoints carry the env var OWNER_MARKER_ENV, whose value is
//     a hash of the owner (the `__owner` input: organization, project, stack, parents, type and
//     name; the URN through the plugin). Only this stack resource makes that value, so a resource
//     bearing it was made for it, on any machine, after any failure;
//   - the create journal (createJournal.ts): written on this machine before a create is sent, it
//     says when, what existed before and, once answered, which id the service gave. It serves every
//     kind, but only where the interrupted deploy ran;
//   - nothing: a kind with neither (another machine, a network volume) refuses to create next to
//     a look-alike it cannot account for, naming the ids and what to do (createOnce.ts).
//
// One resource bears the owner's marker legitimately besides a lost create's: the one the stack
// holds, while its replacement is being created (create before delete). The engine shows this
// process every id it holds (diff, read, update, delete), and this process knows what it created:
// those ids are accounted for (the lifecycle keeps them per kind and connection), never adopted by
// a create and never taken for a lost one.

import { createHash } from "node:crypto";
import { OWNER_INPUT, OWNER_MARKER_ENV } from "../../model/kinds";
import type { Props } from "../../model/fields/values";

/** The `__owner` input of a create or diff, when the program (or the plugin) gave one. */
export function ownerOf(inputs: Props | undefined): string | undefined {
  const owner = inputs?.[OWNER_INPUT];
  return typeof owner === "string" && owner !== "" ? owner : undefined;
}

/** The marker value of an owner: 32 hex digits of its SHA-256. */
export function markerOf(owner: string): string {
  return createHash("sha256").update(owner).digest("hex").slice(0, 32);
}

/** The marker a listed resource's env carries, if any. */
export function markerInEnv(env: unknown): string | undefined {
  if (typeof env !== "object" || env === null || Array.isArray(env)) return undefined;
  const value = (env as Props)[OWNER_MARKER_ENV];
  return typeof value === "string" ? value : undefined;
}
