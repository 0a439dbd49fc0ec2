/**
 * Cost estimates through the real engine against the emulator's v2 API: a preview of a new stack
 * shows each resource's estimate and the CostReport's sum without creating anything; a budget below
 * the estimate fails the preview naming the dearest resource; after an up and one hour of service
 * time (the emulator's clock runs 1000x fast), the pod's and the endpoint's estimates agree with what the emulator bills; a
 * change of GPU count shows the new sum at preview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ManagementClientV2 } from "../../client/managementV2";
import type { CostEstimate } from "../../provider/cost/estimate";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, countsOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();
const HOUR_MS = 3_600_000;
const L4 = "NVIDIA L4";
/** The emulator's list price of an L4 (emulator/vocabulary/catalog.ts), USD per GPU per hour. */
const L4_PRICE = 0.43;

describe("cost estimates at preview, on v2", { timeout: 300_000 }, () => {
  const apiKey = "cost-estimates-key";
  let emulator: RunningEmulator;
  let engine: EngineStack;
  let client: ManagementClientV2;
  let gpuCount = 1;
  /** The endpoint the up created, for the last test. */
  let endpoint: { id: string; estimate: CostEstimate } | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [apiKey] });
    client = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey, maxRetries: 0 });
    engine = await createEngineStack({
      projectName: "cost-estimates",
      config: emulatorConfig(emulator, apiKey, "v2"),
      program: async () => {
        const pod = new gpucloud.Pod("trainer", { imageName: "example/pytorch:2.4", gpuTypeIds: [L4], gpuCount, dataCenterIds: ["EU-RO-1"] });
        const template = new gpucloud.Template("worker", { name: "cost-worker", imageName: "example/echo-worker:1.0", isServerless: true });
        const endpoint = new gpucloud.Endpoint("inference", { templateId: template.id, gpuTypeIds: [L4], workersMin: 1, workersMax: 3 });
        const volume = new gpucloud.NetworkVolume("models", { name: "cost-models", size: 20, dataCenterId: "EU-RO-1" });
        const report = new gpucloud.CostReport("cost", { resources: [pod, endpoint, volume] });
        return {
          podId: pod.id,
          endpointId: endpoint.id,
          podEstimate: pod.costEstimate,
          endpointEstimate: endpoint.costEstimate,
          volumeEstimate: volume.costEstimate,
          perHour: report.perHour,
          ceilingPerHour: report.ceilingPerHour,
        };
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await client?.close();
    await emulator?.close();
  });

  it("shows each estimate and the sum in a preview of a new stack, creating nothing", async () => {
    const preview = await engine.stack.preview();
    const out = preview.stdout;
    // Pod: one L4 on secure cloud; endpoint: one always-on L4 worker, three at most.
    expect(out).toContain(`estimated cost: ${L4_PRICE * 2} USD/hour always-on, ${L4_PRICE * 4} USD/hour ceiling`);
    expect(out).toContain("models: the catalog quotes no network volume storage price");
    expect(countsOf(accountOf(emulator, apiKey))).toMatchObject({ pods: 0, endpoints: 0, networkVolumes: 0 });
  });

  it("fails a preview whose estimate is over the budget, naming the dearest resource, before anything is created", async () => {
    await engine.stack.setConfig("gpucloud:budgetCeilingPerHour", { value: "1" });
    try {
      const failure = await engine.stack.preview().then(() => undefined, (error: unknown) => String(error));
      expect(failure).toContain(`ceiling ${L4_PRICE * 4} USD/hour exceeds gpucloud:budgetCeilingPerHour 1`);
      expect(failure).toContain("Costing most: inference");
      expect(countsOf(accountOf(emulator, apiKey))).toMatchObject({ pods: 0, endpoints: 0 });
    } finally {
      await engine.stack.removeConfig("gpucloud:budgetCeilingPerHour");
    }
  });

  it("the pod's estimate agrees within 1% with what the emulator bills for an hour of service time", async () => {
    const up = await engine.stack.up();
    const podEstimate = up.outputs["podEstimate"]?.value as CostEstimate;
    const endpointEstimate = up.outputs["endpointEstimate"]?.value as CostEstimate;
    expect(podEstimate).toMatchObject({ status: "estimated", perHour: L4_PRICE, prices: [{ item: `${L4} (secure cloud)`, unitPrice: L4_PRICE, quantity: 1 }] });
    expect(podEstimate.pricesReadAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(endpointEstimate).toMatchObject({ status: "estimated", perHour: L4_PRICE, ceilingPerHour: L4_PRICE * 3 });

    // Billing windows snap to whole buckets, so the hour's charge is the difference of two totals
    // since the pod was created, read an hour of service time apart.
    const podId = String(up.outputs["podId"]?.value);
    const billedSoFar = async () => {
      const at = emulator.clock.now();
      const { records } = await client.podBilling({ podId, startTime: new Date(at - 24 * HOUR_MS).toISOString(), endTime: new Date(at + HOUR_MS).toISOString() });
      return { at, amount: records.reduce((sum, r) => sum + r.totalAmount, 0) };
    };
    const before = await billedSoFar();
    await emulator.clock.sleep(HOUR_MS);
    const after = await billedSoFar();
    const billedPerHour = (after.amount - before.amount) / ((after.at - before.at) / HOUR_MS);
    expect(Math.abs(billedPerHour - podEstimate.perHour!) / podEstimate.perHour!).toBeLessThan(0.01);
    endpoint = { id: String(up.outputs["endpointId"]?.value), estimate: endpointEstimate };
  });

  it("shows the new sum at preview when the GPU count changes", async () => {
    gpuCount = 2;
    const preview = await engine.stack.preview();
    expect(preview.stdout).toContain(`estimated cost: ${L4_PRICE * 3} USD/hour always-on`);
    // The report's outputs, exported, show the change against the last up.
    expect(preview.stdout).toMatch(new RegExp(`perHour\\s*:\\s*${L4_PRICE * 2}\\s*=>\\s*${L4_PRICE * 3}`));
  });

  it("bills the endpoint's always-on worker at its estimate once the worker has stopped", async () => {
    expect(endpoint).toBeDefined();
    const { id, estimate } = endpoint!;
    // The emulator records a worker's usage when it stops: destroying the stack stops it. The v1
    // history is read because its records carry the billed time (v2's carry amounts only).
    await engine.stack.destroy();
    const workers = await gpucloud.getBilling({ kind: "endpoints", endpointId: id, grouping: "podId", bucketSize: "day" }, { apiKey, apiUrl: emulator.apiUrl });
    const billedMs = workers.records.reduce((sum, r) => sum + (r.timeBilledMs ?? 0), 0);
    const amount = workers.records.reduce((sum, r) => sum + (r.amount ?? 0), 0);
    expect(billedMs).toBeGreaterThanOrEqual(HOUR_MS);
    // One always-on worker (workersMin 1): the billed rate is the estimate's always-on rate.
    expect(Math.abs(amount / (billedMs / HOUR_MS) - estimate.perHour!) / estimate.perHour!).toBeLessThan(0.01);
  });
});
