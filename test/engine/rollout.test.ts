/**
 * EndpointRollout through the real engine against the emulator, on the v1 and the v2 API: a good version rolls out
 * (cases pass on the canary, the serving endpoint moves, on v2 every worker is on the new release,
 * the old template is deleted); a preview of a broken version plans the rollout and runs no job; it
 * fails the up before the serving endpoint is touched (same template, same release, and
 * jobs sent to it during and after the up still complete with the old version's output); going
 * back to the good version passes, a preview after it plans nothing, and destroy leaves nothing.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, API_VERSIONS, countsOf, emulatorConfig } from "./provider-support";

const IMAGES = {
  "1.0": "example/rollout-model:1.0",
  "2.0": "example/rollout-model:2.0",
  "3.0": "example/rollout-model:3.0-broken",
} as const;
type Version = keyof typeof IMAGES;
const FIXTURES = path.join(__dirname, "fixtures");

describe.each(API_VERSIONS)("EndpointRollout, through the real engine (%s)", { timeout: 300_000 }, (api) => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  let version: Version = "1.0";
  /** An image other than the version's own, to change the settings under the same version. */
  let imageOverride: string | undefined;

  beforeAll(async () => {
    emu = await startEmulator({
      timeScale: 0.02,
      // Job results are kept all along, so the job log can be counted across ups.
      serverless: { coldStartMs: 500, syncRetentionMinMs: 86_400_000, syncRetentionMaxMs: 86_400_000 },
      handlers: {
        [IMAGES["1.0"]]: path.join(FIXTURES, "rollout-v1.cjs"),
        [IMAGES["2.0"]]: path.join(FIXTURES, "rollout-v2.cjs"),
        [IMAGES["3.0"]]: path.join(FIXTURES, "rollout-broken.cjs"),
      },
    });
    jobs = new gpucloud.JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: `endpoint-rollout-${api}`,
      config: emulatorConfig(emu, emu.apiKey, api),
      program: async () => {
        const rollout = new gpucloud.EndpointRollout("inference", {
          version,
          template: { name: "rollout-model", imageName: imageOverride ?? IMAGES[version], isServerless: true },
          endpoint: { workersMin: 1, workersMax: 2, idleTimeout: 5, gpuTypeIds: ["NVIDIA L4"] },
          cases: [{ name: "answers", input: { prompt: "hello" }, expect: { outputSubset: { prompt: "hello" } }, timeoutSeconds: 60 }],
        });
        return {
          endpointId: rollout.endpointId,
          canaryEndpointId: rollout.canaryEndpointId,
          servingTemplateId: rollout.servingTemplateId,
          candidateResults: rollout.candidateResults,
        };
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await jobs?.close();
    await emu?.close();
  });

  function serving() {
    const endpoint = accountOf(emu).endpoints.find((e) => e.name === "inference");
    if (!endpoint) throw new Error(`no serving endpoint in ${JSON.stringify(accountOf(emu).endpoints.map((e) => e.name))}`);
    return endpoint;
  }

  /** The image the serving endpoint runs (on v2 an endpoint runs its own copy of the template it was given). */
  function servingImage(): string | undefined {
    const endpoint = serving();
    return accountOf(emu).templates.find((t) => t.id === endpoint.templateId)?.imageName;
  }

  function templateIdOf(v: Version): string | undefined {
    return accountOf(emu).templates.find((t) => t.name === `rollout-model-${v}`)?.id;
  }

  /** v2: the serving endpoint's rollout summary (how many workers run its latest release). */
  async function rolloutSummary(endpointId: string): Promise<{ inProgress: boolean; workersOnLatest: number; workersTotal: number }> {
    const res = await fetch(`${emu.apiUrlV2}/serverless/${endpointId}/releases`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { rollout: { inProgress: boolean; workersOnLatest: number; workersTotal: number } }).rollout;
  }

  /** Jobs the emulator holds for an endpoint (the job log, GET /requests). */
  async function jobCount(endpointId: string): Promise<number> {
    const res = await fetch(`${emu.serverlessUrl}/${endpointId}/requests?limit=100`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { requests: unknown[] }).requests.length;
  }

  /** Runs `up`, expects it to fail, and returns the error's message (the engine's diagnostics). */
  async function failingUp(): Promise<string> {
    const thrown = await engine.stack.up().then(() => undefined, (error: unknown) => error);
    expect(thrown, "pulumi up should have failed").toBeInstanceOf(Error);
    return (thrown as Error).message;
  }

  async function answer(endpointId: string): Promise<unknown> {
    const job = await jobs.runSync(endpointId, { input: { prompt: "hello" } });
    expect(job.status, JSON.stringify(job)).toBe("COMPLETED");
    return job.output;
  }

  it("deploys the first version through the canary", async () => {
    const result = await engine.stack.up();
    expect(result.outputs["candidateResults"]?.value).toMatchObject([{ name: "answers", passed: true }]);
    expect(result.outputs["servingTemplateId"]?.value).toBe(templateIdOf("1.0"));
    expect(servingImage()).toBe(IMAGES["1.0"]);
    expect(await answer(serving().id)).toEqual({ version: "1.0", prompt: "hello" });
  });

  it("rolls a good version out and deletes the previous template", async () => {
    version = "2.0";
    const before = serving();
    const result = await engine.stack.up();
    const after = serving();
    expect(after.id).toBe(before.id);
    expect(result.outputs["servingTemplateId"]?.value).toBe(templateIdOf("2.0"));
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(after.version).toBeGreaterThan(before.version ?? 0);
    expect(templateIdOf("1.0")).toBeUndefined();
    // The up returned once every worker ran the new release (v2 reports it; v1 keeps no releases).
    if (api === "v2") expect(await rolloutSummary(after.id)).toMatchObject({ inProgress: false, workersTotal: 1, workersOnLatest: 1 });
    expect(await answer(after.id)).toEqual({ version: "2.0", prompt: "hello" });
  });

  it("fails the up on a broken version before touching the serving endpoint, which keeps answering", async () => {
    version = "3.0";
    const before = serving();
    // A preview shows the rollout (a new template, the canary moved, the gate re-run, the serving
    // endpoint moved) and runs no job.
    const canary = accountOf(emu).endpoints.find((e) => e.name === "inference-canary");
    const jobsBefore = await jobCount(canary!.id);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ create: 1, update: 3, delete: 1 });
    expect(await jobCount(canary!.id)).toBe(jobsBefore);
    // Jobs sent to the serving endpoint while the up runs.
    let upDone = false;
    const during: unknown[] = [];
    const traffic = (async () => {
      while (!upDone) during.push(await answer(before.id));
    })();
    const message = await failingUp().finally(() => {
      upDone = true;
    });
    await traffic;
    const canaryId = accountOf(emu).endpoints.find((e) => e.name === "inference-canary")?.id;
    expect(message).toContain(`smoke tests failed on endpoint ${canaryId}`);
    expect(message).toMatch(/case "answers": job \S+ ended FAILED/);
    expect(message).toContain("model weights not found in the image");

    const after = serving();
    expect(after.templateId).toBe(before.templateId);
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(after.version).toBe(before.version);
    expect(after.workersMin).toBe(before.workersMin);
    expect(during.length).toBeGreaterThan(0);
    for (const output of during) expect(output).toEqual({ version: "2.0", prompt: "hello" });
    expect(await answer(after.id)).toEqual({ version: "2.0", prompt: "hello" });
  });

  it("goes back to the good version, and a preview after it plans nothing", async () => {
    version = "2.0";
    const before = serving();
    const result = await engine.stack.up();
    const after = serving();
    // The serving endpoint was never moved, so it has nothing to do: same release.
    expect(after.version).toBe(before.version);
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(result.outputs["servingTemplateId"]?.value).toBe(templateIdOf("2.0"));
    expect(templateIdOf("3.0")).toBeUndefined();
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(Object.keys(preview.changeSummary).filter((op) => op !== "same")).toEqual([]);
  });

  it("refuses settings changed under the same version unless they pass (v2: the canary; v1: the up fails)", async () => {
    imageOverride = IMAGES["3.0"];
    const before = serving();
    const message = await failingUp().finally(() => {
      imageOverride = undefined;
    });
    expect(message).toContain(api === "v2" ? "model weights not found in the image" : `template name "rollout-model-2.0" is already used`);
    expect(serving().version).toBe(before.version);
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(await answer(before.id)).toEqual({ version: "2.0", prompt: "hello" });
  });

  it("leaves nothing behind after destroy", async () => {
    await engine.stack.destroy();
    expect(countsOf(accountOf(emu))).toMatchObject({ endpoints: 0, templates: 0 });
  });
});
