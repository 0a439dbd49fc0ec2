/**
 * A service slower than its client (emulator/faults: `late`, `lost@D`, `land`): the client gives up
 * or loses the connection, and the create still happens, as the reference warns that a create whose
 * answer could not be read may have succeeded. Real HTTP clients with short deadlines of their own.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { FaultSpecError, parseFaultSpec } from "../../../emulator/faults";
import { GPU_POD, KEY_A, api, sleep, startTestEmulator, waitFor } from "../../support/managementHelpers";
import { V2_GPU_POD, apiV2 } from "../../support/v2Helpers";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(faults: string): Promise<RunningEmulator> {
  emulator = await startTestEmulator({ faults });
  return emulator;
}

interface Outcome {
  status?: number;
  /** Why there was no answer: "timeout" (the client gave up), or the connection's error code. */
  error?: string;
  elapsedMs: number;
}

/** One POST with a client-side deadline (`timeoutMs`, none when undefined), as an impatient client sends it. */
async function post(url: string, body: unknown, timeoutMs?: number): Promise<Outcome> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    });
    await res.text();
    return { status: res.status, elapsedMs: performance.now() - started };
  } catch (error) {
    const name = (error as { name?: string }).name;
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: name === "TimeoutError" ? "timeout" : (cause?.code ?? String(error)), elapsedMs: performance.now() - started };
  }
}

/** The names of account A's pods as the /v1 list shows them. */
async function podNames(emu: RunningEmulator): Promise<string[]> {
  const res = await api(emu, KEY_A).get("/pods");
  expect(res.status).toBe(200);
  return (res.body as { name: string }[]).map((pod) => pod.name);
}

const storedPods = (emu: RunningEmulator) => emu.inspect().flatMap((account) => account.pods.map((pod) => pod.name));

describe("late=P@D: the operation lands at once, its answer comes D later", () => {
  test("a client that gives up gets nothing, and the pod exists all the same", async () => {
    const emu = await start("seed=1; CreatePod: late=1@1500ms");
    const res = await post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "late-one" }, 150);
    expect(res).toMatchObject({ error: "timeout" });
    // Well before D: the create has landed already (it ran when the request arrived).
    expect(await podNames(emu)).toEqual(["late-one"]);
    expect(emu.faultStats().injected.late).toBe(1);
  });

  test("a patient client gets the answer, no sooner than D", async () => {
    const emu = await start("seed=1; createPod: late=1@400ms");
    const res = await post(`${emu.apiUrlV2}/pods`, { ...V2_GPU_POD, name: "late-v2" });
    expect(res.status).toBe(201);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(350);
    expect(storedPods(emu)).toEqual(["late-v2"]);
  });

  test("an answer held when the emulator closes is cut, and close does not wait for it", async () => {
    const emu = await start("seed=1; CreatePod: late=1@20s");
    const pending = post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "held" });
    await waitFor("the create to land", async () => (storedPods(emu).length === 1 ? true : undefined), 10_000);
    const closing = performance.now();
    await emu.close();
    emulator = undefined;
    const res = await pending;
    expect(res.status).toBeUndefined();
    expect(res.error).toBeDefined();
    expect(performance.now() - closing).toBeLessThan(10_000);
  });
});

describe("lost=P@D: the operation lands at once, the connection is cut D later", () => {
  test("a patient client sees the connection cut after D, and the pod exists", async () => {
    const emu = await start("seed=1; CreatePod: lost=1@400ms");
    const res = await post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "lost-late" });
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(350);
    expect(await podNames(emu)).toEqual(["lost-late"]);
    expect(emu.faultStats().injected.lost).toBe(1);
  });

  test("a client that gives up before D gets nothing either; the pod exists", async () => {
    const emu = await start("seed=1; POST /api/v2/pods: lost=1@2s");
    const res = await post(`${emu.apiUrlV2}/pods`, { ...V2_GPU_POD, name: "gave-up" }, 150);
    expect(res).toMatchObject({ error: "timeout" });
    const listed = await apiV2(emu, KEY_A).get("/pods");
    expect((listed.body.pods as { name: string }[]).map((pod) => pod.name)).toEqual(["gave-up"]);
  });

  test("without @D, lost cuts as soon as the operation ran (as before)", async () => {
    const emu = await start("seed=1; CreatePod: lost=1");
    const res = await post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "lost-now" });
    expect(res.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(res.elapsedMs).toBeLessThan(5_000);
    expect(storedPods(emu)).toEqual(["lost-now"]);
  });
});

describe("land=P@D: the operation is applied D after the request arrived", () => {
  test("it does not exist before D; it exists after D although the client gave up", async () => {
    const emu = await start("seed=1; createPod: land=1@800ms");
    const sent = performance.now();
    const res = await post(`${emu.apiUrlV2}/pods`, { ...V2_GPU_POD, name: "landing" }, 100);
    expect(res).toMatchObject({ error: "timeout" });
    const v2 = apiV2(emu, KEY_A);
    // Before D: neither listed nor stored.
    expect((await v2.get("/pods")).body.pods).toEqual([]);
    expect(storedPods(emu)).toEqual([]);
    // The two checks above mean something only if they ran before D.
    expect(performance.now() - sent).toBeLessThan(800);
    const pod = await waitFor("the pod to land", async () => {
      const pods = (await v2.get("/pods")).body.pods as { id: string; name: string }[];
      return pods[0];
    });
    expect(performance.now() - sent).toBeGreaterThanOrEqual(750);
    expect(pod.name).toBe("landing");
    expect((await v2.get(`/pods/${pod.id}`)).status).toBe(200);
    expect(emu.faultStats().injected.land).toBe(1);
  });

  test("a patient client is answered when it lands (v1)", async () => {
    const emu = await start("seed=1; CreatePod: land=1@400ms");
    const res = await post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "landed" });
    expect(res.status).toBe(201);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(350);
    expect(await podNames(emu)).toEqual(["landed"]);
  });

  test("a request that does not fit its schema is refused at once, and nothing lands later", async () => {
    const emu = await start("seed=1; createPod: land=1@300ms");
    const res = await post(`${emu.apiUrlV2}/pods`, { ...V2_GPU_POD, gpu: { id: "NVIDIA GeForce RTX 4090", count: 0 } });
    expect(res.status).toBe(422);
    expect(res.elapsedMs).toBeLessThan(300);
    await sleep(600);
    expect(storedPods(emu)).toEqual([]);
  });

  test("an operation not yet applied when the emulator closes is never applied", async () => {
    const emu = await start("seed=1; CreatePod: land=1@500ms");
    const pending = post(`${emu.apiUrl}/pods`, { ...GPU_POD, name: "never" });
    await waitFor("the request to be drawn", async () => (emu.faultStats().injected.land === 1 ? true : undefined), 10_000);
    await emu.close();
    emulator = undefined;
    expect((await pending).error).toBeDefined();
    await sleep(900);
    expect(storedPods(emu)).toEqual([]);
  });
});

describe("the SPEC of the new kinds", () => {
  test("parses late, lost@D, land and hidden with their durations", () => {
    expect(parseFaultSpec("createPod: late=0.2@40s, lost=0.1@1.5s, land=0.3@500ms, hidden=0.4@2s").rules[0]?.faults).toEqual([
      { kind: "late", probability: 0.2, durationMs: 40_000 },
      { kind: "lost", probability: 0.1, durationMs: 1500 },
      { kind: "land", probability: 0.3, durationMs: 500 },
      { kind: "hidden", probability: 0.4, durationMs: 2000 },
    ]);
  });

  test.each([
    ["*: late=0.5", /late needs @DURATION \(how long the answer is held\), e.g. late=0.5@2s/],
    ["*: land=0.5", /land needs @DURATION/],
    ["CreatePod: hidden=1", /hidden needs @DURATION/],
    ["*: late=0.5@soon", /duration "soon" must be a number with ms or s/],
    ["*: land=0.5@601s", /duration "601s" is above the bound of 600s/],
  ])("rejects %j, saying what is wrong", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test("startEmulator refuses kinds where they cannot apply, and exclusive odds above 1", async () => {
    await expect(startTestEmulator({ faults: "runJob: land=1@1s" })).rejects.toThrow(
      /selector "runJob": land applies to \/v1 and \/api\/v2 operations \(not the job API's\) only, and it matches none/,
    );
    await expect(startTestEmulator({ faults: "ListPods: hidden=1@1s" })).rejects.toThrow(
      /selector "ListPods": hidden applies to creates of \/v1 and \/api\/v2 .* only, and it matches none/,
    );
    await expect(startTestEmulator({ faults: "CreatePod: late=0.6@1s, land=0.6@1s" })).rejects.toThrow(
      /on POST \/v1\/pods \(CreatePod\) the probabilities of late=0.6, land=0.6 add up to 1.200/,
    );
  });
});
