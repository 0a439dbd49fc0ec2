// Creating without ever making a duplicate. A create is a POST the transport never repeats on its
// own: if the connection breaks after sending, the answer times out, or the service answers 5xx,
// the resource may or may not exist. Repeating blindly would risk a second pod (billed by the
// hour); giving up would leak the first. So before trying again, the service is asked:
//
//   create -> ok: done
//          -> refused (4xx, or 429/connect failures the transport already retried): throw
//          -> ambiguous: wait a moment, then look for it
//               -> found: that is our resource (no duplicate)
//               -> not found: create again (at most MAX_CREATE_ATTEMPTS), same rules
//               -> the lookup fails too: the outcome is unknown (recorded as pending, below)
//
// Pods, endpoints and network volumes have no unique name, so "ours" means: matches what we asked
// for AND was not there before we sent the create. That needs a snapshot of the kind taken before
// the create, and no marker inside the user's resource. A list taken for one create serves every
// create of the kind that starts within SNAPSHOT_MAX_AGE_MS of it, with the resources this process
// created since added (CreateSnapshots below): one list call per kind per few seconds instead of
// one per create, each as long as the account's list (a 100-endpoint up made 84 lists of up to 100
// endpoints). Residual risks: another client creating a look-alike (what `matches` compares: the
// name, and the image, template, data center or size by kind) within that time while our create's
// answer is lost would be taken for ours; and a service that makes the resource visible only later
// than the wait could still produce a duplicate; the waits grow to narrow that.
//
// When the outcome stays unknown, the create is recorded in state under a placeholder
// (partialCreate.ts) with the snapshot, and the next run's create resolves it with the same rule:
// exactly one look-alike that was not in the snapshot is ours and is adopted; none means the create
// never happened; more than one is never guessed.

import { ConflictError, isAmbiguousFailure, type ApiError } from "../../client/errors";
import { backoffDelayMs } from "../../client/retry";
import { declaredInputs } from "./declared";
import type { ProgressLog } from "./deps";
import type { ResourceTable } from "../../model/fields/fieldTable";
import {
  PENDING_CREATE_FIELD,
  ResourceInitError,
  placeholderId,
  takePendingCreate,
  withProvider,
  type PendingCreate,
} from "./partialCreate";
import { messageOf, withoutUnset, type Props } from "../../model/fields/values";

/** Total create attempts when each ambiguous failure is resolved as "not created". */
export const MAX_CREATE_ATTEMPTS = 3;

/** How long a list serves as the snapshot of later creates of its kind, in ms (see the header). */
export const SNAPSHOT_MAX_AGE_MS = 10_000;

/** How one create attempt ended once its ambiguity (if any) was resolved. */
export type AttemptOutcome<T> =
  | { kind: "created"; resource: T }
  /** The attempt's answer was lost but the service had made it. */
  | { kind: "found"; resource: T; error: ApiError }
  /** The create was refused, or failed ambiguously on every attempt (`error` is the create's). */
  | { kind: "failed"; error: unknown; ambiguous: boolean }
  /** The create failed ambiguously and the lookup failed too: nobody can tell. */
  | { kind: "unknown"; error: unknown; lookupError: unknown };

export interface AttemptOptions {
  maxAttempts?: number;
  sleep(ms: number): Promise<void>;
  random?: () => number;
  /** Told about every ambiguous failure and what the lookup found. */
  onAmbiguous?(attempt: number, error: ApiError, found: boolean): void;
}

/** The create / look / create-again loop above, as a pure function of its two calls. */
export async function createResolvingAmbiguity<T>(
  create: () => Promise<T>,
  lookup: () => Promise<T | undefined>,
  options: AttemptOptions,
): Promise<AttemptOutcome<T>> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? MAX_CREATE_ATTEMPTS);
  let ambiguous = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return { kind: "created", resource: await create() };
    } catch (error) {
      if (!isAmbiguousFailure(error)) return { kind: "failed", error, ambiguous };
      ambiguous = true;
      // Give a create that is still being processed a moment to become visible before looking.
      await options.sleep(backoffDelayMs(attempt - 1, undefined, options.random ?? Math.random));
      let existing: T | undefined;
      try {
        existing = await lookup();
      } catch (lookupError) {
        // The lookup failed too (its GETs were already retried): we must not create again.
        return { kind: "unknown", error, lookupError };
      }
      options.onAmbiguous?.(attempt, error, existing !== undefined);
      if (existing !== undefined) return { kind: "found", resource: existing, error };
      if (attempt >= maxAttempts) return { kind: "failed", error, ambiguous };
    }
  }
}

export interface CreateSpec<T extends { id: string }> {
  /** Names the resource in messages: `pod "trainer"`. */
  subject: string;
  /** The kind's table: its noun names placeholders, its fields say what a placeholder records. */
  table: ResourceTable<T>;
  /** The checked inputs of the create (with `__provider`, which a placeholder must keep). */
  inputs: Props;
  /** Lists the kind: every resource now (the lookups after a lost answer). */
  list(): Promise<T[]>;
  /** The kind as it was before this create: a list (maybe shared, see CreateSnapshots), taken before it is sent. */
  snapshot(): Promise<T[]>;
  /** Whether a listed resource looks like the one being created. */
  matches(candidate: T): boolean;
  create(): Promise<T>;
  log: ProgressLog;
  sleep(ms: number): Promise<void>;
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

export async function createWithoutDuplicates<T extends { id: string }>(spec: CreateSpec<T>): Promise<CreateOutcome<T>> {
  const noun = spec.table.noun;
  // Taken before anything can fail: the record belongs to this one create attempt (see partialCreate.ts).
  const pending = takePendingCreate(noun, spec.inputs);
  // An interrupted create of an earlier run is looked for in a list of now.
  const current = (await (pending ? spec.list() : spec.snapshot())).filter(spec.matches);
  if (pending) {
    const ours = madeByEarlierCreate(spec, pending.record, current);
    if (ours) {
      spec.log.info(
        `${spec.subject}: the create interrupted at ${pending.record.startedAt} did reach the service: adopting the ${noun} it made (id ${ours.id})`,
      );
      return { resource: ours, adopted: true };
    }
    spec.log.info(
      `${spec.subject}: the create interrupted at ${pending.record.startedAt} did not reach the service (no new matching ${noun}): creating it now`,
    );
  }
  const before = new Set(current.map((r) => r.id));
  const record: PendingCreate = { startedAt: new Date(spec.now()).toISOString(), matchedBefore: [...before] };
  const outcome = await createResolvingAmbiguity(spec.create, () => appearedSince(spec, before), {
    sleep: spec.sleep,
    onAmbiguous: (attempt, error, found) =>
      spec.log.warn(
        `${spec.subject}: create attempt ${attempt} got no clear answer (${error.message}); ` +
          (found ? "the service did create it: using that one." : "the service did not create it: trying again."),
      ),
  });
  switch (outcome.kind) {
    case "created":
    case "found":
      return { resource: outcome.resource, adopted: false };
    case "unknown":
      throw unresolvedCreate(spec, record, outcome.error, outcome.lookupError);
    case "failed":
      // "Name taken" after a create of ours may have happened (interrupted earlier, or an attempt of
      // this run whose resource became visible late): the holder of the name may be that resource.
      if (outcome.error instanceof ConflictError && (pending !== undefined || outcome.ambiguous)) {
        const ours = madeByEarlierCreate(spec, record, (await spec.list()).filter(spec.matches));
        if (ours) {
          spec.log.info(`${spec.subject}: the name is taken by the ${noun} an earlier create made (id ${ours.id}): adopting it`);
          return { resource: ours, adopted: true };
        }
      }
      throw outcome.error;
  }
}

/**
 * The snapshots of one kind's creates in one provider process, for one connection: a list serves
 * every create that starts within `maxAgeMs` of when it was sent (creates arriving while it is in
 * flight wait for it), with the resources this process created since added. A list that fails is
 * not kept: the next create lists again.
 */
export class CreateSnapshots<T extends { id: string }> {
  #list: { sentAt: number; items: Promise<T[]> } | undefined;
  /** Made by this process since the list was sent (a later list holds them). */
  #created: Array<{ at: number; resource: T }> = [];

  constructor(
    private readonly now: () => number,
    private readonly maxAgeMs: number = SNAPSHOT_MAX_AGE_MS,
  ) {}

  async take(list: () => Promise<T[]>): Promise<T[]> {
    const now = this.now();
    if (!this.#list || now - this.#list.sentAt > this.maxAgeMs) {
      const current = { sentAt: now, items: list() };
      this.#list = current;
      // What was made before this list was sent is in it.
      this.#created = this.#created.filter((c) => c.at >= now);
      current.items.catch(() => {
        if (this.#list === current) this.#list = undefined;
      });
    }
    const items = await this.#list.items;
    const ids = new Set(items.map((r) => r.id));
    return [...items, ...this.#created.filter((c) => !ids.has(c.resource.id)).map((c) => c.resource)];
  }

  /** A resource this process made (or found made by its own lost create): part of every later snapshot. */
  add(resource: T): void {
    this.#created.push({ at: this.now(), resource });
  }
}

/** The look-alike that appeared since the snapshot; several are never guessed between. */
async function appearedSince<T extends { id: string }>(spec: CreateSpec<T>, before: ReadonlySet<string>): Promise<T | undefined> {
  const appeared = (await spec.list()).filter((r) => spec.matches(r) && !before.has(r.id));
  if (appeared.length <= 1) return appeared[0];
  // Someone else created a look-alike at the same moment: guessing could adopt their resource.
  const message =
    `${spec.subject}: the create's answer was lost and ${appeared.length} matching resources appeared since ` +
    `(${appeared.map((r) => r.id).join(", ")}); cannot tell which one is ours. Delete the extra ones and run \`pulumi up\` again.`;
  spec.log.warn(message);
  throw new Error(message);
}

/** The one look-alike that did not exist before the earlier create; more than one is never guessed. */
function madeByEarlierCreate<T extends { id: string }>(
  spec: CreateSpec<T>,
  record: Pick<PendingCreate, "matchedBefore">,
  matching: T[],
): T | undefined {
  const known = new Set(record.matchedBefore);
  const fresh = matching.filter((r) => !known.has(r.id));
  if (fresh.length <= 1) return fresh[0];
  throw new Error(
    `${spec.subject}: an earlier create of it may have reached the service, and ${fresh.length} matching ${spec.table.noun}s ` +
      `have appeared since (${fresh.map((r) => r.id).join(", ")}); cannot tell which one it made. ` +
      "Delete the ones that are not wanted (keep at most one) and run `pulumi up` again.",
  );
}

/** A partial create under a placeholder id that records the doubt for the next run. */
function unresolvedCreate<T extends { id: string }>(
  spec: CreateSpec<T>,
  record: PendingCreate,
  createError: unknown,
  lookupError: unknown,
): ResourceInitError {
  const noun = spec.table.noun;
  const id = placeholderId(noun);
  const reason =
    `${spec.subject}: the create may or may not have happened: ${messageOf(createError)}; ` +
    `looking for the ${noun} afterwards failed too: ${messageOf(lookupError)}. ` +
    `The stack records the create as pending (placeholder id ${id}): the next \`pulumi up\` adopts the ${noun} ` +
    "if the service did create it, or creates it otherwise.";
  const properties = { ...declaredInputs(spec.table, withoutUnset(spec.inputs)), [PENDING_CREATE_FIELD]: record };
  return new ResourceInitError(id, withProvider(properties, spec.inputs), reason);
}
