/**
 * One log of the emulator (a pod's, a serverless worker's): the last lines in a ring of fixed size,
 * each with its source (`container`: what the container writes; `system`: the host's lifecycle
 * lines, LogSource in the reference) and a timestamp that is unique and increasing within the log,
 * so a reader that resumes from the last timestamp it saw (`Last-Event-ID`) neither repeats nor
 * skips a line. Memory per log is bounded: LOG_RING_LINES lines of at most LOG_LINE_MAX_CHARS.
 */

export type LogSource = "container" | "system";

/** Lines a log keeps; older ones are dropped as new ones come. */
export const LOG_RING_LINES = 1000;
/** Characters a line keeps; the rest is cut, and the line says how much. */
export const LOG_LINE_MAX_CHARS = 2048;

export interface LogEntry {
  readonly source: LogSource;
  readonly line: string;
  /** Microseconds since the epoch (service time): unique and increasing within the log. */
  readonly atUs: number;
}

/** A line written later than now (a boot's STARTING and RUNNING): it shows once its time has come. */
export interface PendingLine {
  readonly source: LogSource;
  readonly line: string;
  /** Service-time ms since the epoch. */
  readonly atMs: number;
}

export class LogRing {
  private readonly slots: (LogEntry | undefined)[];
  private head = 0;
  private count = 0;
  private lastUs = 0;
  private pending: PendingLine[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    /** Service-time ms since the epoch. */
    private readonly now: () => number,
    readonly capacity: number = LOG_RING_LINES,
  ) {
    this.slots = new Array<LogEntry | undefined>(capacity);
  }

  /** Appends `text`, one entry per line (a trailing newline makes no empty line). */
  write(source: LogSource, text: string): void {
    this.flushDue();
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const atMs = this.now();
    for (const line of lines) this.push(source, line, atMs);
    this.notify();
  }

  /** Replaces the lines waiting for their time (a new boot supersedes the previous one's). */
  schedule(lines: readonly PendingLine[]): void {
    this.flushDue();
    this.pending = [...lines].sort((a, b) => a.atMs - b.atMs);
  }

  /** Whether some line still waits for its time (a reader looks again later). */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Every line, oldest first. */
  entries(): LogEntry[] {
    this.flushDue();
    const out: LogEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.slots[(this.head + i) % this.capacity] as LogEntry);
    return out;
  }

  /** The timestamp of the newest line (0 when empty): a reader that saw it has seen everything. */
  get newestUs(): number {
    this.flushDue();
    return this.lastUs;
  }

  /** Calls `listener` after each write; returns the function that stops it. */
  onWrite(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves the pending lines whose time has come into the ring, in their order. */
  private flushDue(): void {
    if (this.pending.length === 0) return;
    const now = this.now();
    let due = 0;
    while (due < this.pending.length && (this.pending[due] as PendingLine).atMs <= now) due++;
    if (due === 0) return;
    for (const p of this.pending.splice(0, due)) this.push(p.source, p.line, p.atMs);
    this.notify();
  }

  private push(source: LogSource, line: string, atMs: number): void {
    const cut =
      line.length > LOG_LINE_MAX_CHARS
        ? `${line.slice(0, LOG_LINE_MAX_CHARS)} [line cut: ${line.length - LOG_LINE_MAX_CHARS} more characters]`
        : line;
    const atUs = Math.max(Math.floor(atMs) * 1000, this.lastUs + 1);
    this.lastUs = atUs;
    const entry: LogEntry = { source, line: cut, atUs };
    if (this.count < this.capacity) {
      this.slots[(this.head + this.count) % this.capacity] = entry;
      this.count++;
    } else {
      this.slots[this.head] = entry;
      this.head = (this.head + 1) % this.capacity;
    }
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/** RFC 3339 with microseconds, UTC: "2026-12-02T07:54:51.123456Z" (the event's `ts` and `id`). */
export function formatLogTime(atUs: number): string {
  const iso = new Date(Math.floor(atUs / 1000)).toISOString();
  return `${iso.slice(0, -1)}${String(atUs % 1000).padStart(3, "0")}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Microseconds since the epoch of an RFC 3339 date-time (any number of fraction digits), or undefined. */
export function parseLogTime(text: string): number | undefined {
  const match = RFC3339.exec(text.trim());
  if (!match) return undefined;
  const [, base = "", fraction = "", zone = "Z"] = match;
  const ms = Date.parse(`${base}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  const micros = fraction === "" ? 0 : Math.floor(Number(`0${fraction}`) * 1_000_000 + 1e-6);
  return ms * 1000 + Math.min(micros, 999_999);
}
