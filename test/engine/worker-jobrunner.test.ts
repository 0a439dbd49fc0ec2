/**
 * examples/python-worker through the real engine: `pulumi up` deploys the template and endpoint to
 * the emulator, which runs the example's real Python handler (handler.py, started by the emulator
 * through `workers`) for the JobRunner's cases. The cases pass only with that handler's output; a
 * handler that raises (a model the image does not have) fails the `up` with the handler's error.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program } from "../../examples/python-worker/program";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { emulatorConfig } from "./provider-support";

const HANDLER = path.resolve(__dirname, "../../examples/python-worker/handler.py");

describe("examples/python-worker, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.02, workers: { "example/python-worker": `python3 ${HANDLER}` } });
    engine = await createEngineStack({
      projectName: "gpucloud-python-worker",
      stackName: "dev",
      program: async () => program(),
      config: emulatorConfig(emu, emu.apiKey, "v2"), // the URL the example's README sets
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await emu?.close();
  });

  it("deploys, and the JobRunner's cases pass on the real handler's output", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const results = up.outputs["smokeTests"]?.value as { name: string; passed: boolean; jobId: string; status: string }[];
    expect(results.map((r) => [r.name, r.passed, r.status])).toEqual([
      ["counts-words", true, "COMPLETED"],
      ["rejects-empty-text", true, "FAILED"],
    ]);
    // The jobs ran in a worker process the emulator started, whose log names the handler's worker.
    const logs = emu.inspect()[0]?.workerLogs ?? [];
    expect(logs.length).toBeGreaterThanOrEqual(1);
    expect(logs[0]?.endpointId).toBe(up.outputs["endpointId"]?.value);
  });

  it("a handler that raises fails the up with the handler's error", async () => {
    await engine.stack.setConfig("gpucloud-python-worker:modelName", { value: "missing" });
    const failed = await engine.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed, "pulumi up should have failed").toBeInstanceOf(Error);
    expect(String(failed)).toMatch(/case "counts-words": job \S+ ended FAILED/);
    expect(String(failed)).toContain("unknown model 'missing': this image only serves 'wordcount'");
  });
});
