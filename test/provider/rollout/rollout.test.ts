/**
 * The rollout's candidate check and switch, called as the engine calls them, against the emulator on
 * the v1 and the v2 API: a candidate runs its cases on a canary it deletes afterwards (passing or
 * not) and deletes a canary an interrupted run left behind; the switch moves the serving endpoint
 * only to an approved template, waits for every worker, and with verifyAfterSwitch goes back to the
 * previous version when the cases fail after the switch, recording what serves.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobClient } from "../../../client/jobClient";
import { ManagementClientV2 } from "../../../client/managementV2";
import type { LogNoteReader } from "../../../provider/logNotes";
import { rolloutCandidateProvider } from "../../../provider/rollout/candidate";
import type { RolloutDeps } from "../../../provider/rollout/deps";
import { rolloutSwitchProvider } from "../../../provider/rollout/switch";
import { ResourceInitError } from "../../../provider/resources/partialCreate";
import type { Props } from "../../../model/fields/values";
import { API_VERSIONS } from "../../engine/provider-support";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

const FIXTURES = path.join(__dirname, "..", "..", "engine", "fixtures");
const IMAGES = {
  good: "example/model:1.0",
  next: "example/model:2.0",
  broken: "example/model:3.0",
  degrades: "example/model:4.0",
} as const;
const degrades = createRequire(__filename)(path.join(FIXTURES, "rollout-degrades.cjs")) as { reset(served?: number): void };
const cases = [{ name: "answers", input: { prompt: "hi" }, expect: { outputSubset: { prompt: "hi" } }, timeoutSeconds: 30 }];

describe.each(API_VERSIONS)("EndpointRollout's candidate and switch against the emulator (%s)", (api) => {
  let h: Harness;
  let jobs: JobClient;
  let deps: RolloutDeps;
  const templates: Record<keyof typeof IMAGES, string> = { good: "", next: "", broken: "", degrades: "" };

  beforeAll(async () => {
    h = await startHarness(
      {
        timeScale: 0.02,
        serverless: { coldStartMs: 200 },
        handlers: {
          [IMAGES.good]: path.join(FIXTURES, "rollout-v1.cjs"),
          [IMAGES.next]: path.join(FIXTURES, "rollout-v2.cjs"),
          [IMAGES.broken]: path.join(FIXTURES, "rollout-broken.cjs"),
          [IMAGES.degrades]: path.join(FIXTURES, "rollout-degrades.cjs"),
        },
      },
      api,
    );
    jobs = new JobClient({ apiKey: h.emulator.apiKey, serverlessUrl: h.emulator.serverlessUrl });
    const endpoints = h.providers.endpoint;
    deps = {
      provider: h.deps,
      canaryEndpoints: {
        check: (o, n) => endpoints.check!(o, n),
        create: (i) => endpoints.create(i),
        delete: (id, p) => endpoints.delete!(id, p),
      },
      jobs: async () => jobs,
    };
    for (const key of Object.keys(IMAGES) as Array<keyof typeof IMAGES>) {
      const created = await h.providers.template.create(
        await checked(h.providers.template, { name: `model-${key}`, imageName: IMAGES[key], isServerless: true }),
      );
      templates[key] = created.id;
    }
  });

  afterAll(async () => {
    await jobs?.close();
    await h?.close();
  });

  const endpointsNamed = async (name: string) => (await h.client.listEndpoints()).filter((e) => e.name === name);
  const candidateInputs = (templateId: string, version: string): Props => ({
    rollout: "serve",
    version,
    templateId,
    canary: { name: "serve-canary", templateId, workersMin: 0, workersMax: 1, gpuTypeIds: ["NVIDIA L4"] },
    cases,
    __provider: "shim",
  });

  describe("the candidate check", () => {
    it("runs the cases on a canary, approves the template and deletes the canary", async () => {
      const candidate = rolloutCandidateProvider(deps);
      const created = await candidate.create(await checked(candidate, candidateInputs(templates.good, "1.0")));
      const outs = created.outs as Props;
      expect(outs).toMatchObject({
        approvedTemplateId: templates.good,
        results: [{ name: "answers", passed: true, output: { version: "1.0", prompt: "hi" } }],
      });
      expect((outs["history"] as Array<{ step: string }>).map((s) => s.step)).toEqual(["canary", "candidate", "cleanup"]);
      expect(outs["__provider"]).toBe("shim");
      expect(await endpointsNamed("serve-canary")).toEqual([]);
    });

    it("fails on a broken version, naming the job and its error, and deletes the canary all the same", async () => {
      const candidate = rolloutCandidateProvider(deps);
      const thrown = await candidate.update!("candidate-1", {}, await checked(candidate, candidateInputs(templates.broken, "3.0"))).catch(
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Error);
      const message = (thrown as Error).message;
      expect(message).toContain('rollout "serve": version 3.0 failed its candidate check, so the serving endpoint was not touched');
      expect(message).toMatch(/case "answers": job \S+ ended FAILED/);
      expect(message).toContain("model weights not found in the image");
      expect(await endpointsNamed("serve-canary")).toEqual([]);
    });

    it("a failed check ends with the log of the canary's worker that failed, read before the canary is deleted (v2; v1 has no logs)", async () => {
      const client = new ManagementClientV2({ baseUrl: h.emulator.apiUrlV2, apiKey: h.emulator.apiKey });
      const canariesAtRead: number[] = [];
      const reader: LogNoteReader = async (target) => {
        canariesAtRead.push((await endpointsNamed("serve-canary")).length);
        if (api === "v1" || !("workerId" in target)) return undefined;
        return client.workerLog(target.endpointId, target.workerId, { quietMs: 300 });
      };
      const candidate = rolloutCandidateProvider({ ...deps, provider: { ...deps.provider, logs: () => reader } });
      const inputs = await checked(candidate, candidateInputs(templates.broken, "3.0"));
      const message = await candidate.update!("candidate-1", {}, inputs).then(
        () => "",
        (e: unknown) => (e as Error).message,
      );
      await client.close();
      expect(canariesAtRead).toEqual([1]);
      const job = /case "answers": job (\S+) ended FAILED/.exec(message)?.[1];
      if (api === "v1") expect(message).not.toContain("of the log of");
      else
        expect(message).toMatch(
          new RegExp(`of the log of worker \\S+ of endpoint \\S+:\\n(.*\\n)*.*job ${job} FAILED: .*model weights not found`),
        );
      expect(await endpointsNamed("serve-canary")).toEqual([]);
    });

    it("blames the changed case, not the version, when only a smoke-test case changed", async () => {
      const candidate = rolloutCandidateProvider(deps);
      const olds = { ...candidateInputs(templates.good, "1.0"), approvedTemplateId: templates.good };
      const changedCases = [{ ...cases[0], expect: { outputSubset: { prompt: "bye" } } }];
      const news = await checked(candidate, { ...candidateInputs(templates.good, "1.0"), cases: changedCases });
      const thrown = await candidate.update!("candidate-1", olds, news).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Error);
      const message = (thrown as Error).message;
      expect(message).toContain('rollout "serve": version 1.0 did not change, its smoke-test case(s) "answers" (new or changed) did');
      expect(message).toContain("so the serving endpoint was not touched");
      expect(message).toContain("Check the changed case(s) (their input and expect) against what version 1.0 answers");
      expect(message).not.toContain("Fix the version");
      expect(await endpointsNamed("serve-canary")).toEqual([]);
    });

    it("deletes a canary an interrupted run left behind, before its own run and on delete", async () => {
      const candidate = rolloutCandidateProvider(deps);
      const leftover = await h.client.createEndpoint({ name: "serve-canary", templateId: templates.good });
      const created = await candidate.create(await checked(candidate, candidateInputs(templates.good, "1.0")));
      expect((created.outs as Props)["history"]).toContainEqual(
        expect.objectContaining({ step: "cleanup", endpointId: leftover.id, detail: "left by an interrupted rollout" }),
      );
      expect(await endpointsNamed("serve-canary")).toEqual([]);
      await h.client.createEndpoint({ name: "serve-canary", templateId: templates.good });
      await candidate.delete!(created.id, created.outs as Props);
      expect(await endpointsNamed("serve-canary")).toEqual([]);
    });

    it("refuses what the component would never send, naming the argument", async () => {
      const candidate = rolloutCandidateProvider(deps);
      const result = await candidate.check!({}, { ...candidateInputs(templates.good, "1.0"), cases: [], canaryy: {} });
      expect(result.failures).toEqual(
        expect.arrayContaining([
          { property: "canaryy", reason: expect.stringContaining("is not a EndpointRollout candidate argument; did you mean canary?") },
          { property: "cases", reason: expect.stringContaining("give at least one smoke-test case") },
        ]),
      );
    });
  });

  describe("the switch", () => {
    let endpointId = "";
    let outs: Props = {};
    const switchInputs = (templateId: string, version: string, extra: Props = {}): Props => ({
      rollout: "serve",
      endpointId,
      version,
      templateId,
      templateRevision: "",
      cases,
      verifyAfterSwitch: false,
      workersMin: 1,
      readyTimeoutSeconds: 60,
      __provider: "shim",
      ...extra,
    });
    const servingImage = async (): Promise<unknown> => (await jobs.runSync(endpointId, { input: { prompt: "hi" } })).output;

    it("records the version an endpoint was created on", async () => {
      const endpoint = await h.providers.endpoint.create(
        await checked(h.providers.endpoint, {
          name: "serve",
          templateId: templates.good,
          workersMin: 1,
          workersMax: 2,
          templateAppliedBy: "rollout",
          __provider: "shim",
        }),
      );
      endpointId = endpoint.id;
      const sw = rolloutSwitchProvider(deps);
      const created = await sw.create(await checked(sw, switchInputs(templates.good, "1.0")));
      outs = created.outs as Props;
      expect(outs).toMatchObject({
        servingEndpointId: endpointId,
        servingVersion: "1.0",
        servingTemplateId: templates.good,
        settled: true,
        verifyResults: [],
      });
      expect(await sw.diff!(created.id, outs, switchInputs(templates.good, "1.0"))).toEqual({ changes: false, replaces: [] });
      // State of 0.2.0 recorded the serving endpoint's whole requestUrls map; today's inputs carry its base alone.
      const base = `https://${endpointId}.example`;
      const earlier = { ...outs, requestUrls: { base, runsync: `${base}/runsync`, health: `${base}/health` } };
      expect(await sw.diff!(created.id, earlier, switchInputs(templates.good, "1.0", { requestBase: base }))).toEqual({
        changes: false,
        replaces: [],
      });
      expect((await sw.diff!(created.id, earlier, switchInputs(templates.good, "1.0", { requestBase: `${base}/other` }))).changes).toBe(
        true,
      );
    });

    it("moves the endpoint to an approved version and returns once every worker runs it", async () => {
      const sw = rolloutSwitchProvider(deps);
      expect((await sw.diff!("switch-1", outs, switchInputs(templates.next, "2.0"))).changes).toBe(true);
      h.lines.info.length = 0;
      const updated = await sw.update!("switch-1", outs, switchInputs(templates.next, "2.0"));
      outs = updated.outs as Props;
      expect(outs).toMatchObject({
        servingVersion: "2.0",
        servingTemplateId: templates.next,
        previousVersion: "1.0",
        previousTemplateId: templates.good,
        settled: true,
      });
      expect((outs["history"] as Array<{ step: string }>).map((s) => s.step)).toEqual(["switch", "rolledOut"]);
      const rollout = await deps.provider.client().endpoints.rollout(endpointId);
      expect(rollout).toMatchObject({ inProgress: false, workersOnLatest: rollout.workersTotal });
      expect(rollout.workersTotal).toBeGreaterThanOrEqual(1);
      expect(await servingImage()).toEqual({ version: "2.0", prompt: "hi" });
    });

    it("with verifyAfterSwitch, goes back to the previous version when the cases fail after the switch", async () => {
      const sw = rolloutSwitchProvider(deps);
      degrades.reset(1); // in a rollout its first job is the canary's case, which passed
      const thrown = await sw.update!("switch-1", outs, switchInputs(templates.degrades, "4.0", { verifyAfterSwitch: true })).catch(
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(ResourceInitError);
      const error = thrown as ResourceInitError;
      expect(error.message).toContain(
        'rollout "serve": version 4.0 failed its check on the serving endpoint after the switch, so the endpoint was moved back to version 2.0',
      );
      expect(error.message).toContain("CUDA out of memory after the first request");
      expect(error.properties).toMatchObject({
        servingVersion: "2.0",
        servingTemplateId: templates.next,
        settled: true,
        verifyResults: [{ name: "answers", passed: false }],
      });
      expect((error.properties["history"] as Array<{ step: string }>).map((s) => s.step)).toEqual([
        "switch",
        "rolledOut",
        "verify",
        "rollback",
        "rolledOut",
      ]);
      expect(await servingImage()).toEqual({ version: "2.0", prompt: "hi" });
      if (api === "v1") expect((await h.client.getEndpoint(endpointId)).templateId).toBe(templates.next);
      // The engine records the partial update; the next run retries the switch.
      expect(
        (await sw.diff!("switch-1", error.properties, switchInputs(templates.degrades, "4.0", { verifyAfterSwitch: true }))).changes,
      ).toBe(true);
      outs = error.properties;
    });

    it("records the new version as unsettled when the check after the switch cannot run", async () => {
      const unreachable = new JobClient({ apiKey: "key", serverlessUrl: "http://127.0.0.1:9/v2", maxRetries: 0, timeoutMs: 2_000 });
      const sw = rolloutSwitchProvider({ ...deps, jobs: async () => unreachable });
      const thrown = await sw.update!(
        "switch-1",
        outs,
        switchInputs(templates.next, "2.0", { verifyAfterSwitch: true, templateRevision: "r2" }),
      ).catch((e: unknown) => e);
      await unreachable.close();
      expect(thrown).toBeInstanceOf(ResourceInitError);
      const error = thrown as ResourceInitError;
      expect(error.message).toContain('rollout "serve": the check after the switch to version 2.0 could not run');
      expect(error.properties).toMatchObject({ servingVersion: "2.0", servingRevision: "r2", settled: false });
      outs = error.properties;
    });

    it("an unsettled switch (a wait that ran out) is finished by the next run", async () => {
      const sw = rolloutSwitchProvider(deps);
      const unsettled = { ...outs, settled: false };
      const same = switchInputs(templates.next, "2.0", { templateRevision: "r2" });
      expect((await sw.diff!("switch-1", unsettled, same)).changes).toBe(true);
      const updated = await sw.update!("switch-1", unsettled, same);
      expect(updated.outs).toMatchObject({ servingVersion: "2.0", settled: true });
      expect(((updated.outs as Props)["history"] as Array<{ step: string }>).map((s) => s.step)).toEqual(["rolledOut"]);
    });
  });
});
