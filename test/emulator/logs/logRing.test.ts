// One log of the emulator (emulator/logs/logRing.ts): its bound, its unique increasing timestamps,
// lines written for later, and the RFC 3339 text of a timestamp both ways.
import { describe, expect, it } from "vitest";
import { LOG_LINE_MAX_CHARS, LogRing, formatLogTime, parseLogTime } from "../../../emulator/logs/logRing";

function ringAt(startMs: number, capacity?: number): { ring: LogRing; clock: { ms: number } } {
  const clock = { ms: startMs };
  return { ring: new LogRing(() => clock.ms, capacity), clock };
}

describe("LogRing", () => {
  it("keeps the last `capacity` lines, oldest first", () => {
    const { ring } = ringAt(1_000, 3);
    ring.write("container", "a\nb\nc\nd\n");
    ring.write("system", "e");
    expect(ring.entries().map((e) => `${e.source}:${e.line}`)).toEqual(["container:c", "container:d", "system:e"]);
  });

  it("gives lines of the same millisecond unique, increasing microsecond timestamps", () => {
    const { ring } = ringAt(1_700_000_000_000);
    ring.write("container", "one\ntwo");
    ring.write("container", "three");
    expect(ring.entries().map((e) => e.atUs)).toEqual([1_700_000_000_000_000, 1_700_000_000_000_001, 1_700_000_000_000_002]);
    expect(ring.newestUs).toBe(1_700_000_000_000_002);
  });

  it("cuts a line longer than the bound and says how much", () => {
    const { ring } = ringAt(0);
    ring.write("container", "x".repeat(LOG_LINE_MAX_CHARS + 5));
    const [entry] = ring.entries();
    expect(entry?.line).toBe(`${"x".repeat(LOG_LINE_MAX_CHARS)} [line cut: 5 more characters]`);
  });

  it("shows a scheduled line once its time has come, with its own time; a new schedule replaces it", () => {
    const { ring, clock } = ringAt(1_000);
    ring.schedule([
      { source: "system", line: "later", atMs: 3_000 },
      { source: "system", line: "soon", atMs: 2_000 },
    ]);
    expect(ring.entries()).toEqual([]);
    clock.ms = 2_500;
    expect(ring.entries()).toEqual([{ source: "system", line: "soon", atUs: 2_000_000 }]);
    ring.schedule([]);
    clock.ms = 5_000;
    expect(ring.entries().map((e) => e.line)).toEqual(["soon"]);
    expect(ring.hasPending).toBe(false);
  });

  it("tells its listeners about each write", () => {
    const { ring } = ringAt(0);
    let calls = 0;
    const stop = ring.onWrite(() => calls++);
    ring.write("container", "a\nb");
    stop();
    ring.write("container", "c");
    expect(calls).toBe(1);
  });
});

describe("log timestamps", () => {
  it("are written as RFC 3339 with microseconds and read back exactly, at any precision and offset", () => {
    const us = Date.parse("2026-12-02T07:54:51.123Z") * 1000 + 456;
    expect(formatLogTime(us)).toBe("2026-12-02T07:54:51.123456Z");
    expect(parseLogTime("2026-12-02T07:54:51.123456Z")).toBe(us);
    expect(parseLogTime("2026-12-02T08:54:51.123456+01:00")).toBe(us);
    expect(parseLogTime("2026-12-02T07:54:51Z")).toBe(us - 123_456);
    expect(parseLogTime("2026-12-02T07:54:51.1234569Z")).toBe(us);
    expect(parseLogTime("42")).toBeUndefined();
    expect(parseLogTime("2026-13-45T07:54:51Z")).toBeUndefined();
  });
});
