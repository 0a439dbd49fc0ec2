/**
 * The reliability soak (part of `npm test`): seeded runs of the quickstart stack through the
 * real engine, on each management API (20 runs on v1, 6 on v2 to keep the suite short; the seeds
 * differ, so together they cover more fault sequences) with faults on (429 with Retry-After, 500, 503, latency, resets, lost answers on
 * creates and deletes). Each run: up (converges, or fails with a clear error), more ups until one
 * converges (at most four: a create answered 5xx is never sent again in its up), one create per resource name, the emulator's resources are exactly the state's, then
 * destroy and the emulator is empty. The figures are printed at the end; the secret scan covers
 * the raw backend files, the engine output and every message collected.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { QUICKSTART_REGISTRY_PASSWORD, quickstartNames, quickstartProgram } from "../support/quickstart";
import {
  CreateCounter,
  type CycleReport,
  everythingLive,
  faultedCycle,
  findSecrets,
  type ManagementApiVersion,
  rawBackendFiles,
  summarize,
} from "../support/reliability";

const API_KEY = "reliability-soak-api-key-83c2e5a1f7d9";

const SOAKS: { api: ManagementApiVersion; runs: number; firstSeed: number }[] = [
  { api: "v1", runs: 20, firstSeed: 1000 },
  { api: "v2", runs: 6, firstSeed: 2000 },
];

for (const { api, runs: RUNS, firstSeed } of SOAKS)
  describe(`reliability soak on ${api}: ${RUNS} seeded faulted runs of the quickstart stack`, () => {
    const SEEDS = Array.from({ length: RUNS }, (_, i) => firstSeed + i * 7919);
    const names = quickstartNames(`soak-${api}`);
    const counter = new CreateCounter();
    const collected: string[] = [];
    const reports: CycleReport[] = [];
    let emulator: RunningEmulator;
    let engine: EngineStack;

    beforeAll(async () => {
      emulator = await startEmulator({ timeScale: 0.01, apiKeys: [API_KEY], onReply: counter.onReply });
      engine = await createEngineStack({
        projectName: `reliability-soak-${api}`,
        program: async () => quickstartProgram(names),
        config: {
          "gpucloud:apiUrl": { value: api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl },
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
      await engine?.dispose();
      await emulator?.close();
    });

    it("every run converges or fails clearly, and converges within four ups; 0 orphans, 0 duplicates", { timeout: 1_800_000 }, async () => {
      for (const seed of SEEDS) {
        const report = await faultedCycle({ emulator, engine, names, counter, collected, api }, seed);
        reports.push(report);
        console.log(
          `[reliability soak ${api}] run ${reports.length}/${RUNS} seed ${seed}: ${JSON.stringify({ ...report, creates: undefined })}`,
        );
      }
      const figures = summarize(reports);
      console.log(`[reliability soak ${api}] FIGURES ${JSON.stringify(figures)}`);
      expect(figures["runs"]).toBe(RUNS);
      expect(figures["duplicates"]).toBe(0);
      expect(everythingLive(emulator)).toEqual([]);
      // The soak must actually have met every kind of fault it configures, lost create answers included.
      const faults = figures["faultsInjected"] as Record<string, number>;
      for (const kind of ["429", "500", "503", "reset", "lost", "latency"])
        expect(faults[kind], `faults of kind ${kind}`).toBeGreaterThan(0);
      expect(figures["lostCreateAnswers"] as number).toBeGreaterThan(0);
      expect(figures["retriesLogged"] as number).toBeGreaterThan(0);
    });

    it("no API key or registry password in the raw state files, the engine output or any collected message", async () => {
      expect(reports.length).toBe(RUNS);
      const sources = [
        ...rawBackendFiles(engine).map((f) => ({ where: f.file, text: f.text })),
        { where: "engine output", text: engine.output() },
        ...collected.map((text, i) => ({ where: `collected message #${i}`, text })),
      ];
      expect(collected.length).toBeGreaterThan(RUNS);
      expect(findSecrets(sources, [API_KEY, QUICKSTART_REGISTRY_PASSWORD])).toEqual([]);
    });
  });
