// The create journal: before a create is sent, this machine writes down that it is about to make a
// resource for an owner (ownership.ts), when, and which look-alikes existed then; once the service
// answers, which id it gave. If the deploying process dies before the engine records the resource
// (killed CLI, a CI job's timeout), the next `up` on this machine finds the entry and adopts what the
// create made instead of making it again: the id when it was answered, otherwise the one look-alike
// that appeared since.
//
// An entry is dropped when the engine shows that it holds the id (a diff, refresh, update or delete
// of it), and forgotten after ENTRY_TTL_MS whatever happens. Files live in the user's cache
// directory (`pulumi-gpucloud/creates/`, or under GPUCLOUD_CACHE_DIR), one per owner, named by the
// owner's marker (a hash); they hold ids and times, never inputs or credentials. Writes go to a
// temporary file that is flushed and renamed, so a process killed mid-write leaves the old entry or
// the new one. Nothing here is needed for correctness on another machine: there, pods and templates
// are found by their marker and other kinds fail safe (createOnce.ts).

import * as fs from "node:fs";
import * as path from "node:path";
import { cacheDir } from "../../client/rateLimitMemory";
import { isRecord } from "../../model/fields/values";
import { markerOf } from "./ownership";

/** How long an entry is kept when nothing drops it: longer than any deploy, shorter than forever. */
export const ENTRY_TTL_MS = 30 * 24 * 3600 * 1000;

export interface JournalEntry {
  /** The kind's noun (`pod`), for messages. */
  noun: string;
  /** When the create was sent, ms since the epoch. */
  startedAt: number;
  /** Ids of the look-alikes that existed before it: none of them is what it made. */
  matchedBefore: string[];
  /** The id the service answered with, once it did. */
  createdId?: string;
}

export interface CreateJournal {
  read(owner: string): JournalEntry | undefined;
  write(owner: string, entry: JournalEntry): void;
  /** Drops the entry; with `id`, only an entry of that created id. */
  forget(owner: string, id?: string): void;
}

/** The journal in a folder (default: the user's cache directory). Failures to write are the caller's to report. */
export function fileJournal(dir: string = path.join(cacheDir(), "creates"), now: () => number = Date.now): CreateJournal {
  const fileOf = (owner: string) => path.join(dir, `${markerOf(owner)}.json`);
  const read = (owner: string): JournalEntry | undefined => {
    let text: string;
    try {
      text = fs.readFileSync(fileOf(owner), "utf8");
    } catch {
      return undefined;
    }
    const entry = entryOf(text);
    if (!entry || now() - entry.startedAt > ENTRY_TTL_MS) {
      fs.rmSync(fileOf(owner), { force: true });
      return undefined;
    }
    return entry;
  };
  return {
    read,
    write(owner, entry) {
      fs.mkdirSync(dir, { recursive: true });
      const file = fileOf(owner);
      const temporary = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify(entry), { flush: true });
      fs.renameSync(temporary, file);
    },
    forget(owner, id) {
      if (id !== undefined && read(owner)?.createdId !== id) return;
      fs.rmSync(fileOf(owner), { force: true });
    },
  };
}

/** A file's entry, or undefined when it is not one (a damaged file is as good as none). */
function entryOf(text: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { noun, startedAt, matchedBefore, createdId } = value;
  if (typeof noun !== "string" || typeof startedAt !== "number" || !Array.isArray(matchedBefore)) return undefined;
  if (!matchedBefore.every((id): id is string => typeof id === "string")) return undefined;
  return { noun, startedAt, matchedBefore, ...(typeof createdId === "string" ? { createdId } : {}) };
}
