// Shared list calls: reads of one kind that arrive close together in the provider process (the
// engine runs refresh reads, creates and readiness polls of many resources in parallel) are served
// by one list call of that kind instead of one GET each.
//
// The rules, each for a reason:
// - A batch collects what arrives within WINDOW_MS of its first request (so every request waits
//   that long for company); a request arriving after the batch's call went out starts the next
//   batch, so every answer was read after it was asked (a lookup before a create must not miss a
//   resource made meanwhile, and a poll after a change must not see the state before it).
// - A lone read stays a plain GET, and so do reads too few for the kind's size as its last list
//   showed it (ITEMS_PER_READ): a list of thousands must not replace a handful of GETs.
// - A resource missing from the list is confirmed by its own GET before it counts as gone: a list
//   can lag a create, and a refresh must never drop a live resource from the state on a list miss.
// - No retries here: the list and the GETs go through the one transport, which retries. A list
//   that fails gives its error to every caller it was serving (the same service would refuse their
//   GETs too, and answering each with a GET would multiply the calls against a failing service),
//   except a list whose answer did not validate: one malformed item spoils a whole list, so each
//   read falls back to its own GET.
// - Each read gets its own copy of its item, so no caller sees another one's changes; callers of
//   `list` get their own array, of items they share and only read (the provider's createOnce.ts).

import { ResponseValidationError } from "../../client/errors";

/** How long the first request of a batch waits for others to join, in ms. */
export const WINDOW_MS = 10;
/** A list serves a batch of reads only if it returns at most this many items per read. */
export const ITEMS_PER_READ = 25;

/** A kind's two read calls: its list (every item as complete as a get of it) and its get. */
export interface ListedKind<T extends { id: string }> {
  list(): Promise<T[]>;
  get(id: string): Promise<T>;
}

/** Reads of one kind, shared or plain. */
export interface KindReads<T extends { id: string }> {
  read(id: string): Promise<T>;
  list(): Promise<T[]>;
}

export interface SharingOptions {
  windowMs?: number;
  itemsPerRead?: number;
}

interface Waiter<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

interface Batch<T> {
  reads: Map<string, Waiter<T>[]>;
  lists: Waiter<T[]>[];
}

/** The kind's reads: shared with these options, or (false) its calls as they are. */
export function readsOf<T extends { id: string }>(kind: ListedKind<T>, sharing: SharingOptions | false): KindReads<T> {
  return sharing === false ? { read: (id) => kind.get(id), list: () => kind.list() } : sharedReads(kind, sharing);
}

/** The kind's reads shared through list calls (the rules at the top of this file). */
export function sharedReads<T extends { id: string }>(kind: ListedKind<T>, options: SharingOptions = {}): KindReads<T> {
  const windowMs = options.windowMs ?? WINDOW_MS;
  const itemsPerRead = options.itemsPerRead ?? ITEMS_PER_READ;
  let open: Batch<T> | undefined;
  /** Items in the kind's last list, once one was made: how big a list would be. */
  let lastListSize: number | undefined;

  function join(): Batch<T> {
    if (open) return open;
    const batch: Batch<T> = { reads: new Map(), lists: [] };
    open = batch;
    setTimeout(() => {
      open = undefined;
      void serve(batch);
    }, windowMs);
    return batch;
  }

  async function serve(batch: Batch<T>): Promise<void> {
    const ids = [...batch.reads.keys()];
    const worthListing = ids.length >= 2 && (lastListSize === undefined || lastListSize <= ids.length * itemsPerRead);
    if (batch.lists.length === 0 && !worthListing) {
      for (const [id, waiters] of batch.reads) void settle(waiters, kind.get(id), false);
      return;
    }
    let items: T[];
    try {
      items = await kind.list();
      lastListSize = items.length;
    } catch (error) {
      for (const waiter of batch.lists) waiter.reject(error);
      const fallBack = error instanceof ResponseValidationError;
      for (const [id, waiters] of batch.reads) void settle(waiters, fallBack ? kind.get(id) : Promise.reject(error), false);
      return;
    }
    for (const waiter of batch.lists) waiter.resolve([...items]);
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const [id, waiters] of batch.reads) {
      const item = byId.get(id);
      void settle(waiters, item === undefined ? kind.get(id) : Promise.resolve(item), item !== undefined);
    }
  }

  return {
    read(id) {
      const batch = join();
      return new Promise<T>((resolve, reject) => {
        const waiters = batch.reads.get(id) ?? [];
        waiters.push({ resolve, reject });
        batch.reads.set(id, waiters);
      });
    },
    list() {
      const batch = join();
      return new Promise<T[]>((resolve, reject) => void batch.lists.push({ resolve, reject }));
    },
  };
}

/** Gives every waiter for one id the outcome, each its own copy of an item others may hold too. */
async function settle<T>(waiters: readonly Waiter<T>[], outcome: Promise<T>, shared: boolean): Promise<void> {
  try {
    const item = await outcome;
    for (const [i, waiter] of waiters.entries()) waiter.resolve(shared || i > 0 ? structuredClone(item) : item);
  } catch (error) {
    for (const waiter of waiters) waiter.reject(error);
  }
}
