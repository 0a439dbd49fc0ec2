// Creating without ever making a duplicate. A create whose answer is lost (connection dropped,
// timeout, 5xx) may or may not have happened; the client's createOnce resolves that by asking
// `findExisting` before it tries again. Pods, endpoints and network volumes have no unique name,
// so "existing" means: matches what we asked for AND was not there before we sent the create.
// The snapshot costs one list call per create; it needs no marker inside the user's resource.
//
// When that lookup fails too (the service is unreachable), the outcome stays unknown: the create is
// recorded in state under a placeholder (partialCreate.ts) with the snapshot, and the next run's
// create resolves it with the same rule: exactly one look-alike that was not in the snapshot is
// ours and is adopted; none means the create never happened; more than one is never guessed.

import { ConflictError, isAmbiguousFailure, type ApiError } from "../../client/errors";
import type { CreateCallOptions } from "../../client/management";
import { declaredInputs } from "./declared";
import type { ProgressLog } from "./deps";
import type { ResourcePolicy } from "./fieldPolicy";
import { PENDING_CREATE_FIELD, ResourceInitError, placeholderId, takePendingCreate, withProvider, type PendingCreate } from "./partialCreate";
import { messageOf } from "./resourceBase";
import { withoutUnset, type Props } from "./values";

export interface CreateOnceSpec<T extends { id: string }> {
  /** Names the resource in messages: `pod "trainer"`. */
  subject: string;
  /** The kind's table: its noun names placeholders, its fields say what a placeholder records. */
  policy: ResourcePolicy<T>;
  /** The checked inputs of the create (with `__provider`, which a placeholder must keep). */
  inputs: Props;
  /** Lists candidates (may be pre-filtered by the service, e.g. by name). */
  list(): Promise<T[]>;
  /** Whether a listed resource looks like the one being created. */
  matches(candidate: T): boolean;
  create(options: CreateCallOptions<T>): Promise<T>;
  log: ProgressLog;
  /** Clock (ms since the epoch) for the record of an unresolved create. */
  now(): number;
}

export interface CreateOutcome<T> {
  resource: T;
  /**
   * The resource already existed: an earlier create whose answer was lost made it. The caller
   * adopts it (brings it to the declared state) instead of treating it as freshly created.
   */
  adopted: boolean;
}

export async function createWithoutDuplicates<T extends { id: string }>(spec: CreateOnceSpec<T>): Promise<CreateOutcome<T>> {
  const noun = spec.policy.noun;
  // Taken before anything can fail: the record belongs to this one create attempt (see partialCreate.ts).
  const pending = takePendingCreate(noun, spec.inputs);
  const current = (await spec.list()).filter(spec.matches);
  if (pending) {
    const ours = madeByEarlierCreate(spec, pending.record, current);
    if (ours) {
      spec.log.info(`${spec.subject}: the create interrupted at ${pending.record.startedAt} did reach the service: adopting the ${noun} it made (id ${ours.id})`);
      return { resource: ours, adopted: true };
    }
    spec.log.info(`${spec.subject}: the create interrupted at ${pending.record.startedAt} did not reach the service (no new matching ${noun}): creating it now`);
  }
  const before = new Set(current.map((r) => r.id));
  const startedAt = new Date(spec.now()).toISOString();
  let lookupError: unknown;
  let hadAmbiguous = false;
  try {
    const resource = await spec.create({
      findExisting: async () => {
        try {
          const appeared = (await spec.list()).filter((r) => spec.matches(r) && !before.has(r.id));
          if (appeared.length <= 1) return appeared[0];
          // Someone else created a look-alike at the same moment: guessing could adopt their resource.
          const message =
            `${spec.subject}: the create's answer was lost and ${appeared.length} matching resources appeared since ` +
            `(${appeared.map((r) => r.id).join(", ")}); cannot tell which one is ours. Delete the extra ones and run \`pulumi up\` again.`;
          spec.log.warn(message);
          throw new Error(message);
        } catch (error) {
          lookupError = error;
          throw error;
        }
      },
      onAmbiguous: ({ attempt, error, found }: { attempt: number; error: ApiError; found: boolean }) => {
        hadAmbiguous = true;
        spec.log.warn(
          `${spec.subject}: create attempt ${attempt} got no clear answer (${error.message}); ` +
            (found ? "the service did create it: using that one." : "the service did not create it: trying again."),
        );
      },
    });
    return { resource, adopted: false };
  } catch (error) {
    // createOnce rethrows the create's own error when its lookup failed: the outcome is unknown.
    if (isAmbiguousFailure(error) && lookupError !== undefined) {
      throw unresolvedCreate(spec, { startedAt, matchedBefore: [...before] }, error, lookupError);
    }
    // "Name taken" after a create of ours may have happened (interrupted earlier, or an attempt of
    // this run whose resource became visible late): the holder of the name may be that resource.
    if (error instanceof ConflictError && (pending !== undefined || hadAmbiguous)) {
      const ours = madeByEarlierCreate(spec, { matchedBefore: [...before] }, (await spec.list()).filter(spec.matches));
      if (ours) {
        spec.log.info(`${spec.subject}: the name is taken by the ${noun} an earlier create made (id ${ours.id}): adopting it`);
        return { resource: ours, adopted: true };
      }
    }
    throw error;
  }
}

/** The one look-alike that did not exist before the earlier create; more than one is never guessed. */
function madeByEarlierCreate<T extends { id: string }>(spec: CreateOnceSpec<T>, record: Pick<PendingCreate, "matchedBefore">, matching: T[]): T | undefined {
  const known = new Set(record.matchedBefore);
  const fresh = matching.filter((r) => !known.has(r.id));
  if (fresh.length <= 1) return fresh[0];
  throw new Error(
    `${spec.subject}: an earlier create of it may have reached the service, and ${fresh.length} matching ${spec.policy.noun}s ` +
      `have appeared since (${fresh.map((r) => r.id).join(", ")}); cannot tell which one it made. ` +
      "Delete the ones that are not wanted (keep at most one) and run `pulumi up` again.",
  );
}

/** A partial create under a placeholder id that records the doubt for the next run. */
function unresolvedCreate<T extends { id: string }>(spec: CreateOnceSpec<T>, record: PendingCreate, createError: unknown, lookupError: unknown): ResourceInitError {
  const noun = spec.policy.noun;
  const id = placeholderId(noun);
  const reason =
    `${spec.subject}: the create may or may not have happened: ${messageOf(createError)}; ` +
    `looking for the ${noun} afterwards failed too: ${messageOf(lookupError)}. ` +
    `The stack records the create as pending (placeholder id ${id}): the next \`pulumi up\` adopts the ${noun} ` +
    "if the service did create it, or creates it otherwise.";
  const properties = { ...declaredInputs(spec.policy, withoutUnset(spec.inputs)), [PENDING_CREATE_FIELD]: record };
  return new ResourceInitError(id, withProvider(properties, spec.inputs), reason);
}
