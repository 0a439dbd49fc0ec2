// What a process learned of the account's rate-limit windows, kept for the next process of the same
// account and API base URL. Every Pulumi operation starts a new provider process; without this, its gate
// (rateLimitGate.ts) knew nothing until its first answer, and when the previous operation had spent
// a window, that first call was refused (429) before the process learned to wait.
//
// One small JSON file per account and base URL, named by a hash of the two (never the key itself),
// holding per window the quota, the requests left and the reset time: nothing secret. It lives in
// the user's cache directory (`pulumi-gpucloud/rate-limits/`, or under GPUCLOUD_CACHE_DIR): per user,
// kept across reboots within a day, and the place a user looks for what a tool may throw away.
//
// Written atomically (a temporary file renamed over it) and throttled: at once when a window becomes
// spent (what the next process must not miss), otherwise at most once a second. Read once, when the
// process's gate is made; a window past its reset is ignored, as is a file that cannot be read or
// parsed. Failing to write costs only this help, never a call: every error here is swallowed.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The environment variable naming the directory the package keeps what a process learns for the next. */
export const CACHE_DIR_ENV = "GPUCLOUD_CACHE_DIR";

/** Non-urgent writes come at most this often. */
export const SAVE_INTERVAL_MS = 1_000;

/** A record this old is past every window the service has (the longest is a day): its file is removed. */
export const FORGET_AFTER_MS = 2 * 86_400_000;

/** One window as remembered. */
export interface RememberedWindow {
  name: string;
  quota: number | undefined;
  /** Requests the window could still take, less those sent and not yet answered (0 or less: spent). */
  remaining: number;
  /** When the window resets at the latest (ms since the epoch). */
  resetAtMs: number;
}

interface RecordFile {
  version: 1;
  windows: RememberedWindow[];
}

/** The user's cache directory for this package: GPUCLOUD_CACHE_DIR, else the platform's per-user cache. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  const given = env[CACHE_DIR_ENV];
  if (given) return given;
  if (platform === "win32") return path.join(env["LOCALAPPDATA"] ?? path.join(home, "AppData", "Local"), "pulumi-gpucloud", "Cache");
  if (platform === "darwin") return path.join(home, "Library", "Caches", "pulumi-gpucloud");
  return path.join(env["XDG_CACHE_HOME"] || path.join(home, ".cache"), "pulumi-gpucloud");
}

function isWindow(value: unknown, now: number): value is RememberedWindow {
  if (typeof value !== "object" || value === null) return false;
  const w = value as Record<string, unknown>;
  return (
    typeof w["name"] === "string" &&
    (w["quota"] === undefined || (typeof w["quota"] === "number" && Number.isFinite(w["quota"]))) &&
    typeof w["remaining"] === "number" &&
    Number.isFinite(w["remaining"]) &&
    typeof w["resetAtMs"] === "number" &&
    // Past its reset the window is over; beyond the longest window ahead the record is not to be trusted.
    w["resetAtMs"] > now &&
    w["resetAtMs"] <= now + FORGET_AFTER_MS
  );
}

/**
 * Two views of the same account's windows: per window, the fewer requests left and the later reset.
 * Both views are of windows not yet reset (load drops the others), so they are views of the same
 * window, and within a window what the service counts only goes down.
 */
export function mergeWindows(ours: readonly RememberedWindow[], onFile: readonly RememberedWindow[]): RememberedWindow[] {
  const merged = new Map(ours.map((w) => [w.name, { ...w }]));
  for (const other of onFile) {
    const mine = merged.get(other.name);
    if (!mine) merged.set(other.name, { ...other });
    else {
      mine.remaining = Math.min(mine.remaining, other.remaining);
      mine.resetAtMs = Math.max(mine.resetAtMs, other.resetAtMs);
      mine.quota ??= other.quota;
    }
  }
  return [...merged.values()];
}

const pruned = new Set<string>();

/** Removes records nobody wrote for FORGET_AFTER_MS (each emulator run with a new key leaves one). Once per process and directory. */
function pruneOnce(dir: string, now: number): void {
  if (pruned.has(dir)) return;
  pruned.add(dir);
  try {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      try {
        if (now - fs.statSync(file).mtimeMs > FORGET_AFTER_MS) fs.rmSync(file, { force: true });
      } catch {
        // Gone meanwhile, or not ours to remove.
      }
    }
  } catch {
    // No directory yet.
  }
}

/** The record of one account and base URL (see the top of this file). */
export class WindowMemory {
  readonly #dir: string;
  readonly #file: string;
  #lastWriteMs = Number.NEGATIVE_INFINITY;
  /** The spent windows of the last write, `name@reset`: a newly spent one is written at once. */
  #lastSpent = "";
  #pending: RememberedWindow[] | undefined;
  /** Per window, `remaining@reset` as this process last wrote it. */
  #written = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;

  /** `name`: a hash of the base URL and the key. */
  constructor(name: string, dir: string = path.join(cacheDir(), "rate-limits")) {
    this.#dir = dir;
    this.#file = path.join(dir, `${name}.json`);
  }

  /** The windows remembered that have not reset by `now`; none when there is no readable record. */
  load(now: number): RememberedWindow[] {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.#file, "utf8")) as Partial<RecordFile>;
      if (parsed.version !== 1 || !Array.isArray(parsed.windows)) return [];
      return parsed.windows.filter((w): w is RememberedWindow => isWindow(w, now));
    } catch {
      return [];
    }
  }

  /** The gate's windows after a change, written now if one became spent, else within SAVE_INTERVAL_MS. */
  save(windows: RememberedWindow[], now: number): void {
    const spent = windows
      .filter((w) => w.remaining <= 0)
      .map((w) => `${w.name}@${w.resetAtMs}`)
      .join(",");
    if ((spent !== "" && spent !== this.#lastSpent) || now - this.#lastWriteMs >= SAVE_INTERVAL_MS) {
      this.#write(windows, now, spent);
      return;
    }
    this.#pending = windows;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      const latest = this.#pending;
      this.#pending = undefined;
      // The directory exists (the write this one follows made it); if it was removed meanwhile, so be it.
      if (latest) this.#write(latest, Date.now(), this.#lastSpent, false);
    }, SAVE_INTERVAL_MS).unref();
  }

  #write(windows: RememberedWindow[], now: number, spent: string, makeDir = true): void {
    this.#pending = undefined;
    this.#lastWriteMs = now;
    this.#lastSpent = spent;
    // Several processes of one operation write the same record (the program's lookups, the
    // provider's calls): each merges what the others wrote, so none writes a spent window back as
    // open. What is on file as this process last wrote it is its own older view: replaced.
    const others = this.load(now).filter((w) => this.#written.get(w.name) !== `${w.remaining}@${w.resetAtMs}`);
    const record: RecordFile = { version: 1, windows: mergeWindows(windows, others) };
    this.#written = new Map(record.windows.map((w) => [w.name, `${w.remaining}@${w.resetAtMs}`]));
    const temporary = `${this.#file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      if (makeDir) {
        fs.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
        pruneOnce(this.#dir, now);
      }
      fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
      fs.renameSync(temporary, this.#file);
    } catch {
      // A directory we may not write (a read-only home): the next process starts knowing nothing, as before.
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Nothing was written.
      }
    }
  }
}
