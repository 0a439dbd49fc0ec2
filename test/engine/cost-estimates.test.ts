/**
 * Cost estimates through the real engine against the emulator's v2 API, with the emulator's storage
 * and disk rates as the user's own prices (`gpucloud:prices`). A preview of a new stack shows each
 * resource's estimate and the CostReport's sum without creating anything; the report finds the
 * stack's priced resources by itself and warns of one declared after it; a budget below the
 * estimate fails the preview naming the dearest resource; after an up and one hour of service time
 * (the emulator's clock runs 1000x fast), the pod's, the volume's and the endpoint's estimates agree
 * with what the emulator bills; the next preview is clean, and a change of GPU count (or of the
 * user's storage price) shows the difference against the last up in the preview's output, without
 * any stack output exported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { NETWORK_VOLUME_PRICE_PER_GB_MONTH } from "../../emulator/vocabulary/catalog";
import { ManagementClientV2 } from "../../client/managementV2";
import type { CostEstimate } from "../../model/cost/estimate";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { EMULATOR_PRICES_CONFIG } from "../../scripts/lib/emulatorPrices";
import { accountOf, countsOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();
const HOUR_MS = 3_600_000;
const HOURS_PER_MONTH = 720;
const L4 = "NVIDIA L4";
/** The emulator's list price of an L4 (emulator/vocabulary/catalog.ts), USD per GPU per hour. */
const L4_PRICE = 0.43;
const VOLUME_GB = 100;
/** The volume's storage per month at the emulator's rate, as the estimate rounds it. */
const VOLUME_PER_MONTH = Math.round(VOLUME_GB * NETWORK_VOLUME_PRICE_PER_GB_MONTH * 1e6) / 1e6;

describe("cost estimates at preview, on v2", { timeout: 300_000 }, () => {
  const apiKey = "cost-estimates-key";
  let emulator: RunningEmulator;
  let engine: EngineStack;
  let client: ManagementClientV2;
  let gpuCount = 1;
  /** Declares a priced resource after the report, which it cannot see. */
  let lateVolume = false;
  /** The CostReport's budget argument, when the program sets one. */
  let codeBudget: { perHour?: number; perMonth?: number } | undefined;
  /** The endpoint the up created, for the last test. */
  let endpoint: { id: string; estimate: CostEstimate } | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [apiKey] });
    client = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey, maxRetries: 0 });
    engine = await createEngineStack({
      projectName: "cost-estimates",
      config: { ...emulatorConfig(emulator, apiKey, "v2"), "gpucloud:prices": { value: EMULATOR_PRICES_CONFIG } },
      program: async () => {
        const pod = new gpucloud.Pod("trainer", {
          imageName: "example/pytorch:2.4",
          gpuTypeIds: [L4],
          gpuCount,
          dataCenterIds: ["EU-RO-1"],
        });
        const template = new gpucloud.Template("worker", { name: "cost-worker", imageName: "example/echo-worker:1.0", isServerless: true });
        const endpoint = new gpucloud.Endpoint("inference", { templateId: template.id, gpuTypeIds: [L4], workersMin: 1, workersMax: 3 });
        const volume = new gpucloud.NetworkVolume("models", { name: "cost-models", size: VOLUME_GB, dataCenterId: "EU-RO-1" });
        // No list: the report sums the priced resources declared before it. Nothing of it is exported.
        new gpucloud.CostReport("cost", codeBudget ? { budget: codeBudget } : {});
        if (lateVolume) new gpucloud.NetworkVolume("late", { name: "cost-late", size: 10, dataCenterId: "EU-RO-1" });
        return {
          podId: pod.id,
          endpointId: endpoint.id,
          volumeId: volume.id,
          podEstimate: pod.costEstimate,
          endpointEstimate: endpoint.costEstimate,
          volumeEstimate: volume.costEstimate,
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
    const preview = await engine.stack.preview({ diff: true });
    // With --diff the engine prints the provider's lines on stderr (without it, among the diagnostics on stdout).
    const out = `${preview.stdout}${preview.stderr}`;
    // Pod: one L4 on secure cloud (disks at 0); endpoint: one always-on L4 worker, three at most; volume: 100 GB.
    expect(out).toContain(
      `estimated cost: ${L4_PRICE * 2} USD/hour always-on, ${L4_PRICE * 4} USD/hour ceiling, ${VOLUME_PER_MONTH} USD/month storage (no earlier up to compare with)`,
    );
    expect(out).not.toContain("not priced");
    // Each resource's estimate is among its planned outputs: its figures and one basis line naming the prices.
    expect(out).toMatch(new RegExp(`perMonth\\s*:\\s*${VOLUME_PER_MONTH}\\b`));
    // No tier declared, and one price for both: that price, without naming a tier the service picks.
    expect(out).toMatch(/basis\s*:\s*"storage \(either tier\) [\d.]+ USD\/GB-month x 100 \(your price\)"/);
    expect(out).toMatch(/basis\s*:\s*"NVIDIA L4 \(serverless\) 0\.43 USD\/GPU-hour x 1 per worker; 1 always-on, up to 3 when busy"/);
    // Where the prices came from is kept once per stack, not per resource.
    expect(out).not.toMatch(/readAt|source\s*:/);
    expect(countsOf(accountOf(emulator, apiKey))).toMatchObject({ pods: 0, endpoints: 0, networkVolumes: 0 });
  });

  it("fails a preview whose estimate is over the budget, naming the dearest resource, before anything is created", async () => {
    await engine.stack.setConfig("gpucloud:budgetCeilingPerHour", { value: "1" });
    try {
      const failure = await engine.stack.preview().then(
        () => undefined,
        (error: unknown) => String(error),
      );
      expect(failure).toContain(`ceiling ${L4_PRICE * 4} USD/hour exceeds gpucloud:budgetCeilingPerHour 1`);
      expect(failure).toContain("Costing most: inference");
      expect(countsOf(accountOf(emulator, apiKey))).toMatchObject({ pods: 0, endpoints: 0, networkVolumes: 0 });
    } finally {
      await engine.stack.removeConfig("gpucloud:budgetCeilingPerHour");
    }
  });

  it("an hourly budget does not wait for a storage price; the argument wins over config, and the preview says they differ", async () => {
    await engine.stack.removeConfig("gpucloud:prices");
    await engine.stack.setConfig("gpucloud:budgetPerHour", { value: "100" });
    try {
      // No price sheet: the volume's storage is not priced, which only a monthly budget needs.
      const preview = await engine.stack.preview();
      const out = `${preview.stdout}${preview.stderr}`;
      // The volume declares no tier, and the data center's primary tier is not published.
      expect(out).toMatch(/not priced: models: no type declared: the volume gets its data center's primary storage tier/);
      await engine.stack.setConfig("gpucloud:budgetPerMonth", { value: "100" });
      const monthly = await engine.stack.preview().then(
        () => "",
        (error: unknown) => String(error),
      );
      expect(monthly).toContain(
        "the stack's cost cannot be held to gpucloud:budgetPerMonth: a resource is not priced (models: no type declared",
      );
      await engine.stack.removeConfig("gpucloud:budgetPerMonth");
      // The program sets a lower hourly budget than config: the argument applies, named as such.
      codeBudget = { perHour: 0.5 };
      const failure = await engine.stack.preview().then(
        () => "",
        (error: unknown) => String(error),
      );
      expect(failure).toContain(
        "the budget argument's perHour (0.5) and stack config gpucloud:budgetPerHour (100) differ: the argument's applies",
      );
      expect(failure).toContain(`always-on ${L4_PRICE * 2} USD/hour exceeds the CostReport's budget.perHour 0.5`);
      expect(countsOf(accountOf(emulator, apiKey))).toMatchObject({ pods: 0, endpoints: 0, networkVolumes: 0 });
    } finally {
      codeBudget = undefined;
      await engine.stack.removeConfig("gpucloud:budgetPerHour");
      await engine.stack.setConfig("gpucloud:prices", { value: EMULATOR_PRICES_CONFIG });
    }
  });

  it("the pod's and the volume's estimates agree within 1% with what the emulator bills for an hour of service time", async () => {
    const up = await engine.stack.up();
    const podEstimate = up.outputs["podEstimate"]?.value as CostEstimate;
    const endpointEstimate = up.outputs["endpointEstimate"]?.value as CostEstimate;
    const volumeEstimate = up.outputs["volumeEstimate"]?.value as CostEstimate;
    expect(podEstimate).toMatchObject({ status: "estimated", perHour: L4_PRICE });
    // The basis names the catalog's price, then the container disk at the user's price (a v2 pod has
    // no pod volume unless it declares one).
    expect(podEstimate.basis).toMatch(
      new RegExp(`^${L4} \\(secure cloud\\) ${L4_PRICE} USD/GPU-hour x 1 \\+ container disk .* \\(your price\\)$`),
    );
    expect(endpointEstimate).toMatchObject({ status: "estimated", perHour: L4_PRICE, ceilingPerHour: L4_PRICE * 3 });
    expect(volumeEstimate).toMatchObject({ status: "estimated", perMonth: VOLUME_PER_MONTH });
    expect(volumeEstimate.basis).toBe(
      `storage (either tier) ${NETWORK_VOLUME_PRICE_PER_GB_MONTH} USD/GB-month x ${VOLUME_GB} (your price)`,
    );

    // Billing windows snap to whole buckets, so the hour's charge is the difference of two totals
    // since the resources were created, read an hour of service time apart. Each reading is
    // bracketed by the emulator's clock before and after it (at this time scale one ms of real time
    // is a second of service time, and a loaded machine stretches a reading to tens of ms), so the
    // time between the two readings is only known to lie in [fewestHours, mostHours]. The check:
    // some duration in that bracket gives a billed rate within 1% of the estimate. Each reading is
    // taken a few times and the narrowest bracket kept, and the bracket must stay under 2% wide, so
    // the check cannot pass a rate more than about 3% off.
    const podId = String(up.outputs["podId"]?.value);
    const networkVolumeId = String(up.outputs["volumeId"]?.value);
    const readOnce = async () => {
      const from = emulator.clock.now();
      const window = { startTime: new Date(from - 24 * HOUR_MS).toISOString(), endTime: new Date(from + 2 * HOUR_MS).toISOString() };
      const [pods, volumes] = await Promise.all([
        client.podBilling({ podId, ...window }),
        client.networkVolumeBilling({ networkVolumeId, ...window }),
      ]);
      const sum = (records: Array<{ totalAmount: number }>) => records.reduce((total, r) => total + r.totalAmount, 0);
      return { from, to: emulator.clock.now(), pod: sum(pods.records), volume: sum(volumes.records) };
    };
    const billedSoFar = async () => {
      let narrowest = await readOnce();
      for (let attempt = 1; attempt < 5; attempt++) {
        const reading = await readOnce();
        if (reading.to - reading.from < narrowest.to - narrowest.from) narrowest = reading;
      }
      return narrowest;
    };
    const before = await billedSoFar();
    await emulator.clock.sleep(HOUR_MS);
    const after = await billedSoFar();
    const fewestHours = (after.from - before.to) / HOUR_MS;
    const mostHours = (after.to - before.from) / HOUR_MS;
    expect(mostHours / fewestHours, "the readings took too long to say anything").toBeLessThan(1.02);
    const agrees = (billed: number, estimate: number, unitHours = 1) =>
      (billed / fewestHours) * unitHours >= estimate * 0.99 && (billed / mostHours) * unitHours <= estimate * 1.01;
    expect(
      agrees(after.pod - before.pod, podEstimate.perHour!),
      `pod billed ${after.pod - before.pod} USD over ${fewestHours}..${mostHours} h, estimate ${podEstimate.perHour} USD/hour`,
    ).toBe(true);
    expect(after.volume - before.volume).toBeGreaterThan(0);
    expect(
      agrees(after.volume - before.volume, volumeEstimate.perMonth!, HOURS_PER_MONTH),
      `volume billed ${after.volume - before.volume} USD over ${fewestHours}..${mostHours} h, estimate ${volumeEstimate.perMonth} USD/month`,
    ).toBe(true);
    endpoint = { id: String(up.outputs["endpointId"]?.value), estimate: endpointEstimate };
  });

  it("previews no changes after the up, saying the cost is unchanged", async () => {
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.stdout).toContain("(no change since the last up)");
  });

  it("shows the difference against the last up in the preview when the GPU count changes", async () => {
    gpuCount = 2;
    try {
      const preview = await engine.stack.preview();
      expect(preview.stdout).toContain(
        `estimated cost: ${L4_PRICE * 3} USD/hour always-on, ${L4_PRICE * 5} USD/hour ceiling, ${VOLUME_PER_MONTH} USD/month storage ` +
          `(+${L4_PRICE} USD/hour always-on vs the last up: ${L4_PRICE * 2}; +${L4_PRICE} USD/hour ceiling vs the last up: ${L4_PRICE * 4})`,
      );
      // The report's record is planned to change, naming the figures.
      expect(preview.stdout).toMatch(/gpucloud:CostSummary\s+cost-summary\s+update\s+\[diff: ~[^\]]*perHour/);
    } finally {
      gpuCount = 1;
    }
  });

  it("warns of a priced resource declared after the report, naming both, and leaves it out of the sum", async () => {
    lateVolume = true;
    try {
      const preview = await engine.stack.preview();
      expect(preview.stdout).toContain(
        'NetworkVolume "late" is declared after CostReport "cost", which sums only the priced resources declared before it',
      );
      expect(preview.stdout).toContain(`${VOLUME_PER_MONTH} USD/month storage (no change since the last up)`);
    } finally {
      lateVolume = false;
    }
  });

  it("takes a new price of gpucloud:prices into an unchanged resource's estimate, touching nothing in the service", async () => {
    const doubled = JSON.stringify({
      ...JSON.parse(EMULATOR_PRICES_CONFIG),
      networkVolumePerGbMonth: NETWORK_VOLUME_PRICE_PER_GB_MONTH * 2,
    });
    await engine.stack.setConfig("gpucloud:prices", { value: doubled });
    try {
      const preview = await engine.stack.preview();
      expect(preview.stdout).toContain(
        `${VOLUME_PER_MONTH * 2} USD/month storage (+${VOLUME_PER_MONTH} USD/month storage vs the last up: ${VOLUME_PER_MONTH})`,
      );
      expect(preview.stdout).toMatch(/gpucloud:NetworkVolume\s+models\s+update\s+\[diff: ~costEstimate\]/);
      expect(preview.changeSummary).toMatchObject({ update: 2 });
      // --diff shows the figures that changed and the basis line, not a list of prices with read times.
      const diff = await engine.stack.preview({ diff: true });
      const shown = `${diff.stdout}${diff.stderr}`;
      expect(shown).toMatch(new RegExp(`perMonth\\s*:\\s*${VOLUME_PER_MONTH}\\s*=>\\s*${VOLUME_PER_MONTH * 2}`));
      expect(shown).not.toMatch(/readAt|prices\s*:/);
      // The report's record names the resource whose figures changed, once (its estimates are keyed by name).
      expect(shown).toMatch(
        new RegExp(`~ models\\s*:\\s*{\\s*~ perMonth\\s*:\\s*${VOLUME_PER_MONTH}\\s*=>\\s*${VOLUME_PER_MONTH * 2}\\s+status`),
      );
      expect(shown).not.toMatch(/~ (inference|trainer)\s*:/);
      expect(shown).not.toMatch(/resources\s*:\s*\[/);
      // The up records the new estimate; the service's pod and volume stay exactly as they were.
      const before = accountOf(emulator, apiKey);
      const up = await engine.stack.up();
      expect(up.outputs["volumeEstimate"]?.value).toMatchObject({ perMonth: VOLUME_PER_MONTH * 2 });
      const after = accountOf(emulator, apiKey);
      expect(after.networkVolumes).toEqual(before.networkVolumes);
      expect(after.pods).toEqual(before.pods);
    } finally {
      await engine.stack.setConfig("gpucloud:prices", { value: EMULATOR_PRICES_CONFIG });
    }
  });

  it("bills the endpoint's always-on worker at its estimate once the worker has stopped", async () => {
    expect(endpoint).toBeDefined();
    const { id, estimate } = endpoint!;
    // The emulator records a worker's usage when it stops: destroying the stack stops it. The v1
    // history is read because its records carry the billed time (v2's carry amounts only).
    await engine.stack.destroy();
    const workers = await gpucloud.getBilling(
      { kind: "endpoints", endpointId: id, grouping: "podId", bucketSize: "day" },
      { apiKey, apiUrl: emulator.apiUrl },
    );
    const billedMs = workers.records.reduce((sum, r) => sum + (r.timeBilledMs ?? 0), 0);
    const amount = workers.records.reduce((sum, r) => sum + (r.amount ?? 0), 0);
    expect(billedMs).toBeGreaterThanOrEqual(HOUR_MS);
    // One always-on worker (workersMin 1): the billed rate is the estimate's always-on rate.
    expect(Math.abs(amount / (billedMs / HOUR_MS) - estimate.perHour!) / estimate.perHour!).toBeLessThan(0.01);
  });
});
