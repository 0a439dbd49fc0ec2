// Creating without ever making a duplicate, whatever fails: the answer, the service's speed, or the
// deploying process. A create is a POST the transport never repeats: if the connection breaks
// after sending, the answer times out or the service answers 5xx, the resource may exist or may
// still appear (the reference: "a create may have succeeded"). So a create is never sent twice on
// a guess:
//
//   before sending: is there already a resource an earlier create made for this stack resource?
//     (a marker or the journal proves it: ownership.ts, createJournal.ts) -> adopt it
//     a kind with no proof possible, next to a look-alike nothing accounts for -> refuse, say what to do
//   send once -> answered: done (the journal keeps the id until the engine holds it)
//             -> refused (4xx): throw; a 409 on a unique name adopts the holder only with proof
//             -> ambiguous: keep looking, with backoff, for as long as a create can take
//                  -> found: that is ours
//                  -> still nothing: record the create as pending (a placeholder, partialCreate.ts)
//                     and fail the step; the next `up` looks again before it creates
//
// "Ours", for a look-alike without a marker (a name, an image, a size: `matches`), means it did not
// exist before our create was sent. Look-alikes the stack holds, or that this process made for
// other resources, are accounted for and never taken.

import { ConflictError, duration, isAmbiguousFailure } from "../../client/errors";
import { backoffDelayMs } from "../../client/retry";
import { IncompleteCreateError } from "../../model/backend/port";
import type { ResourceTable } from "../../model/fields/fieldTable";
import { messageOf, withoutUnset, type Props } from "../../model/fields/values";
import type { CreateJournal, JournalEntry } from "./createJournal";
import { declaredInputs } from "./declared";
import type { ProgressLog } from "./deps";
import { markerOf } from "./ownership";
import {
  PENDING_CREATE_FIELD,
  ResourceInitError,
  placeholderId,
  takePendingCreate,
  withProvider,
  type PendingCreate,
} from "./partialCreate";

/** How long a list serves as the snapshot of later creates of its kind, in ms (one list per kind per few seconds). */
export const SNAPSHOT_MAX_AGE_MS = 10_000;

/** The longest wait between two lookups after an ambiguous create. */
const MAX_LOOKUP_INTERVAL_MS = 8_000;

export interface CreateSpec<T extends { id: string }> {
  /** Names the resource in messages: `pod "trainer"`. */
  subject: string;
  /** The kind's table: its noun names placeholders, its fields say what a placeholder records. */
  table: ResourceTable<T>;
  /** The checked inputs of the create (with `__provider`, which a placeholder must keep). */
  inputs: Props;
  /** Lists the kind: every resource now. */
  list(): Promise<T[]>;
  /** The kind as it was shortly before this create (maybe shared with other creates, see CreateSnapshots). */
  snapshot(): Promise<T[]>;
  /** Whether a listed resource looks like the one being created. */
  matches(candidate: T): boolean;
  create(): Promise<T>;
  log: ProgressLog;
  sleep(ms: number): Promise<void>;
  /** Clock, ms since the epoch. */
  now(): number;
  /** The stack resource the create is for (ownership.ts); absent: no proof by marker or journal. */
  owner?: string | undefined;
  /** Ids the stack holds, or this process made, for this kind: accounted for, never taken for this create's. */
  held: ReadonlySet<string>;
  /** The owner marker a listed resource carries (kinds that have one: pods, templates; absent without an owner). */
  markerOf?: ((candidate: T) => string | undefined) | undefined;
  /** The kind carries a marker (even when this create has no owner to put in it): it never fails safe on look-alikes. */
  markable?: boolean | undefined;
  /** Where this machine notes creates before sending them (absent: none kept). */
  journal?: CreateJournal | undefined;
  /** How long a create can take on the service, ms: an ambiguous one is looked for at least this long. */
  createWindowMs: number;
  /** The name is unique in the account: the service's 409 already refuses a second. */
  uniqueName?: boolean | undefined;
  /** How to adopt an existing resource instead, for messages (`set adoptId: "<id>"`). */
  adoptHint(id: string): string;
}

export interface CreateOutcome<T> {
  resource: T;
  /** The create made the resource but a later call of it failed (IncompleteCreateError): record it, fail the step. */
  incomplete?: Error;
  /**
   * The resource already existed: an earlier create made it. The caller adopts it (brings it to
   * the declared state) instead of treating it as freshly created.
   */
  adopted: boolean;
}

/** What an earlier create of this resource left: a pending placeholder's record or the journal's entry. */
interface EarlierCreate {
  startedAt: number;
  matchedBefore: readonly string[];
  createdId?: string | undefined;
}

export async function createWithoutDuplicates<T extends { id: string }>(spec: CreateSpec<T>): Promise<CreateOutcome<T>> {
  const noun = spec.table.noun;
  // Taken before anything can fail: the record belongs to this one create attempt (partialCreate.ts).
  const pending = takePendingCreate(noun, spec.inputs);
  const earlier = earlierCreate(spec, pending?.record);
  const listed = await (earlier ? spec.list() : spec.snapshot());
  const ours = findEarlier(spec, listed, earlier);
  if (ours) {
    spec.log.info(
      `${spec.subject}: an earlier, interrupted create of it did reach the service: adopting the ${noun} it made (id ${ours.id})`,
    );
    return { resource: ours, adopted: true };
  }
  const lookAlikes = listed.filter((r) => spec.matches(r) && !spec.held.has(r.id));
  if (earlier?.createdId !== undefined) {
    // Answered, so it did reach the service; what it made is gone since (deleted): nothing can still land.
    spec.log.info(`${spec.subject}: the ${noun} an earlier create made (id ${earlier.createdId}) no longer exists: creating it now`);
  } else if (earlier) {
    // Unanswered, it may still land: wait as long as a create can take, counted from when it was sent.
    const settled = earlier.startedAt + 2 * spec.createWindowMs;
    if (spec.now() < settled) {
      spec.log.info(`${spec.subject}: an earlier create of it may still land: looking for it until ${new Date(settled).toISOString()}`);
      const late = await lookUntil(spec, settled, new Set([...earlier.matchedBefore, ...lookAlikes.map((r) => r.id)]));
      if (late.found) return { resource: late.found, adopted: true };
    }
    spec.log.info(`${spec.subject}: the earlier create of it never reached the service: creating it now`);
  } else if (!spec.markable && !spec.uniqueName && lookAlikes.length > 0) {
    throw unaccountedLookAlikes(spec, lookAlikes);
  }
  return createOnce(spec, new Set([...(earlier?.matchedBefore ?? []), ...lookAlikes.map((r) => r.id)]));
}

/** Sends the create once and resolves an ambiguous answer by looking, never by sending it again. */
async function createOnce<T extends { id: string }>(spec: CreateSpec<T>, before: ReadonlySet<string>): Promise<CreateOutcome<T>> {
  const startedAt = spec.now();
  note(spec, { noun: spec.table.noun, startedAt, matchedBefore: [...before] });
  let error: unknown;
  try {
    const made = await spec.create();
    note(spec, { noun: spec.table.noun, startedAt, matchedBefore: [...before], createdId: made.id });
    return { resource: made, adopted: false };
  } catch (caught) {
    error = caught;
  }
  if (error instanceof IncompleteCreateError) {
    const made = error.created as T;
    note(spec, { noun: spec.table.noun, startedAt, matchedBefore: [...before], createdId: made.id });
    return { resource: made, adopted: false, incomplete: error };
  }
  if (error instanceof ConflictError && spec.uniqueName) return holderOfName(spec, error, before);
  if (!isAmbiguousFailure(error)) {
    // Refused: nothing was made, nothing to remember.
    if (spec.owner) spec.journal?.forget(spec.owner);
    throw error;
  }
  spec.log.warn(
    `${spec.subject}: the create got no clear answer (${messageOf(error)}); it may still be made: looking for it, ` +
      `for up to ${duration(spec.createWindowMs)}, before anything else is tried`,
  );
  const outcome = await lookUntil(spec, spec.now() + spec.createWindowMs, before);
  if (outcome.found) {
    spec.log.info(`${spec.subject}: the service did make it (id ${outcome.found.id}): using it`);
    note(spec, { noun: spec.table.noun, startedAt, matchedBefore: [...before], createdId: outcome.found.id });
    return { resource: outcome.found, adopted: false };
  }
  throw unresolvedCreate(spec, { startedAt: new Date(startedAt).toISOString(), matchedBefore: [...before] }, error, outcome.lookupError);
}

/** Looks for the create's resource with growing waits until `deadline` (ms since the epoch). */
async function lookUntil<T extends { id: string }>(
  spec: CreateSpec<T>,
  deadline: number,
  before: ReadonlySet<string>,
): Promise<{ found?: T; lookupError?: unknown }> {
  let lookupError: unknown;
  for (let attempt = 0; ; attempt++) {
    const wait = Math.min(
      backoffDelayMs(attempt, undefined, () => 0.5),
      MAX_LOOKUP_INTERVAL_MS,
      Math.max(0, deadline - spec.now()),
    );
    await spec.sleep(wait);
    try {
      const found = appeared(spec, await spec.list(), before);
      lookupError = undefined;
      if (found) return { found };
    } catch (failure) {
      // A lookup that cannot reach the service proves nothing: keep trying until the deadline.
      if (failure instanceof AmbiguityError) throw failure;
      lookupError = failure;
    }
    if (spec.now() >= deadline) return lookupError === undefined ? {} : { lookupError };
  }
}

/** The resource our create made, among a list: by its marker, else the one new look-alike. */
function appeared<T extends { id: string }>(spec: CreateSpec<T>, listed: readonly T[], before: ReadonlySet<string>): T | undefined {
  if (spec.markerOf && spec.owner) return single(spec, marked(spec, listed, spec.owner), "bear this resource's owner marker");
  const fresh = listed.filter((r) => spec.matches(r) && !before.has(r.id) && !spec.held.has(r.id));
  return single(spec, fresh, "have appeared since the create was sent");
}

/** What an earlier create proves is ours, in a list of now. */
function findEarlier<T extends { id: string }>(
  spec: CreateSpec<T>,
  listed: readonly T[],
  earlier: EarlierCreate | undefined,
): T | undefined {
  if (earlier?.createdId !== undefined) {
    const answered = listed.find((r) => r.id === earlier.createdId && !spec.held.has(r.id));
    if (answered) return answered;
  }
  if (spec.markerOf && spec.owner) return single(spec, marked(spec, listed, spec.owner), "bear this resource's owner marker");
  if (!earlier) return undefined;
  const known = new Set(earlier.matchedBefore);
  return single(
    spec,
    listed.filter((r) => spec.matches(r) && !known.has(r.id) && !spec.held.has(r.id)),
    "have appeared since an earlier create of it was sent",
  );
}

function marked<T extends { id: string }>(spec: CreateSpec<T>, listed: readonly T[], owner: string): T[] {
  const marker = markerOf(owner);
  return listed.filter((r) => spec.markerOf?.(r) === marker && !spec.held.has(r.id));
}

/** Several candidates are never guessed between. */
class AmbiguityError extends Error {}

function single<T extends { id: string }>(spec: CreateSpec<T>, candidates: readonly T[], how: string): T | undefined {
  if (candidates.length <= 1) return candidates[0];
  const ids = candidates.map((r) => r.id);
  throw new AmbiguityError(
    `${spec.subject}: ${candidates.length} ${spec.table.noun}s ${how} (${ids.join(", ")}); cannot tell which one is this resource, ` +
      `so nothing was created. Keep one: ${spec.adoptHint(ids[0] ?? "")}, and delete the others; then run \`pulumi up\` again.`,
  );
}

/** The placeholder's record or this machine's journal entry of an earlier create, if any. */
function earlierCreate<T extends { id: string }>(spec: CreateSpec<T>, record: PendingCreate | undefined): EarlierCreate | undefined {
  const journaled: JournalEntry | undefined = spec.owner ? spec.journal?.read(spec.owner) : undefined;
  if (journaled?.createdId !== undefined && spec.held.has(journaled.createdId)) {
    // The stack holds what that create made: the entry is spent.
    if (spec.owner) spec.journal?.forget(spec.owner);
    return record ? { startedAt: Date.parse(record.startedAt), matchedBefore: record.matchedBefore } : undefined;
  }
  if (record) {
    const startedAt = Date.parse(record.startedAt);
    return { startedAt, matchedBefore: [...record.matchedBefore, ...(journaled?.matchedBefore ?? [])], createdId: journaled?.createdId };
  }
  return journaled;
}

/** Writes the journal; a journal that cannot be written weakens the proof after a crash, and says so. */
function note<T extends { id: string }>(spec: CreateSpec<T>, entry: JournalEntry): void {
  if (!spec.owner || !spec.journal) return;
  try {
    spec.journal.write(spec.owner, entry);
  } catch (error) {
    spec.log.warn(
      `${spec.subject}: could not note the create in this machine's create journal (${messageOf(error)}); ` +
        "if this deploy is killed before the create is recorded, the next one may not find it (set GPUCLOUD_CACHE_DIR to a writable folder)",
    );
  }
}

/** A 409 on a unique name: the holder is adopted only when proven ours (marker, or new since our create was sent). */
async function holderOfName<T extends { id: string }>(
  spec: CreateSpec<T>,
  conflict: ConflictError,
  before: ReadonlySet<string>,
): Promise<CreateOutcome<T>> {
  const listed = await spec.list();
  const holders = listed.filter((r) => spec.matches(r));
  const proven =
    spec.markerOf && spec.owner ? marked(spec, holders, spec.owner) : holders.filter((r) => !before.has(r.id) && !spec.held.has(r.id));
  if (proven.length === 1 && proven[0]) {
    spec.log.info(
      `${spec.subject}: the name is taken by the ${spec.table.noun} an earlier create of it made (id ${proven[0].id}): adopting it`,
    );
    return { resource: proven[0], adopted: true };
  }
  if (spec.owner) spec.journal?.forget(spec.owner);
  const holder = holders.find((r) => !spec.held.has(r.id));
  if (!holder) throw conflict;
  throw new Error(
    `${spec.subject}: the name is taken by an existing ${spec.table.noun} (id ${holder.id}) that nothing proves was made for this resource ` +
      `(${messageOf(conflict)}). If an interrupted deploy of this stack made it, adopt it: ${spec.adoptHint(holder.id)}. ` +
      `Otherwise give this ${spec.table.noun} another name, or delete the existing one.`,
  );
}

/** A kind with no proof of ownership, next to look-alikes nothing accounts for: fail safe. */
function unaccountedLookAlikes<T extends { id: string }>(spec: CreateSpec<T>, lookAlikes: readonly T[]): Error {
  const ids = lookAlikes.map((r) => r.id);
  const noun = spec.table.noun;
  return new Error(
    `${spec.subject}: ${ids.length === 1 ? `a ${noun} like this one exists` : `${ids.length} ${noun}s like this one exist`} ` +
      `(id ${ids.join(", ")}) that this stack does not hold. A ${noun} carries nothing that proves which stack made it, so it may be ` +
      "what an interrupted deploy of this stack created, and creating another could bill twice: nothing was created. " +
      `If it is this resource, adopt it: ${spec.adoptHint(ids[0] ?? "")}. If it belongs to something else, give this ${noun} a name ` +
      "of its own; if nobody needs it, delete it. Then run `pulumi up` again.",
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
  const looked =
    lookupError === undefined
      ? `no ${noun} made by it appeared in ${duration(spec.createWindowMs)} of looking`
      : `looking for the ${noun} failed: ${messageOf(lookupError)}`;
  const reason =
    `${spec.subject}: the create sent at ${record.startedAt} may or may not have been made: ${messageOf(createError)}; ${looked}. ` +
    `It was not sent again. The stack records the create as pending (placeholder id ${id}): the next \`pulumi up\` looks for the ${noun} ` +
    "again and adopts it if the service made it; it creates one only once the earlier create can no longer land.";
  const properties = { ...declaredInputs(spec.table, withoutUnset(spec.inputs)), [PENDING_CREATE_FIELD]: record };
  return new ResourceInitError(id, withProvider(properties, spec.inputs), reason);
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
