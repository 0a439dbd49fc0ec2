import { describe, expect, it } from "vitest";
import { resourceCostPolicy, stackCostPolicy } from "../../../sdk/policy";
import { estimateEndpoint, estimatePod } from "../../../model/cost/estimate";
import { priceSheetOf } from "../../../model/cost/priceSheet";
import { DECLARATIONS, runResourcePolicy, runStackPolicy, typeOf, UNKNOWN } from "../../support/policyHarness";

// The package's own estimates, as check records them on each resource under `costEstimate`.
const catalog = priceSheetOf(
  { gpus: [{ id: "NVIDIA L4", price: { secure: 0.5, community: 0.4, serverless: 0.6 } }], cpus: [] },
  new Date("2026-01-01T00:00:00Z"),
);
const podEstimate = estimatePod({ gpuTypeIds: ["NVIDIA L4"], gpuCount: 2 }, { catalog }); // 1 USD/hour
const endpointEstimate = estimateEndpoint({ gpuTypeIds: ["NVIDIA L4"], workersMin: 1, workersMax: 5 }, { catalog }); // 0.6 always on, 3 at most
const unpriced = estimatePod({ gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"] }, { catalog });

describe.each(DECLARATIONS)("gpucloud-cost-resource, declared as a %s resource", (via) => {
  const run = (kind: "pod" | "endpoint" | "networkVolume", costEstimate: unknown, config: object) =>
    runResourcePolicy(resourceCostPolicy, { kind, via, name: "r", props: { costEstimate } }, config);

  it("passes within the figures, and does nothing with no figure configured", () => {
    expect(podEstimate).toMatchObject({ status: "estimated", perHour: 1 });
    expect(run("pod", podEstimate, { maxHourlyUsd: 1 })).toEqual([]);
    expect(run("endpoint", endpointEstimate, { maxHourlyUsd: 1, maxCeilingHourlyUsd: 3 })).toEqual([]);
    expect(run("pod", unpriced, {})).toEqual([]);
  });

  it("reports an always-on and a ceiling rate over the figures", () => {
    expect(run("pod", podEstimate, { maxHourlyUsd: 0.5 })).toEqual([
      'Pod "r": estimated always-on cost 1 USD/hour is more than maxHourlyUsd (0.5 USD/hour); choose a cheaper GPU type or fewer GPUs, or raise maxHourlyUsd in the policy config',
    ]);
    expect(run("endpoint", endpointEstimate, { maxCeilingHourlyUsd: 2 })).toEqual([
      'Endpoint "r": estimated ceiling cost 3 USD/hour is more than maxCeilingHourlyUsd (2 USD/hour); lower workersMax, or raise maxCeilingHourlyUsd in the policy config',
    ]);
  });

  it("reports a cost that cannot be known, with the estimate's reason, unless allowed; waits for one known at apply", () => {
    const [message] = run("pod", unpriced, { maxHourlyUsd: 5 });
    expect(message).toMatch(/^Pod "r": cost unknown \(several gpuTypeIds: the price depends on which one/);
    expect(message).toContain("not counted as 0");
    expect(run("endpoint", undefined, { maxHourlyUsd: 5 })[0]).toMatch(/^Endpoint "r": cost unknown \(no estimate\)/);
    expect(run("pod", unpriced, { maxHourlyUsd: 5, allowUnpriced: true })).toEqual([]);
    expect(run("pod", UNKNOWN, { maxHourlyUsd: 5 })).toEqual([]);
    expect(run("pod", { status: "pending", reason: "gpuTypeIds not known until apply" }, { maxHourlyUsd: 5 })).toEqual([]);
    expect(run("networkVolume", undefined, { maxHourlyUsd: 5 })).toEqual([]);
  });
});

describe("gpucloud-cost-stack", () => {
  const stack = (via: "dynamic" | "plugin") => [
    { type: typeOf("pod", via), name: "trainer", props: { costEstimate: podEstimate } },
    { type: typeOf("endpoint", via), name: "inference", props: { costEstimate: endpointEstimate } },
    { type: "pulumi:pulumi:Stack", name: "project-dev", props: {} },
  ];

  it.each(DECLARATIONS)("sums as CostReport does (%s resources)", (via) => {
    expect(runStackPolicy(stackCostPolicy, stack(via), { maxHourlyUsd: 1.6, maxCeilingHourlyUsd: 4 })).toEqual([]);
    expect(runStackPolicy(stackCostPolicy, stack(via), { maxHourlyUsd: 1.5, maxCeilingHourlyUsd: 3.5 })).toEqual([
      'stack: estimated always-on cost 1.6 USD/hour (dearest: Pod "trainer" 1, Endpoint "inference" 0.6) is more than maxHourlyUsd (1.5 USD/hour); lower workersMin or stop pods, or raise maxHourlyUsd in the policy config',
      "stack: estimated ceiling cost 4 USD/hour with every endpoint at workersMax is more than maxCeilingHourlyUsd (3.5 USD/hour); lower workersMax, or raise maxCeilingHourlyUsd in the policy config",
    ]);
  });

  it("names the resources whose cost cannot be known, never counting them as 0", () => {
    const entries = [...stack("plugin"), { type: typeOf("pod", "dynamic"), name: "spot", props: { costEstimate: unpriced } }];
    const [underLimit] = runStackPolicy(stackCostPolicy, entries, { maxHourlyUsd: 10 });
    expect(underLimit).toMatch(
      /^stack: the cost of 1 resource\(s\) cannot be estimated, so the stack cannot be held to its cost limit \(they are not counted as 0\): Pod "spot": several gpuTypeIds/,
    );
    const [overLimit] = runStackPolicy(stackCostPolicy, entries, { maxHourlyUsd: 1 });
    expect(overLimit).toMatch(/is more than maxHourlyUsd \(1 USD\/hour\) \(not counted, cost unknown: Pod "spot": several gpuTypeIds/);
    expect(runStackPolicy(stackCostPolicy, entries, { maxHourlyUsd: 10, allowUnpriced: true })).toEqual([]);
  });
});
