/**
 * Pod faults (emulator/faults/podFaults.ts): `pod: error=P` and `pod NAME: error=P[@D]` in a fault
 * SPEC make boots fail, so that a user's CI can see its pods reach ERROR without a test hook.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { FaultSpecError, formatFaultSpec, parseFaultSpec, toFaultPlan } from "../../../emulator/faults";
import { type Api, api, startTestEmulator } from "../../support/managementHelpers";
import { V2_GPU_POD, apiV2, waitForStatus } from "../../support/v2Helpers";
import type { Json } from "../../support/wireJson";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(faults: string | undefined): Promise<{ emu: RunningEmulator; v2: Api }> {
  // The pods here do not pace their requests: the rate limit is not what they are about.
  emulator = await startTestEmulator({ ...(faults === undefined ? {} : { faults }), bootDelayMs: 2000, rateLimit: { perMinute: 100_000 } });
  return { emu: emulator, v2: apiV2(emulator) };
}

async function createPod(v2: Api, name: string): Promise<Record<string, Json>> {
  const res = await v2.post("/pods", { ...V2_GPU_POD, name });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

describe("the SPEC of pod faults", () => {
  test("parses pod and pod NAME clauses, with an optional duration, and writes them back", () => {
    const plan = parseFaultSpec("seed=3; pod train-*: error=1@30s; pod: error=0.2; *: 503=0.1");
    expect(plan.rules).toEqual([
      { selector: "pod train-*", faults: [{ kind: "error", probability: 1, durationMs: 30_000 }] },
      { selector: "pod", faults: [{ kind: "error", probability: 0.2 }] },
      { selector: "*", faults: [{ kind: "503", probability: 0.1 }] },
    ]);
    expect(formatFaultSpec(plan)).toBe("seed=3; pod train-*: error=1@30s; pod: error=0.2; *: 503=0.1");
  });

  test.each([
    ["*: error=0.1", /error is a pod fault; give it to the selector pod/],
    ["createPod: error=1", /error is a pod fault/],
    ["pod: 500=0.1", /a pod selector takes only error, not 500/],
    ["pod x: latency=1@1s", /a pod selector takes only error/],
    ["pod: error=2", /probability of error must be a number from 0 to 1/],
  ])("refuses %j", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test("a plan object is held to the same rules", () => {
    expect(() => toFaultPlan({ seed: 0, rules: [{ selector: "*", faults: [{ kind: "error", probability: 1 }] }] })).toThrow(
      /error is a pod fault/,
    );
    expect(toFaultPlan({ seed: 0, rules: [{ selector: "pod", faults: [{ kind: "error", probability: 1 }] }] }).rules).toHaveLength(1);
  });
});

describe("pods that fail", () => {
  test("error=1 on a name pattern: those pods end in ERROR, never RUNNING; the others run; the fault is counted", async () => {
    const { emu, v2 } = await start("pod fail-*: error=1");
    const failing = await createPod(v2, "fail-1");
    const healthy = await createPod(v2, "ok-1");
    const failed = await waitForStatus(v2, failing.id, "ERROR");
    expect(failed).toMatchObject({ status: "ERROR", actions: ["start", "terminate"], runtime: null, cost: 0 });
    await waitForStatus(v2, healthy.id, "RUNNING");
    expect(emu.faultStats().injected.error).toBe(1);
    expect(emu.faultStats().byOperation["pod fail-*"]).toEqual({ error: 1 });
    // /v1 sees the pod stopped, as a failed container leaves it.
    expect((await api(emu).get(`/pods/${failing.id}`)).body.desiredStatus).toBe("EXITED");
    // A start boots it again, and that boot draws again (and fails again at probability 1).
    expect((await v2.post(`/pods/${failing.id}/action`, { action: "start" })).status).toBe(200);
    await waitForStatus(v2, failing.id, "ERROR");
    expect(emu.faultStats().injected.error).toBe(2);
  });

  test("error=1@D: the pod runs for D (service time), then fails", async () => {
    // 60 s of service time is 0.6 real seconds at the tests' time scale: long enough to see RUNNING.
    const { emu, v2 } = await start("pod crash: error=1@60s");
    const pod = await createPod(v2, "crash");
    const running = await waitForStatus(v2, pod.id, "RUNNING");
    expect(running.runtime).not.toBeNull();
    await waitForStatus(v2, pod.id, "ERROR");
    // The failure released the pod's billing: it costs nothing while in ERROR.
    expect((await v2.get(`/pods/${pod.id}`)).body.cost).toBe(0);
    expect(emu.faultStats().injected.error).toBe(1);
  });

  test("a pod stopped before its failure does not fail afterwards", async () => {
    const { v2 } = await start("pod: error=1@120s");
    const pod = await createPod(v2, "stopped-early");
    await waitForStatus(v2, pod.id, "RUNNING");
    expect((await v2.post(`/pods/${pod.id}/action`, { action: "stop" })).status).toBe(200);
    // Past the failure's time (120 s of service time after RUNNING), still EXITED.
    await emulator?.clock.sleep(150_000);
    expect((await v2.get(`/pods/${pod.id}`)).body.status).toBe("EXITED");
  });

  test("a probability is drawn per boot from the seed: the same seed fails the same pods", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const failedWith = async (seed: number): Promise<string[]> => {
      const { v2 } = await start(`seed=${seed}; pod: error=0.5`);
      const pods = [];
      for (const name of names) pods.push(await createPod(v2, name));
      await emulator?.clock.sleep(4000);
      const statuses = await Promise.all(pods.map(async (p) => (await v2.get(`/pods/${p.id}`)).body.status as string));
      await emulator?.close();
      emulator = undefined;
      expect(statuses.every((s) => s === "RUNNING" || s === "ERROR")).toBe(true);
      return names.filter((_, i) => statuses[i] === "ERROR");
    };
    const first = await failedWith(11);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(names.length);
    expect(await failedWith(11)).toEqual(first);
  });

  test("setFaults switches pod faults on and off at run time", async () => {
    const { emu, v2 } = await start(undefined);
    emu.setFaults("pod: error=1");
    const failing = await createPod(v2, "after-on");
    await waitForStatus(v2, failing.id, "ERROR");
    emu.setFaults(undefined);
    const healthy = await createPod(v2, "after-off");
    await waitForStatus(v2, healthy.id, "RUNNING");
  });
});
