import { describe, expect, it } from "vitest";
import type { CostEstimate } from "../../../model/cost/estimate";
import {
  budgetExcess,
  budgetFromConfig,
  changeAgainst,
  figuresOf,
  resolveBudget,
  summarize,
  summaryLine,
} from "../../../model/cost/summary";

const est = (perHour: number, ceilingPerHour?: number): CostEstimate => ({
  status: "estimated",
  perHour,
  ...(ceilingPerHour === undefined ? {} : { ceilingPerHour }),
});

const entries = [
  { name: "trainer", estimate: est(5.38) },
  { name: "inference", estimate: est(0.43, 1.29) },
  { name: "models", estimate: { status: "estimated", perMonth: 1.4 } as CostEstimate },
  { name: "scratch", estimate: { status: "unavailable", reason: "the catalog quotes no storage price", currency: "USD" } as CostEstimate },
];

describe("cost summary", () => {
  it("sums always-on and ceiling rates (a pod's ceiling is its rate) and storage, and lists what is not priced", () => {
    const s = summarize(entries);
    expect(s).toMatchObject({ perHour: 5.81, ceilingPerHour: 6.67, perMonth: 1.4 });
    expect(s.unpriced).toEqual(["scratch: the catalog quotes no storage price"]);
    expect(s.ranked.map((r) => r.name)).toEqual(["trainer", "inference"]);
    expect(summaryLine(s)).toBe(
      "estimated cost: 5.81 USD/hour always-on, 6.67 USD/hour ceiling, 1.4 USD/month storage; not priced: scratch: the catalog quotes no storage price",
    );
  });

  it("says what changed against the last up, figure by figure", () => {
    const last = summarize([
      { name: "trainer", estimate: est(0.43) },
      { name: "inference", estimate: est(0.43, 1.29) },
    ]);
    const now = summarize([
      { name: "trainer", estimate: est(0.86) },
      { name: "inference", estimate: est(0.43, 1.29) },
    ]);
    expect(changeAgainst(last, now)).toBe("+0.43 USD/hour always-on vs the last up: 0.86; +0.43 USD/hour ceiling vs the last up: 1.72");
    expect(changeAgainst(now, last)).toBe("-0.43 USD/hour always-on vs the last up: 1.29; -0.43 USD/hour ceiling vs the last up: 2.15");
    expect(changeAgainst(now, now)).toBe("no change since the last up");
    expect(changeAgainst(undefined, now)).toBe("no earlier up to compare with");
    expect(summaryLine(now, changeAgainst(last, now))).toBe(
      "estimated cost: 1.29 USD/hour always-on, 2.15 USD/hour ceiling, 0 USD/month storage (+0.43 USD/hour always-on vs the last up: 0.86; +0.43 USD/hour ceiling vs the last up: 1.72)",
    );
  });

  it("keeps an estimate's figures and drops its basis and own-price digest", () => {
    const full: CostEstimate = { ...est(0.45), basis: "x 0.43 USD/GPU-hour x 1", ownPrices: "0123456789abcdef" };
    expect(figuresOf(full)).toEqual({ status: "estimated", perHour: 0.45 });
    expect(figuresOf(undefined)).toEqual({ status: "unavailable", reason: "no estimate" });
  });

  it("fails a budget below the estimate, naming the dearest resources first", () => {
    const s = summarize(entries.filter((e) => e.name !== "scratch"));
    expect(budgetExcess(s, { perHour: 10, ceilingPerHour: 10 })).toBeUndefined();
    const excess = budgetExcess(s, { ceilingPerHour: 6 });
    expect(excess).toContain("ceiling 6.67 USD/hour exceeds gpucloud:budgetCeilingPerHour 6");
    expect(excess).toMatch(/Costing most: trainer .*, inference/);
  });

  it("reads the budget from config and refuses a value that is not a positive number", () => {
    const config: Record<string, string> = { budgetPerHour: "2.5" };
    expect(budgetFromConfig((k) => config[k])).toEqual({ perHour: 2.5 });
    expect(() => budgetFromConfig((k) => (k === "budgetCeilingPerHour" ? "lots" : undefined))).toThrow(
      /gpucloud:budgetCeilingPerHour must be a positive number of USD per hour \(got "lots"\)/,
    );
  });

  it("a budget never passes on resources it cannot price: it names them and what would price them", () => {
    const s = summarize(entries);
    expect(budgetExcess(s, { perHour: 10, ceilingPerHour: 10 })).toBe(
      "the stack's cost cannot be held to gpucloud:budgetPerHour and gpucloud:budgetCeilingPerHour: a resource is not priced " +
        "(scratch: the catalog quotes no storage price). Price them as each reason says (the v2 API's catalog, or your own prices in gpucloud:prices), or remove the budget.",
    );
    // An estimate waiting for values known at apply is checked again then.
    const pending = summarize([
      { name: "trainer", estimate: est(0.43) },
      { name: "later", estimate: { status: "pending", reason: "gpuTypeIds not known until apply" } },
    ]);
    expect(budgetExcess(pending, { perHour: 10 })).toBeUndefined();
    // No budget: nothing to hold.
    expect(budgetExcess(s, {})).toBeUndefined();
  });

  it("a report with nothing priced says so, never 0 USD/hour", () => {
    const v1 = summarize([
      { name: "trainer", estimate: { status: "unavailable", reason: "the v1 management API has no price catalog" } },
      { name: "inference", estimate: { status: "unavailable", reason: "the v1 management API has no price catalog" } },
    ]);
    const line = summaryLine(v1);
    expect(line).toBe(
      "estimated cost: not priced: trainer: the v1 management API has no price catalog; inference: the v1 management API has no price catalog",
    );
    expect(line).not.toContain("0 USD/hour");
    expect(budgetExcess(v1, { perHour: 0.01 })).toMatch(/cannot be held to gpucloud:budgetPerHour: 2 resources are not priced/);
  });

  it("storage is shown, not limited: an unpriced volume holds up a monthly budget only", () => {
    const volumes = entries.map((e) => ({ ...e, storage: e.name === "models" || e.name === "scratch" }));
    const s = summarize(volumes);
    expect(budgetExcess(s, { perHour: 10, ceilingPerHour: 10 })).toBeUndefined();
    expect(budgetExcess(s, { perHour: 10, perMonth: 100 })).toBe(
      "the stack's cost cannot be held to gpucloud:budgetPerMonth: a resource is not priced (scratch: the catalog quotes no storage price). " +
        "Price them as each reason says (the v2 API's catalog, or your own prices in gpucloud:prices), or remove the budget.",
    );
    const priced = summarize(volumes.filter((e) => e.name !== "scratch"));
    expect(budgetExcess(priced, { perMonth: 2 })).toBeUndefined();
    expect(budgetExcess(priced, { perMonth: 1 })).toContain("storage 1.4 USD/month exceeds gpucloud:budgetPerMonth 1");
  });

  it("names the limit where it was set: the CostReport's argument or stack config", () => {
    const s = summarize(entries.filter((e) => e.name !== "scratch"));
    expect(budgetExcess(s, { perHour: 1 }, { perHour: "argument" })).toContain(
      "always-on 5.81 USD/hour exceeds the CostReport's budget.perHour 1",
    );
    expect(budgetExcess(s, { perHour: 1 }, { perHour: "config" })).toContain("exceeds gpucloud:budgetPerHour 1");
  });

  it("the argument wins limit by limit, config fills the rest, and a conflict is reported naming both", () => {
    expect(resolveBudget({ perHour: 2 }, { perHour: 2, perMonth: 50 })).toEqual({
      budget: { perHour: 2, perMonth: 50 },
      sources: { perHour: "argument", perMonth: "config" },
      conflicts: [],
    });
    const conflict = resolveBudget({ ceilingPerHour: 3 }, { ceilingPerHour: 8 });
    expect(conflict.budget).toEqual({ ceilingPerHour: 3 });
    expect(conflict.conflicts).toEqual([
      "the budget argument's ceilingPerHour (3) and stack config gpucloud:budgetCeilingPerHour (8) differ: the argument's applies. " +
        "Remove one of them (`pulumi config rm gpucloud:budgetCeilingPerHour`, or ceilingPerHour from the budget argument) so that one value is stated.",
    ]);
    expect(resolveBudget(undefined, {})).toEqual({ budget: {}, sources: {}, conflicts: [] });
    expect(budgetFromConfig((k) => (k === "budgetPerMonth" ? "25" : undefined))).toEqual({ perMonth: 25 });
    expect(() => budgetFromConfig((k) => (k === "budgetPerMonth" ? "-1" : undefined))).toThrow(/USD per month/);
  });
});
