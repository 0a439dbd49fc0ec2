/**
 * The emulator's clock promises that a sleeper never wakes before the service time it asked for.
 * Node's timers run on a loop clock of their own that is cached per turn of the event loop: a timer
 * set after busy work in the same turn counts from a stale start and can fire a real millisecond
 * before Date.now() has moved as far, which at timeScale 0.001 is a whole service second. So these
 * sleepers are started right after synchronous busy work, while other busy work keeps the loop
 * loaded, at several time scales, and each wake-up is checked against the clock itself.
 */
import { describe, expect, it } from "vitest";
import { createClock, type Clock } from "../../emulator/clock";

/** Holds the event loop for `realMs` of wall time (what a loaded worker does between turns). */
function busy(realMs: number): void {
  const until = Date.now() + realMs;
  while (Date.now() < until) {
    // spin
  }
}

interface WakeUp {
  asked: number;
  slept: number;
}

/**
 * Starts `count` sleepers of mixed short and long service durations, each right after a little busy
 * work, while a background loop keeps adding busy turns; resolves with what each asked and got.
 */
async function sleepersUnderLoad(clock: Clock, count: number, longestRealMs: number): Promise<WakeUp[]> {
  let loading = true;
  const load = (): void => {
    if (!loading) return;
    busy(2);
    setImmediate(load);
  };
  setImmediate(load);
  let seed = 11;
  const rnd = (): number => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const sleepers: Promise<WakeUp>[] = [];
  for (let i = 0; i < count; i += 1) {
    busy(rnd() < 0.5 ? 1 : 3);
    // Every third sleeper is a long one; the rest wait under a few real milliseconds, down to none.
    const realMs = i % 3 === 0 ? longestRealMs * (0.5 + rnd() / 2) : rnd() * 3;
    const asked = realMs / clock.timeScale;
    const from = clock.now();
    sleepers.push(clock.sleep(asked).then(() => ({ asked, slept: clock.now() - from })));
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  try {
    return await Promise.all(sleepers);
  } finally {
    loading = false;
  }
}

describe("clock: a sleeper never wakes early", () => {
  for (const timeScale of [0.001, 0.01, 0.1, 1]) {
    it(`at timeScale ${timeScale}, on a loaded event loop, each of many concurrent sleeps lasts at least what it asked`, async () => {
      const clock = createClock(timeScale);
      const wakeUps = await sleepersUnderLoad(clock, 60, 40);
      expect(wakeUps).toHaveLength(60);
      const early = wakeUps.filter((w) => w.slept < w.asked);
      expect(early).toEqual([]);
    });
  }

  it("calls back asynchronously even for a zero wait, and not at all once cancelled", async () => {
    const clock = createClock(0.001);
    const calls: string[] = [];
    clock.after(0, () => calls.push("zero"));
    const cancelled = clock.after(0, () => calls.push("cancelled"));
    cancelled.cancel();
    expect(calls).toEqual([]);
    await clock.sleep(5_000);
    expect(calls).toEqual(["zero"]);
    cancelled.cancel(); // harmless after the fact
  });
});
