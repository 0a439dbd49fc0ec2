// check keeps the cost estimate recorded with unchanged arguments: a preview of unchanged resources
// reads no price catalog. Changed arguments, an estimate that was unavailable, or the v1 API price again.
import { describe, expect, it } from "vitest";
import { priceSheetOf } from "../../../model/cost/priceSheet";
import type { Backend } from "../../../model/fields/fieldTable";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { recordingDeps } from "../../support/recordingDeps";

const lists = { gpus: [{ id: "NVIDIA L4", price: { secure: 0.43, community: 0.344, serverless: 0.69 } }], cpus: [] };

function endpointProvider(backend: Backend) {
  let priceReads = 0;
  const deps = recordingDeps(
    {},
    {
      backend: () => backend,
      prices: async () => {
        priceReads++;
        return priceSheetOf(lists, new Date("2026-11-24T12:00:00.000Z"));
      },
    },
  );
  return { provider: buildResourceProviders(deps).endpoint, reads: () => priceReads };
}

const declared = { templateId: "tpl1", name: "infer", gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 3 };

describe("the cost estimate of an unchanged resource", () => {
  it("is kept as recorded without reading prices; a changed argument prices again", async () => {
    const { provider, reads } = endpointProvider("v2");
    const first = await provider.check!({}, { ...declared, __provider: "shim" });
    expect(reads()).toBe(1);
    const recorded = first.inputs!;
    expect(recorded["costEstimate"]).toMatchObject({ status: "estimated", ceilingPerHour: 2.07 });

    const again = await provider.check!(recorded, { ...declared, __provider: "shim" });
    expect(reads()).toBe(1);
    expect(again.inputs!["costEstimate"]).toEqual(recorded["costEstimate"]);

    const changed = await provider.check!(recorded, { ...declared, workersMax: 5, __provider: "shim" });
    expect(reads()).toBe(2);
    expect(changed.inputs!["costEstimate"]).toMatchObject({ status: "estimated", ceilingPerHour: 3.45 });
  });

  it("is priced again when it was unavailable, and on the v1 API (which has no catalog)", async () => {
    const { provider, reads } = endpointProvider("v2");
    const unavailable = { status: "unavailable", reason: "the price catalog could not be reached", currency: "USD" };
    const retried = await provider.check!(
      { ...declared, costEstimate: unavailable, __provider: "shim" },
      { ...declared, __provider: "shim" },
    );
    expect(reads()).toBe(1);
    expect(retried.inputs!["costEstimate"]).toMatchObject({ status: "estimated" });

    const v1 = endpointProvider("v1");
    await v1.provider.check!(
      { ...declared, costEstimate: retried.inputs!["costEstimate"], __provider: "shim" },
      { ...declared, __provider: "shim" },
    );
    expect(v1.reads()).toBe(1);
  });

  it("reads no catalog for an estimate the arguments decide: an endpoint without gpuTypeIds, whatever it recorded", async () => {
    const { provider, reads } = endpointProvider("v2");
    const { gpuTypeIds: _types, ...untyped } = declared;
    const first = await provider.check!({}, { ...untyped, __provider: "shim" });
    expect(reads()).toBe(0);
    expect(first.inputs!["costEstimate"]).toEqual({
      status: "unavailable",
      reason: "no gpuTypeIds given: the worker type decides the price",
    });
    // Unchanged, as every preview and up of an unchanged stack checks it (twice per up).
    for (let i = 0; i < 4; i++) await provider.check!(first.inputs!, { ...untyped, __provider: "shim" });
    expect(reads()).toBe(0);
  });
});
