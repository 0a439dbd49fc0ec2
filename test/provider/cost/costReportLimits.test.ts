// A CostReport against the emulator's v2 account limits, with the estimates the pods' own check
// makes from the emulator's catalog: stopped pods are not counted as running against the spend cap
// or the budget, and an answer whose caps cannot be read says so instead of passing in silence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costSummaryProviderWith } from "../../../provider/cost/summaryProvider";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { pricesOf } from "../../../model/cost/priceSheet";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

/** Eight H100s: 21.52 USD/hour at the emulator's catalog price, so four running are over its 80 USD/hour cap. */
const bigPod = (name: string, desiredStatus?: "EXITED") => ({
  name,
  imageName: "img:1",
  gpuTypeIds: ["NVIDIA H100 80GB HBM3"],
  gpuCount: 8,
  ...(desiredStatus ? { desiredStatus } : {}),
  __provider: "shim",
});

/** The report's inputs: each pod's estimate as its check put it on the inputs. */
async function reportOf(h: Harness, pods: Array<Record<string, unknown>>): Promise<Record<string, unknown>> {
  const providers = buildResourceProviders({ ...h.deps, prices: () => pricesOf(h.deps.client().account ?? {}) });
  const estimates: Record<string, unknown> = {};
  for (const pod of pods) estimates[String(pod["name"])] = (await checked(providers.pod, pod))["costEstimate"];
  return { report: "cost", estimates, budget: { perHour: 30 }, __provider: "shim" };
}

describe("a CostReport with one running and three stopped pods (v2)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  it("passes the spend cap and the budget: only the running pod's compute counts", async () => {
    const inputs = await reportOf(h, [bigPod("on"), bigPod("off-1", "EXITED"), bigPod("off-2", "EXITED"), bigPod("off-3", "EXITED")]);
    const warnings: string[] = [];
    const report = costSummaryProviderWith({ info: () => undefined, warn: (m) => void warnings.push(m) }, () => h.deps.client());
    const result = await report.check!({}, inputs);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ perHour: 21.52 });
    expect(warnings).toEqual([]);
    const stopped = (inputs["estimates"] as Record<string, { perHour: number; basis: string }>)["off-1"];
    expect(stopped).toMatchObject({
      perHour: 0,
      basis: expect.stringMatching(/^stopped \(desiredStatus "EXITED"\): no GPU or vCPU billed/),
    });
  });

  it("four running pods are still over the cap, at preview", async () => {
    const inputs = await reportOf(h, [bigPod("a"), bigPod("b"), bigPod("c"), bigPod("d")]);
    const report = costSummaryProviderWith({ info: () => undefined, warn: () => undefined }, () => h.deps.client());
    const reasons = ((await report.check!({}, { ...inputs, budget: undefined })).failures ?? []).map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/over the account's hourly spend cap: .* 86\.08 USD\/hour .* cap of 80 USD\/hour/);
  });
});

describe("account limits whose caps cannot be read", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02, quirks: { accountLimitsOtherFieldNames: true } }, "v2");
  });
  afterAll(() => h.close());

  it("warn that the stack was not checked against them, naming the fields read", async () => {
    const inputs = await reportOf(h, [bigPod("a"), bigPod("b"), bigPod("c"), bigPod("d")]);
    const warnings: string[] = [];
    const report = costSummaryProviderWith({ info: () => undefined, warn: (m) => void warnings.push(m) }, () => h.deps.client());
    const result = await report.check!({}, { ...inputs, budget: undefined });
    expect(result.failures).toEqual([]);
    expect(warnings.join("\n")).toMatch(
      /not checked against the hourly spend cap \(spendRate\.limit\) nor the serverless worker quota \(serverlessWorkers\.limit\).*still enforces/,
    );
  });
});
