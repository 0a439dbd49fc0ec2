import { describe, expect, it } from "vitest";
import { ReadinessTimeoutError, waitFor } from "../../../provider/resources/waitFor";
import { recordingDeps } from "./fakes";

describe("waitFor", () => {
  it("polls with a growing, capped interval and reports state changes", async () => {
    const sleeps: number[] = [];
    let clock = 0;
    const deps = recordingDeps({}, { now: () => clock, sleep: async (ms) => void (sleeps.push(ms), (clock += ms)) });
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
    expect(sleeps).toEqual([10, 20, 40, 50, 50]);
    expect(deps.lines.info).toEqual([
      "pod x: waiting until ready (booting; 0s of 60s)",
      "pod x: waiting until ready (no ip; 0.1s of 60s)",
      "pod x is ready after 0.2s",
    ]);
  });

  it("stops at the deadline with the last state, never sleeping past it", async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const deps = recordingDeps({}, { now: () => clock, sleep: async (ms) => void (sleeps.push(ms), (clock += ms)) });
    const error = await waitFor(deps, { subject: "pod x", goal: "ready", timeoutSeconds: 0.1, poll: async () => "booting", pending: (s) => s }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    expect((error as ReadinessTimeoutError).last).toBe("booting");
    expect((error as Error).message).toContain("pod x is not ready after 0.1s (readyTimeoutSeconds: 0.1); last state: booting");
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("a fatal state ends the wait at once; timeout 0 reads once without waiting", async () => {
    const deps = recordingDeps();
    await expect(waitFor(deps, { subject: "pod x", goal: "RUNNING", timeoutSeconds: 60, poll: async () => "TERMINATED", pending: (s) => s, fatal: (s) => (s === "TERMINATED" ? "the service terminated it" : undefined) })).rejects.toThrow(
      "pod x cannot become RUNNING: the service terminated it",
    );
    expect(await waitFor(deps, { subject: "pod x", goal: "ready", timeoutSeconds: 0, poll: async () => "booting", pending: (s) => s })).toBe("booting");
  });
});
