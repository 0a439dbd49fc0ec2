/**
 * Persisting the state file: reads at start, writes debounced after changes and once more on
 * close. Every write goes to a temporary file in the same directory, is fsynced, then renamed
 * over the target (and the directory fsynced), so a crash mid-write leaves either the old file
 * or the new one, never a torn one.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
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

/** Debounced writer: `schedule()` after changes, `save()` to write now, `close()` at shutdown. */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;
  private writing: Promise<void> = Promise.resolve();
  private lastError: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly debounceMs: number,
    private readonly serialize: () => string,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes now if anything changed; writes never overlap. A failed write stays pending. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await writeFileAtomic(this.path, this.serialize());
        this.lastError = undefined;
      } catch (error) {
        this.dirty = true;
        this.lastError = error instanceof Error ? error : new Error(String(error));
      }
    });
    return this.writing;
  }

  /** Writes now, changed or not; throws if the state could not be saved. */
  async save(): Promise<void> {
    this.dirty = true;
    await this.flush();
    if (this.lastError) throw new Error(`could not save state to ${this.path}: ${this.lastError.message}`);
  }

  /** Final save; later changes are no longer written. */
  async close(): Promise<void> {
    await this.save();
    this.closed = true;
  }
}
