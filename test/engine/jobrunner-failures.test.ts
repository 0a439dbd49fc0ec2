/**
 * JobRunner cases that fail a deploy, through the real engine against the emulator: a handler
 * error, a job that outlives its policy's executionTimeout (TIMED_OUT where COMPLETED was expected),
 * and a case whose own timeoutSeconds passes first (the job is cancelled). Each fails `pulumi up`
 * with a message naming the case, the job id the endpoint really ran, its status and its error; a
 * failed run leaves no verdict in state, and fixing the cases makes the next `up` pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";

const RUN_TYPE = "pulumi-nodejs:dynamic/gpucloud:SmokeTest";

interface LoggedJob {
  id: string;
  status: string;
  origin: string;
}

describe("JobRunner failures, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  let cases: gpucloud.JobRunnerCase[] = [];

  beforeAll(async () => {
    emu = await startEmulator({
      timeScale: 0.02,
      serverless: { coldStartMs: 500, syncRetentionMinMs: 86_400_000, syncRetentionMaxMs: 86_400_000 },
    });
    jobs = new gpucloud.JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: "jobrunner-failures",
      program: async () => {
        const template = new gpucloud.Template("worker", {
          name: "jobrunner-failures-worker",
          imageName: "example/model-server:2.0",
          isServerless: true,
        });
        const endpoint = new gpucloud.Endpoint("inference", { templateId: template.id, workersMin: 0, workersMax: 2, idleTimeout: 5 });
        const smoke = new gpucloud.JobRunner("smoke", { endpoint, template, cases });
        return { endpointId: endpoint.id, results: smoke.results };
      },
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrl },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await jobs?.close();
    await emu?.close();
  });

  /** The only endpoint of the emulator's account (the failed up leaves no stack outputs). */
  function endpointId(): string {
    const id = emu.inspect()[0]?.endpoints[0]?.id;
    if (!id) throw new Error("no endpoint in the emulator");
    return id;
  }

  /** The endpoint's job log (GET /requests), newest first. */
  async function jobLog(endpoint: string): Promise<LoggedJob[]> {
    const res = await fetch(`${emu.serverlessUrl}/${endpoint}/requests?limit=50`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { requests: LoggedJob[] }).requests;
  }

  /** Runs `up`, expects it to fail, and returns the thrown error's message (the engine's diagnostics). */
  async function failingUp(): Promise<string> {
    const printedBefore = engine.output().length;
    let thrown: unknown;
    try {
      await engine.stack.up();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, "pulumi up should have failed").toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    // The engine printed the same diagnostic while this up ran.
    const printed = engine.output().slice(printedBefore);
    expect(printed).toContain("smoke tests failed on endpoint");
    expect(printed).toMatch(/smoke-run \*\*creating failed\*\*/);
    return message;
  }

  async function runResource() {
    return declaredResources(await engine.exportState()).find((r) => r.type === RUN_TYPE);
  }

  it("fails the up when the handler fails, with the job's error text and id", async () => {
    cases = [{ name: "load-model", input: { prompt: "hello", error: "model failed to load" }, timeoutSeconds: 60 }];
    const message = await failingUp();

    const endpoint = endpointId();
    const log = await jobLog(endpoint);
    expect(log).toHaveLength(1);
    const job = log[0]!;
    expect(job).toMatchObject({ status: "FAILED", origin: "runsync" });
    expect(message).toContain(`smoke tests failed on endpoint ${endpoint}: 1 of 1 case(s) failed`);
    expect(message).toContain(`case "load-model": job ${job.id} ended FAILED`);
    expect(message).toContain("status is FAILED, expected COMPLETED");
    expect(message).toContain('error: "model failed to load"');
    expect(await jobs.status(endpoint, job.id)).toMatchObject({ status: "FAILED", error: "model failed to load" });

    // The endpoint and template were deployed; the failed verdict was not recorded.
    const state = await engine.exportState();
    expect(declaredResources(state).map((r) => r.type)).toEqual(
      expect.arrayContaining(["pulumi-nodejs:dynamic/gpucloud:Template", "pulumi-nodejs:dynamic/gpucloud:Endpoint"]),
    );
    expect(await runResource()).toBeUndefined();
  });

  it("fails the up when a job times out: TIMED_OUT by policy, and a case past its own timeoutSeconds", async () => {
    const endpoint = endpointId();
    const seenBefore = new Set((await jobLog(endpoint)).map((j) => j.id));
    cases = [
      // The job's policy allows 5 s of execution; the handler needs 30 s: the service times it out.
      { name: "slow-model", input: { delayMs: 30_000 }, policy: { executionTimeout: 5_000 }, timeoutSeconds: 60 },
      // The case allows 2 s of wall time; the job needs ~60 s (3000 service seconds at timeScale 0.02).
      { name: "stuck-model", input: { delayMs: 3_000_000 }, policy: { executionTimeout: 3_600_000 }, timeoutSeconds: 2 },
    ];
    // The case gives up at its deadline instead of waiting the 60 s for the job: shown below by the
    // job being CANCELLED (a job waited out would be COMPLETED), not by a wall-clock bound, which a
    // loaded machine can exceed.
    const message = await failingUp();

    const fresh = (await jobLog(endpoint)).filter((j) => !seenBefore.has(j.id));
    expect(fresh).toHaveLength(2);
    const timedOut = fresh.find((j) => j.status === "TIMED_OUT");
    const cancelled = fresh.find((j) => j.status === "CANCELLED");
    expect(timedOut, JSON.stringify(fresh)).toBeDefined();
    expect(cancelled, JSON.stringify(fresh)).toBeDefined();

    expect(message).toContain(`smoke tests failed on endpoint ${endpoint}: 2 of 2 case(s) failed`);
    expect(message).toContain(`case "slow-model": job ${timedOut!.id} ended TIMED_OUT; status is TIMED_OUT, expected COMPLETED`);
    expect(message).toMatch(
      new RegExp(
        `case "stuck-model": job ${cancelled!.id} ended IN_(QUEUE|PROGRESS); did not finish within timeoutSeconds=2 \\(last status IN_(QUEUE|PROGRESS)\\); the job was cancelled`,
      ),
    );
    // The case cancelled its job rather than leave it holding a worker.
    expect((await jobs.status(endpoint, cancelled!.id)).status).toBe("CANCELLED");
    expect(await runResource()).toBeUndefined();
  });

  it("passes once the cases are fixed, and records the verdict", async () => {
    cases = [
      { name: "load-model", input: { prompt: "hello" }, expect: { outputSubset: { prompt: "hello" } }, timeoutSeconds: 60 },
      { name: "slow-model", input: { delayMs: 3_000 }, policy: { executionTimeout: 120_000 }, timeoutSeconds: 60 },
    ];
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    const results = up.outputs["results"]?.value as gpucloud.JobRunnerCaseResult[];
    expect(results.map((r) => [r.name, r.status, r.passed])).toEqual([
      ["load-model", "COMPLETED", true],
      ["slow-model", "COMPLETED", true],
    ]);
    expect((await runResource())?.outputs?.["results"]).toEqual(results);
  });
});
