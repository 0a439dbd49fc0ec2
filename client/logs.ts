// Recent lines of a pod's or a serverless worker's log, read from the management API v2's log
// streams (getPodLogs `GET /pods/{id}/logs`, getWorkerLogs `GET /serverless/{id}/workers/{workerId}/logs`):
// Server-Sent Events whose `data` is `{"source", "line", "ts"}`. A stream never ends by itself: it
// sends the last `tail` lines, then lines as they come. So a read here is bounded three ways: a line
// count (asked of the service as `tail`), a byte budget, and a deadline; and it stops early once the
// stream has been quiet for a moment (the backfill came, nothing new since). Every line passes
// through redaction before it is returned: a worker's output may print its environment.

import type { Integer } from "./integer";
import { z } from "zod";
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";
import { redactLogLine } from "./redact";
import { readServerSentEvents, type ServerSentEvent } from "./serverSentEvents";
import { pathOf, requireId, type Transport } from "./transport";

/** LogSource: `container` (the container's stdout and stderr) or `system` (the host's lifecycle lines). */
export type LogSource = "container" | "system";

/** One line of a log, as the service streams it. */
export interface LogLine {
  /** "container" or "system" (another value the service may add is kept as sent). */
  source: string;
  /** The line, secrets redacted. */
  line: string;
  /** When it was written (RFC 3339), the event's id: give it as `since` to read on from there. */
  ts: string;
}

/** Whose log: a pod's, or a serverless endpoint's worker's. */
export type LogTarget = { podId: string } | { endpointId: string; workerId: string };

/** The service's largest `tail`. */
export const LOG_TAIL_MAX = 5000;
export const DEFAULT_LOG_LINES = 20;
export const DEFAULT_LOG_BYTES = 16_384;
export const DEFAULT_LOG_TIMEOUT_MS = 10_000;
export const DEFAULT_LOG_QUIET_MS = 1_000;

export interface RecentLogOptions {
  /** The most lines to return, newest last; 1..5000, default 20. Sent as the stream's `tail`. */
  lines?: number | undefined;
  /** The most bytes of line text (UTF-8) to keep, default 16,384: past it the oldest lines are dropped. */
  maxBytes?: number | undefined;
  /** Milliseconds the whole read may take, connection included; default 10,000. */
  timeoutMs?: number | undefined;
  /**
   * Milliseconds without a new line after which the read ends, default 1,000: the service sends
   * the backfill at once, and a log with fewer lines than asked sends nothing more until the
   * workload writes again.
   */
  quietMs?: number | undefined;
  /** Only this source's lines; default both. */
  source?: LogSource | undefined;
  /** Strings no returned line may carry, besides the API key (an account secret's value, say). */
  redact?: readonly string[] | undefined;
}

/** Why a read ended. */
export type LogReadEnd = "lines" | "quiet" | "deadline" | "closed";

export interface RecentLog {
  lines: LogLine[];
  /** Lines the byte budget dropped (the oldest ones). */
  droppedLines: Integer;
  /** "lines": as many as asked; "quiet": no more came; "deadline": timeoutMs passed; "closed": the service ended the stream. */
  ended: LogReadEnd;
  /** The stream's path below the management API's base URL, e.g. "/pods/abc/logs". */
  path: string;
  /** The stream's full URL (no credentials), for a user who wants to read more. */
  url: string;
}

/** An option out of its range: refused before anything is sent. */
export class LogReadOptionsError extends GpuCloudError {}
nameErrorClass(LogReadOptionsError, "LogReadOptionsError");

const LogEventSchema = z.object({ source: z.string(), line: z.string(), ts: z.string() });

/** The stream's path and operation for a target, ids checked. */
export function logStreamOf(target: LogTarget): { path: string; operation: "getPodLogs" | "getWorkerLogs" } {
  if ("podId" in target) return { path: pathOf("pods", requireId("getPodLogs", target.podId), "logs"), operation: "getPodLogs" };
  const endpointId = requireId("getWorkerLogs", target.endpointId);
  const workerId = requireId("getWorkerLogs", target.workerId);
  return { path: pathOf("serverless", endpointId, "workers", workerId, "logs"), operation: "getWorkerLogs" };
}

function positive(name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new LogReadOptionsError(`log read: ${name} must be a whole number from 1 to ${max} (got ${String(value)})`);
  }
  return value;
}

/** The line an event carries; an event that is not the documented shape is kept whole as a line of source "unknown". */
function lineOf(event: ServerSentEvent): LogLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    parsed = undefined;
  }
  const fits = LogEventSchema.safeParse(parsed);
  return fits.success ? fits.data : { source: "unknown", line: event.data, ts: event.id ?? "" };
}

const TIMED_OUT = Symbol("timed out");

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The last lines of a pod's or worker's log (v2 management API only). Failures of the request
 * itself are the transport's typed errors (a 404 for an unknown pod or worker is a NotFoundError).
 */
export async function readRecentLog(transport: Transport, target: LogTarget, options: RecentLogOptions = {}): Promise<RecentLog> {
  const wanted = positive("lines", options.lines, DEFAULT_LOG_LINES, LOG_TAIL_MAX);
  const maxBytes = positive("maxBytes", options.maxBytes, DEFAULT_LOG_BYTES);
  const timeoutMs = positive("timeoutMs", options.timeoutMs, DEFAULT_LOG_TIMEOUT_MS);
  const quietMs = positive("quietMs", options.quietMs, DEFAULT_LOG_QUIET_MS);
  const { path, operation } = logStreamOf(target);
  const deadline = Date.now() + timeoutMs;
  const query = { tail: wanted, ...(options.source === undefined ? {} : { source: options.source }) };
  const response = await transport.requestStream({ method: "GET", path, query, operation, timeoutMs, deadlineMs: deadline });
  const events = readServerSentEvents(response.body)[Symbol.asyncIterator]();
  const lines: LogLine[] = [];
  let bytes = 0;
  let droppedLines = 0;
  let ended: LogReadEnd;
  let pending: Promise<IteratorResult<ServerSentEvent>> | undefined;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        ended = "deadline";
        break;
      }
      pending = events.next();
      const next = await within(pending, Math.min(quietMs, left));
      if (next === TIMED_OUT) {
        ended = Date.now() >= deadline ? "deadline" : "quiet";
        break;
      }
      pending = undefined;
      if (next.done) {
        ended = "closed";
        break;
      }
      const line = lineOf(next.value);
      line.line = redactLogLine(transport.redact(line.line, options.redact ?? []));
      lines.push(line);
      bytes += Buffer.byteLength(line.line, "utf8");
      while (bytes > maxBytes && lines.length > 0) {
        bytes -= Buffer.byteLength((lines.shift() as LogLine).line, "utf8");
        droppedLines++;
      }
      if (lines.length + droppedLines >= wanted) {
        ended = "lines";
        break;
      }
    }
  } finally {
    // The stream never ends by itself: close its connection. A read still waiting then settles
    // with the closed body's error, which nobody awaits any more.
    pending?.catch(() => undefined);
    (response.body as Partial<{ destroy(): void }>).destroy?.();
  }
  return { lines, droppedLines, ended, path, url: `${transport.baseUrl}${path}` };
}
