import { describe, expect, it } from "vitest";
import { withEstimate } from "../../../model/cost/attach";
import { estimateRefreshed, recordedEstimate } from "../../../model/cost/refresh";
import { estimateNetworkVolume, estimatePod } from "../../../model/cost/estimate";
import { ownPricesOf } from "../../../model/cost/ownPrices";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { recordingDeps } from "../../support/recordingDeps";

describe("estimate on the checked inputs", () => {
  it("says why when the prices cannot be had, rather than failing check", async () => {
    const deps = { prices: () => Promise.reject(new Error("gpucloud:apiKey is not set")) };
    const inputs = await withEstimate(estimatePod, { gpuTypeIds: ["NVIDIA L4"] }, deps);
    expect(inputs).toEqual({
      gpuTypeIds: ["NVIDIA L4"],
      costEstimate: { status: "unavailable", reason: "the price catalog could not be reached: gpucloud:apiKey is not set" },
    });
  });

  it("uses the user's prices from stack config even where the catalog cannot be reached", async () => {
    const deps = {
      prices: () => Promise.reject(new Error("offline")),
      ownPrices: () => ownPricesOf({ "gpucloud:prices": '{"networkVolumePerGbMonth": 0.07}' }),
    };
    const inputs = await withEstimate(estimateNetworkVolume, { size: 100 }, deps);
    expect(inputs["costEstimate"]).toMatchObject({ status: "estimated", perMonth: 7 });
  });

  it("fails check on a bad gpucloud:prices value: it is the user's to fix", async () => {
    const deps = {
      prices: () => Promise.resolve({ unavailable: "v1" }),
      ownPrices: () => ownPricesOf({ "gpucloud:prices": '{"networkVolumePerGbMonth": "cheap"}' }),
    };
    await expect(withEstimate(estimateNetworkVolume, { size: 100 }, deps)).rejects.toThrow(
      /^gpucloud:prices is not a valid price sheet: networkVolumePerGbMonth\.STANDARD must be/,
    );
  });

  it("makes a priced resource's check fail with that message", async () => {
    const providers = buildResourceProviders({ ...recordingDeps(), ownPrices: () => ownPricesOf({ "gpucloud:prices": "0.07" }) });
    await expect(providers.networkVolume.check!({}, { name: "v", size: 50, dataCenterId: "EU-RO-1" })).rejects.toThrow(
      /^gpucloud:prices is not a valid price sheet: it is not a JSON object \(got 0\.07\)/,
    );
  });
});

describe("an estimate that changes on an unchanged resource", () => {
  // 0.1.0's verbose record (prices with read times), and today's compact one.
  const priced = (perMonth: number, readAt: string) => ({
    status: "estimated",
    currency: "USD",
    perMonth,
    prices: [{ item: "storage", unitPrice: perMonth / 100, unit: "GB-month", quantity: 100, source: "gpucloud:prices", readAt }],
  });
  const compact = (perMonth: number) => ({
    status: "estimated",
    perMonth,
    basis: `STANDARD storage ${perMonth / 100} USD/GB-month x 100 (your price)`,
  });
  const volume = { name: "v", size: 100, dataCenterId: "EU-RO-1", type: "STANDARD" };

  it("counts as a change when its figures change or it becomes available, not when only read times do", () => {
    const recorded = { ...volume, costEstimate: priced(7, "2026-11-24T12:00:00.000Z") };
    expect(estimateRefreshed(recorded, { ...volume, costEstimate: priced(7, "2026-11-25T08:00:00.000Z") })).toBe(false);
    expect(estimateRefreshed(recorded, { ...volume, costEstimate: priced(14, "2026-11-25T08:00:00.000Z") })).toBe(true);
    expect(estimateRefreshed({ ...volume, costEstimate: { status: "unavailable", reason: "no price", currency: "USD" } }, recorded)).toBe(
      true,
    );
    expect(estimateRefreshed(volume, recorded)).toBe(true);
    // A catalog that cannot be read now keeps the last known figures.
    expect(
      estimateRefreshed(recorded, {
        ...volume,
        costEstimate: { status: "unavailable", reason: "the price catalog could not be read: 503", currency: "USD" },
      }),
    ).toBe(false);
  });

  it("compares figures, not shapes: 0.1.0's verbose record and today's compact one of the same figures are no change", () => {
    const recorded = { ...volume, costEstimate: priced(7, "2026-11-24T12:00:00.000Z") };
    expect(estimateRefreshed(recorded, { ...volume, costEstimate: compact(7) })).toBe(false);
    expect(estimateRefreshed(recorded, { ...volume, costEstimate: compact(14) })).toBe(true);
    expect(recordedEstimate(recorded.costEstimate)).toEqual({ status: "estimated", perMonth: 7, basis: "storage 0.07 USD/GB-month x 100" });
  });

  it("keeps the recorded estimate at check when a new one has the same figures, so a plan shows no costEstimate change", async () => {
    const sheet = () => ownPricesOf({ "gpucloud:prices": '{"networkVolumePerGbMonth": 0.07}' });
    const provider = buildResourceProviders({ ...recordingDeps(), backend: () => "v2", ownPrices: sheet }).networkVolume;
    const digest = ((await provider.check!({}, { ...volume, __provider: "shim" })).inputs!["costEstimate"] as { ownPrices: string })
      .ownPrices;
    const verbose = { ...priced(7, "2026-11-24T12:00:00.000Z"), ownPrices: digest };
    // A declared change (size stays, a new name) makes the estimate again: same figures, kept as recorded.
    const checked = await provider.check!(
      { ...volume, costEstimate: verbose, __provider: "shim" },
      { ...volume, name: "w", __provider: "shim" },
    );
    expect(checked.inputs!["costEstimate"]).toEqual(recordedEstimate(verbose));
    const grown = await provider.check!(
      { ...volume, costEstimate: verbose, __provider: "shim" },
      { ...volume, size: 200, __provider: "shim" },
    );
    expect(grown.inputs!["costEstimate"]).toMatchObject({ status: "estimated", perMonth: 14 });
  });

  it("plans an update that records the new estimate and changes nothing in the service", async () => {
    const called: string[] = [];
    // Reads answer with the volume as it is; anything that would change it fails the test.
    const readOnlyPart = (part: string) =>
      new Proxy(
        {},
        {
          get:
            (_t, method) =>
            (...args: unknown[]) => {
              const call = `${part}.${String(method)}`;
              called.push(call);
              return call === "networkVolumes.get"
                ? Promise.resolve({ ...volume, id: args[0] })
                : Promise.reject(new Error(`the service was asked to change: ${call}`));
            },
        },
      );
    const readOnly = new Proxy({}, { get: (_t, part) => readOnlyPart(String(part)) });
    const provider = buildResourceProviders(recordingDeps(readOnly)).networkVolume;
    const recorded = { ...volume, id: "vol-1", costEstimate: priced(7, "2026-11-24T12:00:00.000Z"), __provider: "shim" };
    const news = { ...volume, costEstimate: compact(14), __provider: "shim" };
    expect(await provider.diff!("vol-1", recorded, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await provider.update!("vol-1", recorded, news);
    expect(called).toEqual(["networkVolumes.get"]);
    expect(outs).toMatchObject({ ...volume, costEstimate: news.costEstimate });
  });
});
