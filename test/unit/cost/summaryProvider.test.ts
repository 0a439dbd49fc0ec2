import { describe, expect, it } from "vitest";
import { costSummaryProviderWith } from "../../../provider/cost/summaryProvider";
import { UNKNOWN } from "../../../provider/resources/values";

function recorder() {
  const lines: string[] = [];
  const provider = costSummaryProviderWith({ info: (m) => lines.push(m), warn: (m) => lines.push(`warn: ${m}`) });
  return { lines, provider };
}

const pod = (perHour: number) => ({ name: "trainer", estimate: { status: "estimated", perHour } });
const endpoint = { name: "inference", estimate: { status: "estimated", perHour: 0.43, ceilingPerHour: 1.29 } };
const volume = { name: "models", estimate: { status: "estimated", perMonth: 1.4 } };

describe("the cost summary's provider", () => {
  it("prints the sums of a new stack and records them as inputs", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { report: "cost", resources: [pod(0.43), endpoint, volume], __provider: "shim" });
    expect(lines).toEqual(['CostReport "cost": estimated cost: 0.86 USD/hour always-on, 1.72 USD/hour ceiling, 1.4 USD/month storage (no earlier up to compare with)']);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ perHour: 0.86, ceilingPerHour: 1.72, perMonth: 1.4, unpriced: [], __provider: "shim" });
  });

  it("prints the change against the last up's figures, held in its state", async () => {
    const { lines, provider } = recorder();
    const last = (await provider.check!({}, { resources: [pod(0.43), endpoint] })).inputs;
    lines.length = 0;
    const now = await provider.check!(last, { resources: [pod(0.86), endpoint] });
    expect(lines).toEqual(["estimated cost: 1.29 USD/hour always-on, 2.15 USD/hour ceiling, 0 USD/month storage (+0.43 USD/hour always-on vs the last up: 0.86; +0.43 USD/hour ceiling vs the last up: 1.72)"]);
    expect(await provider.diff!("id", last, now.inputs)).toMatchObject({ changes: true });
    const same = await provider.check!(last, { resources: [pod(0.43), endpoint] });
    expect(await provider.diff!("id", last, same.inputs)).toMatchObject({ changes: false });
  });

  it("sums what is known when an estimate is unknown at preview, and says which is not", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { resources: [pod(0.43), { name: "inference", estimate: UNKNOWN }, UNKNOWN] });
    expect(lines[0]).toBe(
      "estimated cost: 0.43 USD/hour always-on, 0.43 USD/hour ceiling, 0 USD/month storage (no earlier up to compare with); not priced: inference: its estimate is not known until apply; resource 3: its estimate is not known until apply",
    );
    expect(await provider.diff!("id", result.inputs, result.inputs)).toMatchObject({ changes: true });
  });

  it("says the sum is not known when the list itself is not", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { resources: UNKNOWN });
    expect(result).toEqual({ inputs: { resources: UNKNOWN }, failures: [] });
    expect(lines).toEqual(["estimated cost: not known until apply (the resources to sum are not known yet)"]);
  });

  it("fails check over the budget, naming the dearest resources, and passes within it", async () => {
    const { provider } = recorder();
    const over = await provider.check!({}, { resources: [pod(0.43), endpoint], budget: { ceilingPerHour: 1 } });
    expect(over.failures).toEqual([{ property: "", reason: expect.stringContaining("ceiling 1.72 USD/hour exceeds gpucloud:budgetCeilingPerHour 1") }]);
    expect(over.failures?.[0]?.reason).toContain("Costing most: inference (0.43 USD/hour always-on, 1.29 ceiling), trainer");
    expect((await provider.check!({}, { resources: [pod(0.43), endpoint], budget: { ceilingPerHour: 2 } })).failures).toEqual([]);
  });

  it("refuses inputs that are not estimate figures, naming where", async () => {
    const { provider } = recorder();
    const result = await provider.check!({}, { resources: [{ name: "trainer", estimate: { status: "guessed" } }] });
    expect(result.failures?.[0]?.property).toBe("resources[0]");
  });
});
