import { describe, expect, it } from "vitest";
import { withEstimate } from "../../../provider/cost/attach";
import { estimatePod } from "../../../provider/cost/estimate";

describe("estimate on the checked inputs", () => {
  it("says why when the prices cannot be had, rather than failing check", async () => {
    const deps = { prices: () => Promise.reject(new Error("gpucloud:apiKey is not set")) };
    const inputs = await withEstimate(estimatePod, { gpuTypeIds: ["NVIDIA L4"] }, deps);
    expect(inputs).toEqual({ gpuTypeIds: ["NVIDIA L4"], costEstimate: { status: "unavailable", reason: "the price catalog could not be reached: gpucloud:apiKey is not set", currency: "USD" } });
  });
});
