import { describe, expect, it } from "vitest";
import { ReadinessTimeoutError, waitFor } from "../../../provider/resources/waitFor";
import { recordingDeps } from "../../support/recordingDeps";

describe("waitFor", () => {
  it("polls with a growing, capped interval and reports state changes", async () => {
    const sleeps: number[] = [];
    let clock = 0;
    const deps = recordingDeps(
      {},
      {
        now: () => clock,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
        poll: { initialMs: 10, maxMs: 40, factor: 2, progressEveryMs: 1_000 },
      },
    );
    const states = ["booting", "booting", "booting", "no ip", "no ip", "ready"];
    let polls = 0;
    const value = await waitFor(deps, {
      subject: "pod x",
      goal: "ready",
      timeoutSeconds: 60,
      poll: async () => states[polls++] ?? "ready",
      pending: (s) => (s === "ready" ? undefined : s),
    });
    expect(value).toBe("ready");
    // Polls at 0, 10, 20, 40, 80 and 120: each on the next multiple of its interval (10, 20, 40, 40, 40).
    expect(sleeps).toEqual([10, 10, 20, 40, 40]);
    expect(deps.lines.info).toEqual([
      "pod x: waiting until ready (booting; 0s of 60s)",
      "pod x: waiting until ready (no ip; 0s of 60s)",
      "pod x is ready after 0.1s",
    ]);
  });

  it("puts the polls of waits that started apart on the same beat, so one list call can serve them", async () => {
    const pollTimes = async (start: number): Promise<number[]> => {
      let clock = start;
      const times: number[] = [];
      const deps = recordingDeps(
        {},
        {
          now: () => clock,
          sleep: async (ms) => {
            clock += ms;
          },
          poll: { initialMs: 1_000, maxMs: 8_000, factor: 2, progressEveryMs: 60_000 },
        },
      );
      await waitFor(deps, {
        subject: "pod x",
        goal: "ready",
        timeoutSeconds: 60,
        poll: async () => {
          times.push(clock);
          return times.length < 6 ? "booting" : "ready";
        },
        pending: (s) => (s === "ready" ? undefined : s),
      });
      return times;
    };
    expect(await pollTimes(0)).toEqual([0, 1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(await pollTimes(300)).toEqual([300, 1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(await pollTimes(2_500)).toEqual([2_500, 3_000, 4_000, 8_000, 16_000, 24_000]);
  });

  it("stops at the deadline with the last state, never sleeping past it", async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const deps = recordingDeps(
      {},
      {
        now: () => clock,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
      },
    );
    const error = await waitFor(deps, {
      subject: "pod x",
      goal: "ready",
      timeoutSeconds: 0.1,
      poll: async () => "booting",
      pending: (s) => s,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    expect((error as ReadinessTimeoutError).last).toBe("booting");
    expect((error as Error).message).toContain("pod x is not ready after 0.1s (readyTimeoutSeconds: 0.1); last state: booting");
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("a fatal state ends the wait at once; timeout 0 reads once without waiting", async () => {
    const deps = recordingDeps();
    await expect(
      waitFor(deps, {
        subject: "pod x",
        goal: "RUNNING",
        timeoutSeconds: 60,
        poll: async () => "TERMINATED",
        pending: (s) => s,
        fatal: (s) => (s === "TERMINATED" ? "the service terminated it" : undefined),
      }),
    ).rejects.toThrow("pod x cannot become RUNNING: the service terminated it");
    expect(
      await waitFor(deps, { subject: "pod x", goal: "ready", timeoutSeconds: 0, poll: async () => "booting", pending: (s) => s }),
    ).toBe("booting");
  });
});
