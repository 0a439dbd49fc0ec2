// Pure pieces of the job side: the scheduler heap, the scaling rule, stream splitting.
import { describe, expect, it } from "vitest";
import { createClock } from "../../../emulator/clock";
import { desiredWorkers, type ScaleInput } from "../../../emulator/serverless/scaler";
import { Scheduler, Task } from "../../../emulator/serverless/scheduler";
import { splitOutput } from "../../../emulator/serverless/streamChunks";
import { spec } from "../../support/jobsHarness";

describe("Scheduler", () => {
  it("fires in deadline order, honours moves and clears, from one timer", async () => {
    const clock = createClock(0.001);
    const s = new Scheduler(clock);
    const fired: number[] = [];
    const tasks = Array.from({ length: 200 }, (_, i) => new Task(() => fired.push(i)));
    // Random deadlines, then move some and clear others.
    const at = new Map<number, number>();
    let seed = 7;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    tasks.forEach((t, i) => {
      const d = clock.now() + 1000 + Math.floor(rnd() * 20_000);
      at.set(i, d);
      s.set(t, d);
    });
    for (let i = 0; i < 200; i += 3) {
      const d = clock.now() + 1000 + Math.floor(rnd() * 20_000);
      at.set(i, d);
      s.set(tasks[i]!, d);
    }
    for (let i = 1; i < 200; i += 5) {
      s.clear(tasks[i]!);
      at.delete(i);
    }
    expect(s.size).toBe(at.size);
    await new Promise((r) => setTimeout(r, 60));
    const expected = [...at.entries()].sort((a, b) => a[1] - b[1] || 0).map(([i]) => i);
    expect(fired.length).toBe(expected.length);
    // Same deadlines may fire in any order; compare the deadline sequence.
    expect(fired.map((i) => at.get(i))).toEqual(expected.map((i) => at.get(i)));
    s.close();
  });
});

describe("desiredWorkers", () => {
  const base = (over: Partial<ScaleInput>): ScaleInput => ({
    spec: spec({ workersMin: 0, workersMax: 5, scalerType: "REQUEST_COUNT", scalerValue: 2 }),
    now: 100_000,
    live: 0,
    idle: 0,
    initializing: 0,
    running: 0,
    queued: 0,
    oldestQueued: undefined,
    ...over,
  });

  it("REQUEST_COUNT: ceil((queued + running) / scalerValue) within [min, max]", () => {
    expect(desiredWorkers(base({ queued: 3, running: 2 })).want).toBe(3);
    expect(desiredWorkers(base({ queued: 30 })).want).toBe(5);
    expect(desiredWorkers(base({ spec: spec({ workersMin: 2, workersMax: 5, scalerType: "REQUEST_COUNT", scalerValue: 2 }) })).want).toBe(
      2,
    );
  });

  it("QUEUE_DELAY: one worker at once from zero, more only for jobs waiting past the delay", () => {
    const s = spec({ workersMin: 0, workersMax: 5, scalerType: "QUEUE_DELAY", scalerValue: 4 });
    const job = (enqueuedAt: number, next?: object) => ({ enqueuedAt, next }) as never;
    const fresh = job(99_000);
    expect(desiredWorkers(base({ spec: s, queued: 1, oldestQueued: fresh })).want).toBe(1);
    const d = desiredWorkers(base({ spec: s, live: 1, running: 1, queued: 1, oldestQueued: fresh }));
    expect(d.want).toBe(1);
    expect(d.recheckAt).toBe(103_000);
    const overdue = job(90_000, job(91_000, job(99_500)));
    expect(desiredWorkers(base({ spec: s, live: 1, running: 1, queued: 3, oldestQueued: overdue })).want).toBe(3);
    // A booting worker will take one of them.
    expect(desiredWorkers(base({ spec: s, live: 2, running: 1, initializing: 1, queued: 3, oldestQueued: overdue })).want).toBe(3);
  });
});

describe("splitOutput", () => {
  it("keeps small outputs whole and cuts large ones into pieces within the byte limit", () => {
    expect(splitOutput({ a: 1 }, 100)).toEqual([{ a: 1 }]);
    const s = "é".repeat(300); // 600 bytes
    const parts = splitOutput(s, 100) as string[];
    expect(parts.join("")).toBe(s);
    expect(parts.every((p) => Buffer.byteLength(p) <= 100)).toBe(true);
    const obj = { text: "z".repeat(500) };
    const objParts = splitOutput(obj, 100) as string[];
    expect(JSON.parse(objParts.join(""))).toEqual(obj);
  });
});
