/**
 * The quickstart stack through the real engine while the emulator injects faults (main-suite part;
 * the 20-run soak is test/soak/). Seeded runs converge or fail with a clear error, a second up
 * converges, nothing is orphaned or created twice (creates are counted per name in the emulator),
 * faults that never clear end in clear errors, and no credential reaches the raw state files, the
 * engine's output or any error message.
 */
import type { FaultKind, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { QUICKSTART_REGISTRY_PASSWORD, quickstartNames, quickstartProgram } from "../support/quickstart";
import {
  CreateCounter,
  type CycleReport,
  Diagnostics,
  everythingLive,
  faultedCycle,
  findSecrets,
  liveByName,
  oncePerName,
  rawBackendFiles,
  summarize,
  unclearErrors,
} from "../support/reliability";

const API_KEY = "reliability-main-api-key-4d1f9b27c08e";
/** Seeds of the main-suite runs (the soak runs 20 others). */
const SEEDS = [101, 202, 303];

describe("quickstart stack under injected faults (real engine)", { timeout: 600_000 }, () => {
  const names = quickstartNames("rel");
  const counter = new CreateCounter();
  const collected: string[] = [];
  const reports: CycleReport[] = [];
  let emulator: RunningEmulator;
  let engine: EngineStack;
  /** Set by the redaction test: the key echoed by the service in an error body. */
  let echoKey = false;

  beforeAll(async () => {
    emulator = await startEmulator({
      timeScale: 0.01,
      apiKeys: [API_KEY],
      onReply: counter.onReply,
      // A service (or proxy) that echoes the caller's key in an error: the transport must redact it.
      routeInterceptor: ({ operationId, req, res }) => {
        if (!echoKey || operationId !== "CreateNetworkVolume") return false;
        const key = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
        req.resume();
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: `key ${key} has no quota for network volumes in EU-RO-1`, status: 400 }));
        return true;
      },
    });
    engine = await createEngineStack({
      projectName: "reliability",
      program: async () => quickstartProgram(names),
      config: {
        "gpucloud:apiUrl": { value: emulator.apiUrl },
        "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
        "gpucloud:apiKey": { value: API_KEY, secret: true },
        // The recovery lines these tests read are progress detail, printed with gpucloud:verbose.
        "gpucloud:verbose": { value: "true" },
        // A create without an answer is looked for 3 s (not 2 min) before it is recorded as pending.
        "gpucloud:createTimeoutSeconds": { value: "3" },
      },
    });
  });

  afterAll(async () => {
    if (reports.length > 0) console.log(`[reliability main] ${JSON.stringify(summarize(reports))}`);
    await engine?.dispose();
    await emulator?.close();
  });

  it(`${SEEDS.length} seeded runs (up, up, destroy): converge or fail clearly; no orphans, no duplicates`, async () => {
    for (const seed of SEEDS) {
      const report = await faultedCycle({ emulator, engine, names, counter, collected }, seed);
      reports.push(report);
      console.log(`[reliability main] seed ${seed}: ${JSON.stringify({ ...report, creates: undefined })}`);
    }
    const figures = summarize(reports);
    expect(figures["runs"]).toBe(SEEDS.length);
    expect(figures["duplicates"]).toBe(0);
    // The runs did meet faults (else they prove nothing), and the provider retried through them.
    expect(figures["faultsTotal"] as number).toBeGreaterThan(0);
    expect(
      reports.reduce((a, r) => a + r.retries, 0) +
        reports.reduce((a, r) => a + r.adoptedAfterLostAnswer + r.recordedPendingAfterNoAnswer, 0),
    ).toBeGreaterThan(0);
  });

  // Faults that never clear: the run must stop with a clear error, and once the fault is gone a
  // second run must converge without duplicates.
  const hostile: { name: string; spec: string; phase: "up" | "destroy"; expectError: RegExp }[] = [
    {
      name: "every CreatePod answers 503",
      spec: "seed=1; CreatePod: 503=1",
      phase: "up",
      expectError: /CreatePod failed: 503 Service Unavailable/,
    },
    {
      name: "every GetPod connection is reset (after the create)",
      spec: "seed=1; GetPod: reset=1",
      phase: "up",
      expectError: /GetPod failed: connection lost before the service answered/,
    },
    {
      name: "every ListPods answers 429 (Retry-After 50ms)",
      spec: "seed=1; ListPods: 429=1@50ms",
      phase: "up",
      expectError: /ListPods failed: 429 Too Many Requests/,
    },
    {
      name: "every DeletePod answers 500",
      spec: "seed=1; DeletePod: 500=1@0s",
      phase: "destroy",
      expectError: /DeletePod failed: 500 Internal Server Error/,
    },
  ];
  for (const c of hostile) {
    it(`${c.name}: clear error, then the next run converges`, async () => {
      counter.reset();
      const diagnostics = new Diagnostics();
      if (c.phase === "destroy") {
        expect((await engine.stack.up()).summary.result).toBe("succeeded");
      }
      emulator.setFaults(c.spec);
      let failure: unknown;
      try {
        if (c.phase === "up") await engine.stack.up({ onEvent: diagnostics.onEvent });
        else await engine.stack.destroy({ onEvent: diagnostics.onEvent });
      } catch (error) {
        failure = error;
      } finally {
        emulator.setFaults(undefined);
      }
      expect(failure, `${c.phase} should fail while the fault stays`).toBeInstanceOf(Error);
      collected.push(String(failure), ...diagnostics.messages.map((m) => m.message));
      const errors = diagnostics.errors();
      expect(unclearErrors(errors)).toEqual([]);
      expect(errors.join("\n")).toMatch(c.expectError);

      if (c.phase === "up") {
        const up = await engine.stack.up({ onEvent: diagnostics.onEvent });
        expect(up.summary.result).toBe("succeeded");
        expect(counter.snapshot()).toEqual(oncePerName(names));
        for (const ids of Object.values(liveByName(emulator))) expect(ids).toHaveLength(1);
      }
      const destroy = await engine.stack.destroy({ onEvent: diagnostics.onEvent });
      expect(destroy.summary.result).toBe("succeeded");
      expect(everythingLive(emulator)).toEqual([]);
      collected.push(...diagnostics.messages.map((m) => m.message));
    });
  }

  it("every create's answer is lost (the creates happen): the up converges and each resource is created once", async () => {
    counter.reset();
    const lostBefore = counter.lostAnswers;
    const diagnostics = new Diagnostics();
    emulator.setFaults(
      "seed=4; POST /v1/pods: lost=1; CreateEndpoint: lost=1; CreateTemplate: lost=1; CreateNetworkVolume: lost=1; " +
        "CreateContainerRegistryAuth: lost=1; *: latency=0.5@20ms",
    );
    try {
      const up = await engine.stack.up({ onEvent: diagnostics.onEvent });
      expect(up.summary.result).toBe("succeeded");
    } finally {
      emulator.setFaults(undefined);
    }
    collected.push(...diagnostics.messages.map((m) => m.message));
    expect(counter.lostAnswers - lostBefore).toBe(5);
    expect(diagnostics.ambiguousCreates()).toEqual({ adopted: 5, pending: 0 });
    expect(counter.snapshot()).toEqual(oncePerName(names));
    const live = liveByName(emulator);
    expect(Object.values(live).map((ids) => ids.length)).toEqual([1, 1, 1, 1, 1]);
    const state = declaredResources(await engine.exportState());
    expect(state.map((r) => r.id).sort()).toEqual(Object.values(live).flat().sort());
    expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
    expect(everythingLive(emulator)).toEqual([]);
  });

  it("an error body that echoes the API key reaches the engine redacted", async () => {
    const diagnostics = new Diagnostics();
    echoKey = true;
    let failure: unknown;
    try {
      await engine.stack.up({ onEvent: diagnostics.onEvent });
    } catch (error) {
      failure = error;
    } finally {
      echoKey = false;
    }
    expect(failure).toBeInstanceOf(Error);
    const errors = diagnostics.errors().join("\n");
    expect(errors).toMatch(/CreateNetworkVolume failed: 400 Bad Request: key \[redacted\] has no quota/);
    expect(errors).not.toContain(API_KEY);
    expect(String(failure)).not.toContain(API_KEY);
    collected.push(String(failure), ...diagnostics.messages.map((m) => m.message));
    expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
    expect(everythingLive(emulator)).toEqual([]);
  });

  it("no API key or registry password in the raw state files, the engine output or any error message", async () => {
    // Put the stack up once more so the checkpoint holds every resource (registry password included).
    expect((await engine.stack.up()).summary.result).toBe("succeeded");
    const state = await engine.exportState();
    expect(declaredResources(state)).toHaveLength(5);
    const files = rawBackendFiles(engine);
    const sources = [
      ...files.map((f) => ({ where: f.file, text: f.text })),
      { where: "engine output", text: engine.output() },
      ...collected.map((text, i) => ({ where: `collected message #${i}`, text })),
    ];
    // The scan is not vacuous: the output and messages are there, and the registry resource is in the checkpoint.
    expect(engine.output().length).toBeGreaterThan(1000);
    expect(collected.length).toBeGreaterThan(10);
    expect(files.some((f) => f.text.includes(names.registryAuth))).toBe(true);
    expect(findSecrets(sources, [API_KEY, QUICKSTART_REGISTRY_PASSWORD])).toEqual([]);
    expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
    expect(everythingLive(emulator)).toEqual([]);
  });

  it("the fault counts add up: every kind the runs use was injected", () => {
    const totals = emulator.faultStats().injected;
    const used: FaultKind[] = ["429", "500", "503", "reset", "lost", "latency"];
    console.log(`[reliability main] emulator fault totals ${JSON.stringify(totals)}`);
    for (const kind of used) expect(totals[kind], `faults of kind ${kind}`).toBeGreaterThan(0);
  });
});
