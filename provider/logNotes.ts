// What a failure message says of the log concerned: when a smoke test or a rollout case fails, or a
// pod does not become ready, the error ends with the last lines of the worker's or pod's log and
// how to read more. A log that cannot be read never hides the failure: the note then says why it
// could not be read, and the original message stands first. The v1 API has no logs: nothing is
// added there.

import type { LogTarget, RecentLog } from "../client/logs";

/** Reads the last lines of a log; undefined where the API has no logs (v1). */
export type LogNoteReader = (target: LogTarget) => Promise<RecentLog | undefined>;

/** The reader the provider uses: the connection in force, loaded on first use (model/logs/failureLogs.ts). */
export const defaultLogNoteReader: LogNoteReader = async (target) => (await import("../model/logs/failureLogs")).readFailureLog(target);

function describe(target: LogTarget): string {
  return "podId" in target ? `pod ${target.podId}` : `worker ${target.workerId} of endpoint ${target.endpointId}`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `  08:00:01 [container] loading weights` */
function shown(line: RecentLog["lines"][number]): string {
  const time = /T(\d{2}:\d{2}:\d{2})/.exec(line.ts)?.[1];
  return `  ${time === undefined ? "" : `${time} `}[${line.source}] ${line.line}`;
}

/**
 * The note on one log, or "" where there is nothing to say (no reader, or an API without logs).
 * Lines are already redacted by the reader (client/logs.ts).
 */
export async function logNote(read: LogNoteReader | undefined, target: LogTarget): Promise<string> {
  if (read === undefined) return "";
  let log: RecentLog | undefined;
  try {
    log = await read(target);
  } catch (error) {
    return `(the log of ${describe(target)} could not be read: ${message(error)})`;
  }
  if (log === undefined) return "";
  const more = `read more: GET ${log.url}?tail=1000 (Server-Sent Events, the API key as a bearer token; see docs/logs.md)`;
  if (log.lines.length === 0) return `the log of ${describe(target)} has no lines yet; ${more}`;
  const dropped = log.droppedLines > 0 ? `, ${log.droppedLines} longer earlier one(s) left out` : "";
  return [`last ${log.lines.length} line(s) of the log of ${describe(target)}${dropped}:`, ...log.lines.map(shown), more].join("\n");
}

/** `message` followed by the notes on each target's log, read side by side. */
export async function withLogNotes(message: string, read: LogNoteReader | undefined, targets: readonly LogTarget[]): Promise<string> {
  const notes = (await Promise.all(targets.map((target) => logNote(read, target)))).filter((note) => note !== "");
  return notes.length === 0 ? message : [message, ...notes].join("\n");
}
