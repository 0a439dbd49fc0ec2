import { describe, expect, it } from "vitest";
import type { CostEstimate } from "../../../provider/cost/estimate";
import { budgetExcess, budgetFromConfig, summarize, summaryLine } from "../../../provider/cost/summary";

const est = (perHour: number, ceilingPerHour?: number): CostEstimate => ({ status: "estimated", currency: "USD", perHour, ...(ceilingPerHour === undefined ? {} : { ceilingPerHour }) });

const entries = [
  { name: "trainer", estimate: est(5.38) },
  { name: "inference", estimate: est(0.43, 1.29) },
  { name: "models", estimate: { status: "unavailable", reason: "the catalog quotes no network volume storage price", currency: "USD" } as CostEstimate },
];

describe("cost summary", () => {
  it("sums always-on and ceiling rates (a pod's ceiling is its rate) and lists what is not priced", () => {
    const s = summarize(entries);
    expect(s).toMatchObject({ perHour: 5.81, ceilingPerHour: 6.67, perMonth: 0 });
    expect(s.unpriced).toEqual(["models: the catalog quotes no network volume storage price"]);
    expect(s.ranked.map((r) => r.name)).toEqual(["trainer", "inference"]);
    expect(summaryLine(s)).toContain("5.81 USD/hour always-on, 6.67 USD/hour ceiling");
  });

  it("fails a budget below the estimate, naming the dearest resources first", () => {
    const s = summarize(entries);
    expect(budgetExcess(s, { perHour: 10, ceilingPerHour: 10 })).toBeUndefined();
    const excess = budgetExcess(s, { ceilingPerHour: 6 });
    expect(excess).toContain("ceiling 6.67 USD/hour exceeds gpucloud:budgetCeilingPerHour 6");
    expect(excess).toMatch(/Costing most: trainer .*, inference/);
  });

  it("reads the budget from config and refuses a value that is not a positive number", () => {
    const config: Record<string, string> = { budgetPerHour: "2.5" };
    expect(budgetFromConfig((k) => config[k])).toEqual({ perHour: 2.5 });
    expect(() => budgetFromConfig((k) => (k === "budgetCeilingPerHour" ? "lots" : undefined))).toThrow(/gpucloud:budgetCeilingPerHour must be a positive number of USD per hour \(got "lots"\)/);
  });
});
