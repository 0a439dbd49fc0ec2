/**
 * The account's limits at preview, through the real engine: a stack whose endpoints would exceed
 * the emulator's serverless worker quota, or whose always-on cost would exceed its hourly spend cap,
 * fails `pulumi preview` naming the cap, the figure and what uses most, before anything is created,
 * so `pulumi up`, which previews first, creates nothing; a key without `account:read` gets one
 * warning instead, never a failure. (The automation API's `up` always skips the preview, so the
 * CLI's preview-then-update is shown here by its preview.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();
const L4 = "NVIDIA L4";
const NO_ACCOUNT_READ = [
  "pods:read",
  "pods:write",
  "serverless:read",
  "serverless:write",
  "templates:read",
  "templates:write",
  "catalog:read",
];

describe("the account's limits at preview, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  const stacks: EngineStack[] = [];

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      timeScale: 0.01,
      serverlessWorkerQuota: 4,
      spendCapPerHour: 0.3,
      apiKeys: ["full-key", { key: "no-account-read", scopes: NO_ACCOUNT_READ }],
    });
  });
  afterAll(async () => {
    for (const engine of stacks) await engine.dispose().catch(() => undefined);
    await emu?.close();
  });

  async function stack(projectName: string, apiKey: string, declare: () => void): Promise<EngineStack> {
    const engine = await createEngineStack({
      projectName,
      config: emulatorConfig(emu, apiKey, "v2"),
      program: async () => {
        declare();
        const cost = new gpucloud.CostReport("cost");
        return { perHour: cost.perHour };
      },
    });
    stacks.push(engine);
    return engine;
  }

  const endpoints = (prefix: string) => () => {
    const template = new gpucloud.Template("worker", { name: `${prefix}-worker`, imageName: "example/worker:1", isServerless: true });
    new gpucloud.Endpoint("big", { name: `${prefix}-big`, templateId: template.id, gpuTypeIds: [L4], workersMax: 4 });
    new gpucloud.Endpoint("small", { name: `${prefix}-small`, templateId: template.id, gpuTypeIds: [L4], workersMax: 2 });
  };

  it("endpoints over the worker quota fail the preview naming the quota, the sum and the endpoints; nothing is created", async () => {
    const engine = await stack("over-quota", "full-key", endpoints("quota"));
    await expect(engine.stack.preview()).rejects.toThrow(/over the account's serverless worker quota/);
    const output = engine.output();
    expect(output).toContain(
      "the sum of workersMax over the account's endpoints would be 6 (this stack's 2 endpoint(s): 6; the account's 0 other endpoint(s): 0)",
    );
    expect(output).toContain("over its quota of 4 (serverlessWorkers, GET /v2/account/limits)");
    expect(output).toContain("Using most: big (4), small (2)");
    const account = accountOf(emu, "full-key");
    expect([account.endpoints.length, account.templates.length]).toEqual([0, 0]);
  });

  it("always-on cost over the spend cap fails the preview naming the cap, the figure and the pod; nothing is created", async () => {
    const engine = await stack("over-cap", "full-key", () => {
      new gpucloud.Pod("trainer", { imageName: "example/app:1", gpuTypeIds: [L4], gpuCount: 2, dataCenterIds: ["EU-RO-1"] });
    });
    await expect(engine.stack.preview()).rejects.toThrow(/over the account's hourly spend cap/);
    const output = engine.output();
    expect(output).toMatch(
      /this stack's always-on estimate is [0-9.]+ USD\/hour .*over its cap of 0\.3 USD\/hour \(spendRate, GET \/v2\/account\/limits\)/,
    );
    expect(output).toMatch(/Costing most: trainer \([0-9.]+ USD\/hour\)/);
    expect(accountOf(emu, "full-key").pods).toEqual([]);
  });

  it("a key without account:read: one warning that says so, and the preview passes", async () => {
    const engine = await stack("no-scope", "no-account-read", endpoints("noscope"));
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ create: expect.any(Number) });
    const output = engine.output();
    // One warning (the engine may print a diagnostic twice: as it happens and in the summary).
    const warnings = [...new Set(output.match(/CostReport "cost": [^\n]*was not checked against the account's limits[^\n]*/g) ?? [])];
    expect(warnings, warnings.join("\n---\n")).toHaveLength(1);
    expect(warnings[0]).toContain('scope "account:read"');
    expect(output).not.toContain("over the account's serverless worker quota");
  });
});
