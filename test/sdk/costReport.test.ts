/**
 * CostReport's resource discovery, under Pulumi's mocks: without a list it sums every priced
 * resource declared before it (an EndpointRollout's endpoints too), sends only the estimates'
 * figures to its record, and warns of a priced resource declared after it, naming both.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { CostEstimate } from "../../model/cost/estimate";
import { recordResources, outputValue, type Registered } from "../support/pulumiMocks";

let registered: Registered[] = [];

const estimate = (perHour: number): CostEstimate => ({
  status: "estimated",
  perHour,
  basis: `NVIDIA L4 (secure cloud) ${perHour} USD/GPU-hour x 1`,
});

beforeAll(() => {
  // The mocks' state: a priced resource's estimate, and what the report's record computes in check.
  registered = recordResources((name) => ({
    results: [],
    revision: "r1",
    ...(name.endsWith("-summary") ? { perHour: 1.29, ceilingPerHour: 1.29, perMonth: 0, unpriced: [] } : { costEstimate: estimate(0.43) }),
  }));
});

afterEach(() => vi.restoreAllMocks());

const summaryInputs = (report = "cost") =>
  registered.find((r) => r.name === `${report}-summary`)?.inputs as { estimates: Record<string, unknown> } | undefined;

describe("CostReport", () => {
  it("sums the priced resources declared before it, inside components too, without their prices", async () => {
    const gpucloud = await import("../../sdk/index");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    new gpucloud.Pod("trainer", { imageName: "me/train:1", gpuTypeIds: ["NVIDIA L4"] });
    new gpucloud.NetworkVolume("models", { name: "models", size: 100, dataCenterId: "EU-RO-1" });
    new gpucloud.Template("other", { name: "other", imageName: "me/other:1" });
    new gpucloud.EndpointRollout("infer", {
      version: "1.0",
      template: { name: "model", imageName: "me/model:1", isServerless: true },
      endpoint: { gpuTypeIds: ["NVIDIA L4"] },
      cases: [{ name: "ok", input: {} }],
    });
    const report = new gpucloud.CostReport("cost");
    expect(await outputValue(report.perHour)).toBe(1.29);
    const inputs = summaryInputs();
    // A rollout's canary exists only during its check. The engine hands a map over with its keys sorted.
    expect(Object.keys(inputs?.estimates ?? {})).toEqual(["infer", "models", "trainer"]);
    expect(inputs?.estimates["trainer"]).toEqual({ status: "estimated", perHour: 0.43 });
    expect(warn).not.toHaveBeenCalled();
  });

  it("warns of a priced resource declared after it, naming both", async () => {
    const gpucloud = await import("../../sdk/index");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    new gpucloud.Pod("late", { imageName: "me/train:1", gpuTypeIds: ["NVIDIA L4"] });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('Pod "late" is declared after CostReport "cost", which sums only the priced resources declared before it'),
    );
    expect(warn.mock.calls[0]?.[0]).toContain("declare the CostReport last in the program (or pass it `resources`)");
  });

  it("sums only the resources it is given, named by their URN, and warns of none declared after it", async () => {
    const gpucloud = await import("../../sdk/index");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const volume = new gpucloud.NetworkVolume("scratch", { name: "scratch", size: 10, dataCenterId: "EU-RO-1" });
    const listed = new gpucloud.CostReport("listed", { resources: [volume] });
    await outputValue(listed.perHour);
    expect(Object.keys(summaryInputs("listed")?.estimates ?? {})).toEqual(["scratch"]);
    warn.mockClear();
    new gpucloud.Pod("after-listed", { imageName: "me/train:1", gpuTypeIds: ["NVIDIA L4"] });
    // Only the discovering report ("cost", above) warns.
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining('after CostReport "cost"')]);
  });
});

describe("CostReport over the typed classes of the provider plugin", () => {
  it("sums them when given, holds their endpoints against the worker quota and their volumes as storage", async () => {
    const gpucloud = await import("../../sdk/index");
    // The compiled typed classes, as a program imports them (`pulumi-gpucloud/plugin`).
    const typed = (await import("pulumi-gpucloud/plugin")) as typeof import("pulumi-gpucloud/plugin");
    const pod = new typed.Pod("typed-trainer", { imageName: "me/train:1", gpuTypeIds: ["NVIDIA L4"] });
    const endpoint = new typed.Endpoint("typed-inference", { templateId: "tpl-1", workersMax: 3 });
    const volume = new typed.NetworkVolume("typed-models", { name: "models", size: 100, dataCenterId: "EU-RO-1" });
    const report = new gpucloud.CostReport("typed", { resources: [pod, endpoint, volume] });
    await outputValue(report.perHour);
    const inputs = registered.find((r) => r.name === "typed-summary")?.inputs as
      | { estimates: Record<string, unknown>; endpoints: Record<string, unknown>; storage: string[] }
      | undefined;
    expect(inputs?.estimates).toEqual({
      "typed-trainer": { status: "estimated", perHour: 0.43 },
      "typed-inference": { status: "estimated", perHour: 0.43 },
      "typed-models": { status: "estimated", perHour: 0.43 },
    });
    expect(Object.keys(inputs?.endpoints ?? {})).toEqual(["typed-inference"]);
    // A volume is priced per month only, on either path: an hourly budget does not wait for its price.
    expect(inputs?.storage).toEqual(["typed-models"]);
  });

  it("keys a name declared twice by its occurrence, so neither estimate is lost", async () => {
    const gpucloud = await import("../../sdk/index");
    const typed = (await import("pulumi-gpucloud/plugin")) as typeof import("pulumi-gpucloud/plugin");
    const pod = new typed.Pod("twin", { imageName: "me/train:1", gpuTypeIds: ["NVIDIA L4"] });
    const volume = new typed.NetworkVolume("twin", { name: "twin", size: 10, dataCenterId: "EU-RO-1" });
    const report = new gpucloud.CostReport("twins", { resources: [pod, volume] });
    await outputValue(report.perHour);
    const inputs = registered.find((r) => r.name === "twins-summary")?.inputs as
      | { estimates: Record<string, unknown>; storage: string[] }
      | undefined;
    expect(Object.keys(inputs?.estimates ?? {})).toEqual(["twin", "twin#2"]);
    expect(inputs?.storage).toEqual(["twin#2"]);
  });
});
