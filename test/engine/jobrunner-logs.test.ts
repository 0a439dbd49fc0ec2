/**
 * A failing smoke test shows why, through the real engine against the emulator on the v2 API: the
 * `up` error of a JobRunner whose case fails ends with the last lines of the log of the worker
 * that ran the job (secrets redacted) and how to read more. The worker is the emulator's simulated
 * one; the lines are what its handler logged (the built-in handler's `log` input) and its job lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { emulatorConfig } from "./provider-support";

const WORKER_TEMPLATE: gpucloud.TemplateArgs = { name: "logs-worker", imageName: "example/model-server:2.0", isServerless: true };

/** A job that logs three lines, one of them a secret, then fails. */
const FAILING_CASE: gpucloud.JobRunnerCase = {
  name: "generate",
  input: {
    prompt: "hello",
    log: ["loading weights from /models/llama-8b", "HF_TOKEN=hf_do_not_print_me", "RuntimeError: CUDA out of memory"],
    error: "CUDA out of memory",
  },
  timeoutSeconds: 60,
};

describe("a failing smoke test shows the worker's log, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.02, serverless: { coldStartMs: 500 } });
    engine = await createEngineStack({
      projectName: "jobrunner-logs",
      program: async () => {
        const template = new gpucloud.Template("worker", WORKER_TEMPLATE);
        const endpoint = new gpucloud.Endpoint("inference", { templateId: template.id, workersMax: 1, idleTimeout: 5 });
        const smoke = new gpucloud.JobRunner("smoke", { endpoint, template, cases: [FAILING_CASE] });
        return { results: smoke.results };
      },
      config: emulatorConfig(emu, emu.apiKey, "v2"),
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await emu?.close();
  });

  it("the up error ends with the worker's last log lines, redacted, and where to read more", async () => {
    const failure = await engine.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure, "pulumi up should have failed").toBeInstanceOf(Error);
    const message = (failure as Error).message;
    const endpointId = emu.inspect()[0]?.endpoints[0]?.id ?? "";
    const record = /case "generate": job (\S+) ended FAILED/.exec(message);
    expect(record, message).not.toBeNull();
    const jobId = record?.[1] ?? "";
    const worker = new RegExp(`last (\\d+) line\\(s\\) of the log of worker (\\S+) of endpoint ${endpointId}:`).exec(message);
    expect(worker, message).not.toBeNull();
    const workerId = worker?.[2] ?? "";
    // The engine indents the lines of a resource's error; each log line is `HH:MM:SS [source] line`.
    const shown = message
      .slice(message.indexOf(worker?.[0] ?? ""))
      .split("\n")
      .slice(1, 8)
      .map((line) => line.trim().replace(/^\d{2}:\d{2}:\d{2} /, ""));
    expect(shown).toEqual([
      expect.stringMatching(new RegExp(`^\\[system\\] worker ${workerId} starting \\(cold start\\)`)),
      `[system] worker ${workerId} ready`,
      `[container] job ${jobId} started`,
      "[container] loading weights from /models/llama-8b",
      "[container] HF_TOKEN=[redacted]",
      "[container] RuntimeError: CUDA out of memory",
      `[container] job ${jobId} FAILED: CUDA out of memory`,
    ]);
    expect(message).toContain(`read more: GET ${emu.apiUrlV2}/serverless/${endpointId}/workers/${workerId}/logs?tail=1000`);
    expect(message).not.toContain("hf_do_not_print_me");
    expect(message).not.toContain(emu.apiKey);
    // The engine printed the same diagnostic.
    expect(engine.output()).toContain(`of the log of worker ${workerId}`);
  });
});
