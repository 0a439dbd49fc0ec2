// What a process learned of the rate-limit windows, kept for the next (client/rateLimitMemory.ts),
// and a new gate starting from it (client/rateLimitGate.ts): a window the previous process left
// spent holds the new process's first request until its reset, instead of that request being
// refused; a stale or unreadable record is ignored; writes are atomic, throttled, urgent when a
// window becomes spent, and never carry the key.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitGate, sharedGate, type GateTicket } from "../../client/rateLimitGate";
import { CACHE_DIR_ENV, FORGET_AFTER_MS, SAVE_INTERVAL_MS, WindowMemory, cacheDir } from "../../client/rateLimitMemory";
import type { RateLimitWindow } from "../../client/retry";

const minute = (remaining: number, resetSeconds: number, quota = 10): RateLimitWindow => ({
  name: "minute",
  remaining,
  resetSeconds,
  quota,
});
const T0 = 1_700_000_000_000;

function go(gate: RateLimitGate, now: number): GateTicket {
  const decision = gate.take(now);
  if (!decision.go) throw new Error(`expected to go at ${now}, told to wait ${decision.waitMs} ms`);
  return decision.ticket;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rate-limit-memory-"));
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

const recordOf = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8")) as { windows: unknown[] };

describe("a gate that starts from the previous process's record", () => {
  it("holds the first request until the reset of a window the previous process left spent, then sends one at a time", () => {
    const previous = new RateLimitGate(new WindowMemory("acct", dir), T0);
    const last = go(previous, T0);
    previous.settle(last, T0 + 100, [minute(0, 20)]); // spent, resets by T0 + 20.1 s

    const next = new RateLimitGate(new WindowMemory("acct", dir), T0 + 5_000);
    expect(next.take(T0 + 5_000)).toMatchObject({ go: false, waitMs: 15_100, untilAnswer: false, window: { name: "minute", quota: 10 } });
    const first = go(next, T0 + 20_100);
    // Past the reset the quota is back, but what the record said may be out of date: one goes until an answer.
    expect(next.take(T0 + 20_100)).toMatchObject({ go: false, untilAnswer: true });
    next.settle(first, T0 + 20_200, [minute(9, 60)]);
    expect(next.take(T0 + 20_200).go).toBe(true);
  });

  it("two processes of one operation: a later write of an older view does not reopen a window the other left spent", () => {
    const provider = new RateLimitGate(new WindowMemory("acct", dir), T0);
    const program = new RateLimitGate(new WindowMemory("acct", dir), T0);
    const fromProgram = go(program, T0);
    provider.settle(go(provider, T0), T0 + 100, [minute(0, 20)]); // spent: written at once
    program.settle(fromProgram, T0 + 200, [minute(5, 20)]); // its own, older view: written after
    expect(recordOf("acct").windows).toEqual([expect.objectContaining({ name: "minute", remaining: 0 })]);
    const next = new RateLimitGate(new WindowMemory("acct", dir), T0 + 1_000);
    expect(next.take(T0 + 1_000)).toMatchObject({ go: false, untilAnswer: false, window: { name: "minute" } });
  });

  it("a process's own later view replaces what it wrote before (a count given back reaches the record)", () => {
    const memory = new WindowMemory("acct", dir);
    const at = (remaining: number) => [{ name: "minute", quota: 10, remaining, resetAtMs: T0 + 60_000 }];
    memory.save(at(0), T0);
    memory.save(at(1), T0 + 2 * SAVE_INTERVAL_MS);
    expect(recordOf("acct").windows).toEqual(at(1));
  });

  it("lets the first request go at once when the record leaves quota, and still waits for its answer before the next", () => {
    const previous = new RateLimitGate(new WindowMemory("acct", dir), T0);
    previous.settle(go(previous, T0), T0 + 100, [minute(4, 30)]);
    const next = new RateLimitGate(new WindowMemory("acct", dir), T0 + 1_000);
    go(next, T0 + 1_000);
    expect(next.take(T0 + 1_000)).toMatchObject({ go: false, untilAnswer: true });
  });

  it("ignores a record past its reset, and one it cannot read", () => {
    const previous = new RateLimitGate(new WindowMemory("acct", dir), T0);
    previous.settle(go(previous, T0), T0 + 100, [minute(0, 10)]);
    expect(new RateLimitGate(new WindowMemory("acct", dir), T0 + 10_100).take(T0 + 10_100).go).toBe(true);
    for (const garbage of ["", "{", '{"version":1,"windows":[{"name":"minute"}]}', '{"version":2,"windows":[]}', "null"]) {
      fs.writeFileSync(path.join(dir, "acct.json"), garbage);
      expect(new WindowMemory("acct", dir).load(T0)).toEqual([]);
      expect(new RateLimitGate(new WindowMemory("acct", dir), T0).take(T0).go).toBe(true);
    }
    expect(new WindowMemory("nothing-here", path.join(dir, "missing")).load(T0)).toEqual([]);
  });
});

describe("the record's writes", () => {
  it("write at once when a window becomes spent, otherwise at most once per interval (the last state last)", () => {
    vi.useFakeTimers();
    const memory = new WindowMemory("acct", dir);
    const at = (remaining: number) => [{ name: "minute", quota: 10, remaining, resetAtMs: T0 + 60_000 }];
    memory.save(at(5), T0);
    expect(recordOf("acct").windows).toEqual(at(5));
    memory.save(at(4), T0 + 10);
    memory.save(at(3), T0 + 20);
    expect(recordOf("acct").windows).toEqual(at(5));
    memory.save(at(0), T0 + 30); // spent: the next process must know
    expect(recordOf("acct").windows).toEqual(at(0));
    memory.save(at(-1), T0 + 40); // still spent, same window: throttled
    expect(recordOf("acct").windows).toEqual(at(0));
    vi.advanceTimersByTime(SAVE_INTERVAL_MS);
    expect(recordOf("acct").windows).toEqual(at(-1));
    expect(fs.readdirSync(dir)).toEqual(["acct.json"]); // renamed into place: no temporary file left
  });

  it("leave a directory removed meanwhile alone: a write that was waiting does not make it again", () => {
    vi.useFakeTimers();
    const gone = path.join(dir, "removed");
    const memory = new WindowMemory("acct", gone);
    const at = (remaining: number) => [{ name: "minute", quota: 10, remaining, resetAtMs: T0 + 60_000 }];
    memory.save(at(5), T0);
    memory.save(at(4), T0 + 10);
    fs.rmSync(gone, { recursive: true, force: true });
    vi.advanceTimersByTime(SAVE_INTERVAL_MS);
    expect(fs.existsSync(gone)).toBe(false);
  });

  it("are named by a hash of the base URL and the key, and hold neither", () => {
    const clock = Date.now;
    const saved = process.env[CACHE_DIR_ENV];
    process.env[CACHE_DIR_ENV] = dir;
    try {
      const gate = sharedGate(clock, "http://127.0.0.1:9/api/v2", "sk-very-secret-key");
      gate.settle(go(gate, clock()), clock(), [minute(0, 30)]);
      const [file] = fs.readdirSync(path.join(dir, "rate-limits"));
      expect(file).toMatch(/^[0-9a-f]{32}\.json$/);
      const text = fs.readFileSync(path.join(dir, "rate-limits", file ?? ""), "utf8");
      expect(text).not.toContain("sk-very-secret-key");
      expect(text).not.toContain("127.0.0.1");
      // Another key at the same URL is another account: another record.
      expect(sharedGate(clock, "http://127.0.0.1:9/api/v2", "sk-other-key").take(clock()).go).toBe(true);
      expect(sharedGate(clock, "http://127.0.0.1:9/api/v2", "sk-very-secret-key")).toBe(gate);
      // Another API on the same host (the job API beside the management API) does not spend its quota.
      expect(sharedGate(clock, "http://127.0.0.1:9/v2", "sk-very-secret-key").take(clock()).go).toBe(true);
    } finally {
      if (saved === undefined) delete process.env[CACHE_DIR_ENV];
      else process.env[CACHE_DIR_ENV] = saved;
    }
  });

  it("remove records nobody wrote for longer than the longest window", () => {
    const old = path.join(dir, "old.json");
    fs.writeFileSync(old, "{}");
    const longAgo = new Date(Date.now() - FORGET_AFTER_MS - 60_000);
    fs.utimesSync(old, longAgo, longAgo);
    fs.writeFileSync(path.join(dir, "recent.json"), "{}");
    new WindowMemory("acct", dir).save([{ name: "minute", quota: 10, remaining: 0, resetAtMs: Date.now() + 60_000 }], Date.now());
    expect(fs.readdirSync(dir).sort()).toEqual(["acct.json", "recent.json"]);
  });
});

describe("the cache directory", () => {
  it("is GPUCLOUD_CACHE_DIR when set, else the platform's per-user cache", () => {
    expect(cacheDir({ [CACHE_DIR_ENV]: "/somewhere" }, "linux", "/home/u")).toBe("/somewhere");
    expect(cacheDir({}, "linux", "/home/u")).toBe(path.join("/home/u", ".cache", "pulumi-gpucloud"));
    expect(cacheDir({ XDG_CACHE_HOME: "/xdg" }, "linux", "/home/u")).toBe(path.join("/xdg", "pulumi-gpucloud"));
    expect(cacheDir({}, "darwin", "/Users/u")).toBe(path.join("/Users/u", "Library", "Caches", "pulumi-gpucloud"));
    expect(cacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u")).toBe(
      path.join("C:\\Users\\u\\AppData\\Local", "pulumi-gpucloud", "Cache"),
    );
  });
});
