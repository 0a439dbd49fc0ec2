/**
 * EndpointRollout through the real engine against the emulator, on the v1 and the v2 API:
 * - a good version rolls out: the cases pass on a canary (which is then deleted), the serving
 *   endpoint moves, every worker runs the new version, the old template is deleted;
 * - a preview of a broken version plans the rollout and runs no job; its up fails before the
 *   serving endpoint is touched, and jobs sent to it during and after the up complete with the old
 *   version's output;
 * - going back to the good version passes without touching the serving endpoint, and a preview
 *   after it plans nothing;
 * - a version that passes its candidate check but fails after the switch is moved back
 *   automatically with verifyAfterSwitch;
 * - settings changed under the same version are gated (v2) or refused (v1);
 * - destroy leaves nothing, no canary included.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, plannedChanges, type EngineStack } from "../support/engineStack";
import { accountOf, API_VERSIONS, countsOf, emulatorConfig } from "./provider-support";

const IMAGES = {
  "1.0": "example/rollout-model:1.0",
  "2.0": "example/rollout-model:2.0",
  "3.0": "example/rollout-model:3.0-broken",
  "4.0": "example/rollout-model:4.0-degrades",
} as const;
type Version = keyof typeof IMAGES;
const FIXTURES = path.join(__dirname, "fixtures");
const degrades = createRequire(__filename)(path.join(FIXTURES, "rollout-degrades.cjs")) as { reset(served?: number): void };

describe.each(API_VERSIONS)("EndpointRollout, through the real engine (%s)", { timeout: 300_000 }, (api) => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  let version: Version = "1.0";
  let verifyAfterSwitch = false;
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
        [IMAGES["4.0"]]: path.join(FIXTURES, "rollout-degrades.cjs"),
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
          verifyAfterSwitch,
        });
        return {
          endpointId: rollout.endpointId,
          servingVersion: rollout.servingVersion,
          servingTemplateId: rollout.servingTemplateId,
          candidateResults: rollout.candidateResults,
          history: rollout.history,
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

  const canaries = () => accountOf(emu).endpoints.filter((e) => e.name === "inference-canary");

  /** The image the serving endpoint runs (on v2 an endpoint runs its own copy of the template it was given). */
  function servingImage(): string | undefined {
    const endpoint = serving();
    return accountOf(emu).templates.find((t) => t.id === endpoint.templateId)?.imageName;
  }

  function templateIdOf(v: Version): string | undefined {
    return accountOf(emu).templates.find((t) => t.name === `rollout-model-${v}`)?.id;
  }

  /** How far the serving endpoint's latest version has reached its workers, as each API reports it. */
  async function rolloutOf(endpointId: string): Promise<{ inProgress: boolean; workersOnLatest: number; workersTotal: number }> {
    if (api === "v2") {
      const res = await fetch(`${emu.apiUrlV2}/serverless/${endpointId}/releases`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { rollout: { inProgress: boolean; workersOnLatest: number; workersTotal: number } }).rollout;
    }
    const res = await fetch(`${emu.apiUrl}/endpoints/${endpointId}?includeWorkers=true`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    expect(res.status).toBe(200);
    const endpoint = (await res.json()) as { version: number; workers: Array<{ slsVersion: number }> };
    const onLatest = endpoint.workers.filter((w) => w.slsVersion === endpoint.version).length;
    return { inProgress: onLatest < endpoint.workers.length, workersOnLatest: onLatest, workersTotal: endpoint.workers.length };
  }

  /** Jobs the emulator holds for an endpoint (the job log, GET /requests). */
  async function jobCount(endpointId: string): Promise<number> {
    const res = await fetch(`${emu.serverlessUrl}/${endpointId}/requests?limit=100`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { requests: unknown[] }).requests.length;
  }

  /** Runs `up`, expects it to fail, and returns the error's message (the engine's diagnostics). */
  async function failingUp(): Promise<string> {
    const thrown = await engine.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown, "pulumi up should have failed").toBeInstanceOf(Error);
    return (thrown as Error).message;
  }

  async function answer(endpointId: string): Promise<unknown> {
    const job = await jobs.runSync(endpointId, { input: { prompt: "hello" } });
    expect(job.status, JSON.stringify(job)).toBe("COMPLETED");
    return job.output;
  }

  /** Sends jobs to the serving endpoint until `during` settles; returns what each job ended with. */
  async function trafficDuring<T>(
    endpointId: string,
    during: Promise<T>,
  ): Promise<{ jobs: Array<{ status: string; output?: unknown; error?: string }>; result: T }> {
    let done = false;
    const seen: Array<{ status: string; output?: unknown; error?: string }> = [];
    const traffic = (async () => {
      while (!done) {
        const job = await jobs.runSync(endpointId, { input: { prompt: "hello" } });
        seen.push({
          status: job.status,
          ...(job.output !== undefined ? { output: job.output } : {}),
          ...(job.error !== undefined ? { error: job.error } : {}),
        });
      }
    })();
    // Handled now, thrown below: a job that fails while the up runs must not be an unhandled
    // rejection, which the in-process language host would charge to the up's run.
    traffic.catch(() => undefined);
    const result = await during.finally(() => {
      done = true;
    });
    await traffic;
    return { jobs: seen, result };
  }

  it("deploys the first version through a canary that is gone afterwards", async () => {
    const result = await engine.stack.up();
    expect(result.outputs["candidateResults"]?.value).toMatchObject([{ name: "answers", passed: true }]);
    expect(result.outputs["servingTemplateId"]?.value).toBe(templateIdOf("1.0"));
    expect(result.outputs["servingVersion"]?.value).toBe("1.0");
    const steps = (result.outputs["history"]!.value as Array<{ step: string }>).map((s) => s.step);
    expect(steps).toEqual(["canary", "candidate", "cleanup", "switch"]);
    expect(servingImage()).toBe(IMAGES["1.0"]);
    expect(canaries()).toEqual([]);
    expect(await answer(serving().id)).toEqual({ version: "1.0", prompt: "hello" });
  });

  it("rolls a good version out to every worker and deletes the previous template", async () => {
    version = "2.0";
    const before = serving();
    const result = await engine.stack.up();
    const after = serving();
    expect(after.id).toBe(before.id);
    expect(result.outputs["servingTemplateId"]?.value).toBe(templateIdOf("2.0"));
    expect(result.outputs["servingVersion"]?.value).toBe("2.0");
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(after.version).toBeGreaterThan(before.version ?? 0);
    expect(templateIdOf("1.0")).toBeUndefined();
    expect(canaries()).toEqual([]);
    const steps = (result.outputs["history"]!.value as Array<{ step: string }>).map((s) => s.step);
    expect(steps).toEqual(["canary", "candidate", "cleanup", "switch", "rolledOut"]);
    // The up returned once every worker ran the new version (v2: the releases' summary; v1: workers' slsVersion).
    expect(await rolloutOf(after.id)).toMatchObject({ inProgress: false, workersTotal: 1, workersOnLatest: 1 });
    expect(await answer(after.id)).toEqual({ version: "2.0", prompt: "hello" });
  });

  it("fails the up on a broken version before touching the serving endpoint, which keeps answering", async () => {
    version = "3.0";
    const before = serving();
    // A preview shows the rollout (a new template, the candidate check, the serving endpoint's
    // template, the switch, the old template's deletion) and runs no job: no canary, no job.
    const jobsBefore = await jobCount(before.id);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ create: 1, update: 3, delete: 1 });
    expect(preview.stdout).toContain("version 3.0 (serving: 2.0) is checked on a canary first");
    expect(canaries()).toEqual([]);
    expect(await jobCount(before.id)).toBe(jobsBefore);

    const { jobs: during, result: message } = await trafficDuring(before.id, failingUp());
    expect(message).toContain('rollout "inference": version 3.0 failed its candidate check, so the serving endpoint was not touched');
    expect(message).toMatch(/case "answers": job \S+ ended FAILED/);
    expect(message).toContain("model weights not found in the image");

    const after = serving();
    expect(after.templateId).toBe(before.templateId);
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(after.version).toBe(before.version);
    expect(after.workersMin).toBe(before.workersMin);
    expect(canaries()).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    for (const job of during) expect(job).toEqual({ status: "COMPLETED", output: { version: "2.0", prompt: "hello" } });
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
    const preview = await engine.stack.preview({ diff: true });
    expect(plannedChanges(preview), engine.lastStep()).toEqual({});
  });

  it("moves back by itself when a version passes its candidate check but fails after the switch (verifyAfterSwitch)", async () => {
    version = "4.0";
    verifyAfterSwitch = true;
    degrades.reset();
    const before = serving();
    const { jobs: during, result: message } = await trafficDuring(before.id, failingUp());
    expect(message).toContain(
      'rollout "inference": version 4.0 failed its check on the serving endpoint after the switch, so the endpoint was moved back to version 2.0',
    );
    expect(message).toContain("CUDA out of memory after the first request");
    expect(servingImage()).toBe(IMAGES["2.0"]);
    expect(await rolloutOf(before.id)).toMatchObject({ inProgress: false, workersOnLatest: 1 });
    expect(await answer(before.id)).toEqual({ version: "2.0", prompt: "hello" });
    // Jobs sent while it ran met the old version, or the failing one between the switch and the rollback.
    const outcomes = [
      { status: "COMPLETED", output: { version: "2.0", prompt: "hello" } },
      { status: "COMPLETED", output: { version: "4.0", prompt: "hello" } },
      { status: "FAILED", error: "CUDA out of memory after the first request" },
    ];
    expect(during.length).toBeGreaterThan(0);
    for (const job of during) expect(outcomes).toContainEqual(job);
    expect(canaries()).toEqual([]);

    // Declaring the serving version again settles it: the switch moves nothing.
    version = "2.0";
    const back = await engine.stack.up();
    expect(back.outputs["servingVersion"]?.value).toBe("2.0");
    expect(templateIdOf("4.0")).toBeUndefined();
    expect(await answer(before.id)).toEqual({ version: "2.0", prompt: "hello" });
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(plannedChanges(preview), engine.lastStep()).toEqual({});
    verifyAfterSwitch = false;
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
