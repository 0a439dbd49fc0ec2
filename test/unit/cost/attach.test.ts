import { describe, expect, it } from "vitest";
import { withEstimate } from "../../../provider/cost/attach";
import { estimateNetworkVolume, estimatePod } from "../../../provider/cost/estimate";
import { ownPricesOf } from "../../../provider/cost/ownPrices";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { recordingDeps } from "../resources/fakes";

describe("estimate on the checked inputs", () => {
  it("says why when the prices cannot be had, rather than failing check", async () => {
    const deps = { prices: () => Promise.reject(new Error("gpucloud:apiKey is not set")) };
    const inputs = await withEstimate(estimatePod, { gpuTypeIds: ["NVIDIA L4"] }, deps);
    expect(inputs).toEqual({ gpuTypeIds: ["NVIDIA L4"], costEstimate: { status: "unavailable", reason: "the price catalog could not be reached: gpucloud:apiKey is not set", currency: "USD" } });
  });

  it("uses the user's prices from stack config even where the catalog cannot be reached", async () => {
    const deps = { prices: () => Promise.reject(new Error("offline")), ownPrices: () => ownPricesOf({ "gpucloud:prices": '{"networkVolumePerGbMonth": 0.07}' }) };
    const inputs = await withEstimate(estimateNetworkVolume, { size: 100 }, deps);
    expect(inputs["costEstimate"]).toMatchObject({ status: "estimated", perMonth: 7 });
  });

  it("fails check on a bad gpucloud:prices value: it is the user's to fix", async () => {
    const deps = { prices: () => Promise.resolve({ unavailable: "v1" }), ownPrices: () => ownPricesOf({ "gpucloud:prices": '{"networkVolumePerGbMonth": "cheap"}' }) };
    await expect(withEstimate(estimateNetworkVolume, { size: 100 }, deps)).rejects.toThrow(/^gpucloud:prices is not a valid price sheet: networkVolumePerGbMonth\.STANDARD must be/);
  });

  it("makes a priced resource's check fail with that message", async () => {
    const providers = buildResourceProviders({ ...recordingDeps(), ownPrices: () => ownPricesOf({ "gpucloud:prices": "0.07" }) });
    await expect(providers.networkVolume.check!({}, { name: "v", size: 50, dataCenterId: "EU-RO-1" })).rejects.toThrow(/^gpucloud:prices is not a valid price sheet: it is not a JSON object \(got 0\.07\)/);
  });
});
