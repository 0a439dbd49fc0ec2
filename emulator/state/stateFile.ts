/**
 * Persisting the state file: reads at start, writes debounced after changes and once more on
 * close. Every write goes to a temporary file in the same directory, is fsynced, then renamed
 * over the target (and the directory fsynced), so a crash mid-write leaves either the old file
 * or the new one, never a torn one; the temporary files a crash leaves are removed at the next start.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export async function readStateText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  }
}

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  // A state file in a directory that does not exist yet (e.g. `--state .cache/emu/state.json`).
  await mkdir(dir, { recursive: true });
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  // Make the rename itself durable; not every platform lets a directory be fsynced.
  try {
    const dirHandle = await open(dir, "r");
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  } catch {
    // best effort
  }
}

/** Whether the state is reaching the disk; `error` is the last write's failure, if it failed. */
export interface StateStatus {
  path: string;
  saving: boolean;
  error: string | undefined;
}

/** How often a failed write is retried, in real-time ms, while nothing else triggers a write. */
export const STATE_RETRY_MS = 1000;

/**
 * Debounced writer: `schedule()` after changes, `flush()` to write now (rejects when the write
 * fails), `save()` to write even without changes, `close()` at shutdown. A failed write keeps the
 * change pending and is retried every STATE_RETRY_MS until one succeeds; `onStatus` hears each
 * switch between saving and failing.
 */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;
  private writing: Promise<void> = Promise.resolve();
  private lastError: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly debounceMs: number,
    private readonly serialize: () => string,
    private readonly onStatus: (status: StateStatus) => void = () => undefined,
  ) {}

  status(): StateStatus {
    return { path: this.path, saving: this.lastError === undefined, error: this.lastError?.message };
  }

  schedule(): void {
    this.dirty = true;
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined); // reported through onStatus, retried by the retry timer
    }, this.debounceMs);
    this.timer.unref();
  }

  /**
   * Writes now if anything changed; writes never overlap, and callers that arrive during a write
   * share the next one. Rejects when the state could not be written (the change stays pending).
   */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const attempt = this.writing.then(async () => {
      if (!this.dirty) {
        if (this.lastError) throw this.lastError;
        return;
      }
      this.dirty = false;
      try {
        await writeFileAtomic(this.path, this.serialize());
      } catch (error) {
        this.dirty = true;
        this.failed(error instanceof Error ? error : new Error(String(error)));
        throw this.lastError;
      }
      this.succeeded();
    });
    this.writing = attempt.catch(() => undefined);
    return attempt;
  }

  /** Writes now, changed or not; throws if the state could not be saved. */
  async save(): Promise<void> {
    this.dirty = true;
    try {
      await this.flush();
    } catch (error) {
      throw new Error(`could not save state to ${this.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Final save; later changes are no longer written and retries stop. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopRetrying();
    await this.save();
  }

  private failed(error: Error): void {
    const wasSaving = this.lastError === undefined;
    this.lastError = error;
    if (wasSaving) this.onStatus(this.status());
    if (!this.retryTimer && !this.closed) {
      this.retryTimer = setInterval(() => {
        if (!this.timer) this.flush().catch(() => undefined);
      }, STATE_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private succeeded(): void {
    this.stopRetrying();
    if (this.lastError === undefined) return;
    this.lastError = undefined;
    this.onStatus(this.status());
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
  }
}

/**
 * Removes temporary files a crashed run left beside the state file (`.<name>.<pid>.<random>.tmp`,
 * see writeFileAtomic). Called at start, before this run writes anything; returns what it removed.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return []; // no directory yet: nothing left over
  }
  const stale = names.filter((name) => name.startsWith(prefix) && /^\d+\.[0-9a-f]+\.tmp$/.test(name.slice(prefix.length)));
  await Promise.all(stale.map((name) => unlink(join(dir, name)).catch(() => undefined)));
  return stale.map((name) => join(dir, name));
}
