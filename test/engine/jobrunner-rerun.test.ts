/**
 * JobRunner through the real engine against the emulator: a passing smoke test, and exactly when the
 * cases run again. They re-run when the template changes in place (env, image) or the trigger
 * changes, never on an `up` with no changes, and never during `pulumi preview`: a preview after a
 * change plans the run resource as an update, yet no job reaches the endpoint (its /health job
 * counts stay put).
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";

const RUN_TYPE = "pulumi-nodejs:dynamic/gpucloud:SmokeTest";

/** What the program declares; the test edits it between operations. */
interface Knobs {
  env: Record<string, string>;
  imageName: string;
  trigger: string;
}

interface Result {
  name: string;
  jobId: string;
  status: string;
  output?: unknown;
  delayTime?: number;
  executionTime?: number;
  passed: boolean;
  problems: string[];
}

describe("JobRunner re-runs, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  const knobs: Knobs = { env: { MODEL: "echo-v1" }, imageName: "example/echo-worker:1.0", trigger: "release-1" };

  beforeAll(async () => {
    emu = await startEmulator({
      timeScale: 0.02,
      serverless: {
        coldStartMs: 500,
        // Keep finished runsync jobs for a service day, so /health's job counts only ever grow
        // during the test and say exactly how many jobs reached the endpoint.
        syncRetentionMinMs: 86_400_000,
        syncRetentionMaxMs: 86_400_000,
      },
    });
    jobs = new gpucloud.JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: "jobrunner-rerun",
      program: async () => {
        const template = new gpucloud.Template("worker", {
          name: "jobrunner-rerun-worker",
          imageName: knobs.imageName,
          isServerless: true,
          env: { ...knobs.env },
        });
        const endpoint = new gpucloud.Endpoint("inference", {
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: 2,
          idleTimeout: 5,
        });
        const smoke = new gpucloud.JobRunner("smoke", {
          endpoint,
          template,
          trigger: knobs.trigger,
          cases: [
            {
              name: "generate",
              input: { output: { text: "a GPU cloud, as code" }, delayMs: 3_000 },
              expect: { output: { text: "a GPU cloud, as code" } },
              timeoutSeconds: 60,
            },
            // A case may expect a failure: it passes when the job fails the way it should.
            {
              name: "rejects-bad-input",
              input: { error: "prompt must not be empty" },
              expect: { status: "FAILED", errorContains: "must not be empty" },
              timeoutSeconds: 60,
            },
          ],
        });
        return { endpointId: endpoint.id, results: smoke.results, ranAt: smoke.ranAt };
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

  /** Every job the endpoint has seen (finished ones are retained for the whole test). */
  async function jobsSeen(endpointId: string): Promise<number> {
    const { jobs: j } = await jobs.health(endpointId);
    return j.completed + j.failed + j.inProgress + j.inQueue;
  }

  /** Operations the engine planned per resource type during one preview. */
  async function previewOps(): Promise<{ ops: Map<string, string>; changeSummary: Record<string, number> }> {
    const ops = new Map<string, string>();
    const preview = await engine.stack.preview({
      onEvent: (event: EngineEvent) => {
        const meta = event.resourcePreEvent?.metadata;
        if (meta) ops.set(meta.type, meta.op);
      },
    });
    return { ops, changeSummary: preview.changeSummary as Record<string, number> };
  }

  it("runs the cases on the first up and exports their results", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const endpointId = up.outputs["endpointId"]?.value as string;
    const results = up.outputs["results"]?.value as Result[];
    expect(results).toHaveLength(2);
    const [generate, rejects] = results;
    expect(generate).toMatchObject({
      name: "generate",
      status: "COMPLETED",
      output: { text: "a GPU cloud, as code" },
      passed: true,
      problems: [],
    });
    expect(generate?.jobId).toMatch(/\S{8,}/);
    // Service time: the handler ran its 3 s; the job waited for a cold start first.
    expect(generate?.executionTime).toBeGreaterThanOrEqual(2_900);
    expect(generate?.executionTime).toBeLessThan(30_000);
    expect(typeof generate?.delayTime).toBe("number");
    expect(generate?.delayTime).toBeGreaterThanOrEqual(0);
    expect(rejects).toMatchObject({ name: "rejects-bad-input", status: "FAILED", passed: true });
    expect(rejects?.jobId).not.toBe(generate?.jobId);

    // The ids in the verdict are jobs the endpoint really ran.
    const record = await jobs.status(endpointId, generate!.jobId);
    expect(record).toMatchObject({ id: generate!.jobId, status: "COMPLETED", output: { text: "a GPU cloud, as code" } });
    expect(await jobsSeen(endpointId)).toBe(2);

    const state = await engine.exportState();
    const run = declaredResources(state).find((r) => r.type === RUN_TYPE);
    expect(run?.outputs?.["results"]).toEqual(results);
  });

  it("does not run again on an up with no changes: same job ids, same ranAt", async () => {
    const before = await engine.stack.outputs();
    const endpointId = before["endpointId"]?.value as string;
    const up = await engine.stack.up();
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(up.outputs["results"]?.value).toEqual(before["results"]?.value);
    expect(up.outputs["ranAt"]?.value).toBe(before["ranAt"]?.value);
    expect(await jobsSeen(endpointId)).toBe(2);
  });

  it("plans nothing in a preview after an up (`pulumi preview --expect-no-changes` passes)", async () => {
    const endpointId = (await engine.stack.outputs())["endpointId"]?.value as string;
    const { ops, changeSummary } = await previewOps();
    // Every resource, the smoke-test run included, is planned as "same". (In a preview the engine
    // reports outputs a provider did not return as unknown, not undefined; the run's revision
    // digest must not count them, or every preview would plan a re-run that `up` then skips.)
    expect(Object.fromEntries(ops)).toMatchObject({
      "pulumi:pulumi:Stack": "same",
      "gpucloud:index:JobRunner": "same",
      "pulumi-nodejs:dynamic/gpucloud:Template": "same",
      "pulumi-nodejs:dynamic/gpucloud:Endpoint": "same",
      [RUN_TYPE]: "same",
    });
    expect(Object.keys(changeSummary)).toEqual(["same"]);
    const strict = await engine.stack.preview({ expectNoChanges: true });
    expect(strict.changeSummary).toEqual(changeSummary);
    expect(await jobsSeen(endpointId)).toBe(2);
  });

  it("plans a re-run in preview after a template env change, but runs no job until up", async () => {
    const before = await engine.stack.outputs();
    const endpointId = before["endpointId"]?.value as string;
    const oldIds = (before["results"]!.value as Result[]).map((r) => r.jobId);
    knobs.env = { MODEL: "echo-v2" };

    const { ops, changeSummary } = await previewOps();
    expect(ops.get("pulumi-nodejs:dynamic/gpucloud:Template")).toBe("update");
    expect(ops.get(RUN_TYPE)).toBe("update");
    expect(changeSummary["update"]).toBe(2);
    // Preview called neither create nor update of the run: no job reached the endpoint.
    expect(await jobsSeen(endpointId)).toBe(2);

    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    const results = up.outputs["results"]?.value as Result[];
    expect(results.map((r) => r.status)).toEqual(["COMPLETED", "FAILED"]);
    expect(results.every((r) => r.passed)).toBe(true);
    const newIds = results.map((r) => r.jobId);
    for (const id of newIds) expect(oldIds).not.toContain(id);
    expect(await jobsSeen(endpointId)).toBe(4);
    expect(Date.parse(up.outputs["ranAt"]?.value as string)).toBeGreaterThan(Date.parse(before["ranAt"]?.value as string));
  });

  it("re-runs when the template's image changes in place", async () => {
    const before = await engine.stack.outputs();
    const endpointId = before["endpointId"]?.value as string;
    knobs.imageName = "example/echo-worker:1.1";

    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(up.summary.resourceChanges?.["create"]).toBeUndefined();
    expect(up.summary.resourceChanges?.["replace"]).toBeUndefined();
    // The endpoint kept its id: the template changed in place.
    expect(up.outputs["endpointId"]?.value).toBe(endpointId);
    const ids = (up.outputs["results"]!.value as Result[]).map((r) => r.jobId);
    expect(ids).not.toEqual((before["results"]!.value as Result[]).map((r) => r.jobId));
    expect(await jobsSeen(endpointId)).toBe(6);
  });

  it("re-runs when only the trigger changes; preview plans it and runs nothing", async () => {
    const before = await engine.stack.outputs();
    const endpointId = before["endpointId"]?.value as string;
    knobs.trigger = "release-2";

    const { ops, changeSummary } = await previewOps();
    expect(ops.get(RUN_TYPE)).toBe("update");
    expect(ops.get("pulumi-nodejs:dynamic/gpucloud:Template")).toBe("same");
    expect(ops.get("pulumi-nodejs:dynamic/gpucloud:Endpoint")).toBe("same");
    expect(changeSummary["update"]).toBe(1);
    expect(await jobsSeen(endpointId)).toBe(6);

    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    const results = up.outputs["results"]?.value as Result[];
    expect(results.every((r) => r.passed)).toBe(true);
    const oldIds = (before["results"]!.value as Result[]).map((r) => r.jobId);
    for (const r of results) expect(oldIds).not.toContain(r.jobId);
    expect(await jobsSeen(endpointId)).toBe(8);

    // And the new verdict is stable: another up runs nothing.
    const again = await engine.stack.up();
    expect(Object.keys(again.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(again.outputs["results"]?.value).toEqual(results);
    expect(await jobsSeen(endpointId)).toBe(8);
  });
});
