/**
 * A log as Server-Sent Events, as getPodLogs and getWorkerLogs stream it (management-api-v2-paths
 * .txt): each line one event whose `data` is `{"source", "line", "ts"}` and whose `id` is its `ts`,
 * "so browser/EventSource reconnects can resume with `Last-Event-ID`". First the backfill (`tail`
 * lines, or every line from `since` / after `Last-Event-ID`), written at once, then the lines as they
 * are written, until the client goes away or the log does (its pod or worker deleted).
 */
import type { ServerResponse } from "node:http";
import { formatLogTime, type LogEntry, type LogRing, type LogSource } from "./logRing";

/** Where the stream starts, as the request's parameters say (LogStreamQuery, Last-Event-ID). */
export type LogStart =
  /** The last `lines` lines (0: none), then live. */
  | { tail: number }
  /** Every line at or after this time (`since`). */
  | { fromUs: number }
  /** Every line after this one (`Last-Event-ID`). */
  | { afterUs: number };

export interface LogStreamRequest {
  /** Only this source's lines; undefined: both. */
  source: LogSource | undefined;
  start: LogStart;
}

/** Real ms between two looks at a log for lines whose time has come (a boot's later status lines). */
const DUE_CHECK_MS = 200;
/** Real ms of silence after which a comment keeps idle proxies from closing the stream. */
const KEEP_ALIVE_MS = 15_000;

/** The event of one line. */
export function logEvent(entry: LogEntry): string {
  const ts = formatLogTime(entry.atUs);
  return `id: ${ts}\ndata: ${JSON.stringify({ source: entry.source, line: entry.line, ts })}\n\n`;
}

function backfill(entries: readonly LogEntry[], start: LogStart): readonly LogEntry[] {
  if ("tail" in start) return start.tail === 0 ? [] : entries.slice(-start.tail);
  if ("fromUs" in start) return entries.filter((e) => e.atUs >= start.fromUs);
  return entries.filter((e) => e.atUs > start.afterUs);
}

/**
 * Answers 200 `text/event-stream` with the reference's headers and streams `current()` (undefined
 * once the log is gone, which ends the stream). `headers`: the answer's other headers (rate limit).
 */
export function streamLog(
  res: ServerResponse,
  current: () => LogRing | undefined,
  request: LogStreamRequest,
  headers: Readonly<Record<string, string>>,
): void {
  const log = current();
  res.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  if (!log) {
    res.end();
    return;
  }
  const wanted = (e: LogEntry): boolean => request.source === undefined || e.source === request.source;
  const first = backfill(log.entries().filter(wanted), request.start);
  // Live lines are those written after the backfill was read, whichever lines it showed.
  let seenUs = log.newestUs;
  res.write(first.map(logEvent).join("") || ": no earlier lines\n\n");
  let lastWrite = Date.now();
  let queued = false;
  const send = (): void => {
    queued = false;
    if (res.writableEnded || res.destroyed) return;
    const now = current();
    if (now !== log) {
      stop();
      res.end();
      return;
    }
    const fresh = log.entries().filter((e) => e.atUs > seenUs);
    seenUs = log.newestUs;
    const events = fresh.filter(wanted);
    if (events.length > 0) {
      res.write(events.map(logEvent).join(""));
      lastWrite = Date.now();
    } else if (Date.now() - lastWrite >= KEEP_ALIVE_MS) {
      res.write(": keep-alive\n\n");
      lastWrite = Date.now();
    }
  };
  // Writes that come together are sent together, on the next turn.
  const unsubscribe = log.onWrite(() => {
    if (queued) return;
    queued = true;
    setImmediate(send);
  });
  const timer = setInterval(send, DUE_CHECK_MS);
  timer.unref();
  const stop = (): void => {
    clearInterval(timer);
    unsubscribe();
  };
  res.on("close", stop);
}
