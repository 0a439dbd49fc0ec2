// What a failure message says of the log concerned (provider/logNotes.ts): the last lines with
// their time and source, how to read more, nothing on an API without logs, and a log that cannot be
// read never hiding the failure.
import { describe, expect, it } from "vitest";
import type { LogTarget, RecentLog } from "../../client/logs";
import { type LogNoteReader, logNote, withLogNotes } from "../../provider/logNotes";

function log(lines: string[], extra: Partial<RecentLog> = {}): RecentLog {
  return {
    lines: lines.map((line, i) => ({ source: "container", line, ts: `2026-12-02T08:00:0${i}.000000Z` })),
    droppedLines: 0,
    ended: "quiet",
    path: "/serverless/ep/workers/w1/logs",
    url: "http://127.0.0.1:8787/api/v2/serverless/ep/workers/w1/logs",
    ...extra,
  };
}

const worker: LogTarget = { endpointId: "ep", workerId: "w1" };

describe("logNote", () => {
  it("shows each line with its time and source, then how to read more", async () => {
    const read: LogNoteReader = async () => log(["loading weights", "CUDA error: out of memory"]);
    expect(await logNote(read, worker)).toBe(
      [
        "last 2 line(s) of the log of worker w1 of endpoint ep:",
        "  08:00:00 [container] loading weights",
        "  08:00:01 [container] CUDA error: out of memory",
        "read more: GET http://127.0.0.1:8787/api/v2/serverless/ep/workers/w1/logs?tail=1000 (Server-Sent Events, the API key as a bearer token; see docs/logs.md)",
      ].join("\n"),
    );
  });

  it("says when lines were left out, and when the log is empty", async () => {
    expect(await logNote(async () => log(["x"], { droppedLines: 3 }), { podId: "p1" })).toMatch(
      /^last 1 line\(s\) of the log of pod p1, 3 longer earlier one\(s\) left out:\n/,
    );
    expect(await logNote(async () => log([]), { podId: "p1" })).toMatch(/^the log of pod p1 has no lines yet; read more: GET /);
  });

  it("says nothing without a reader or on an API without logs (v1)", async () => {
    expect(await logNote(undefined, worker)).toBe("");
    expect(await logNote(async () => undefined, worker)).toBe("");
  });

  it("a log that cannot be read is one line saying why, after the failure it explains", async () => {
    const read: LogNoteReader = async () => {
      throw new Error("getWorkerLogs GET /api/v2/serverless/ep/workers/w1/logs: 404 worker not found");
    };
    expect(await withLogNotes("smoke tests failed", read, [worker])).toBe(
      "smoke tests failed\n(the log of worker w1 of endpoint ep could not be read: getWorkerLogs GET /api/v2/serverless/ep/workers/w1/logs: 404 worker not found)",
    );
    expect(await withLogNotes("smoke tests failed", async () => undefined, [worker])).toBe("smoke tests failed");
  });
});
