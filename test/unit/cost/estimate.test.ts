import { describe, expect, it } from "vitest";
import { estimateEndpoint, estimateNetworkVolume, estimatePod } from "../../../provider/cost/estimate";
import { priceSheetOf, pricesOf, type PriceLookup } from "../../../provider/cost/priceSheet";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const READ_AT = new Date("2026-11-24T12:00:00.000Z");
const lists = {
  gpus: [
    { id: "NVIDIA L4", name: "L4", price: { secure: 0.43, community: 0.344, serverless: 0.43 } },
    { id: "NVIDIA H100 80GB HBM3", price: { secure: 2.69, community: 2.152, serverless: 2.69 } },
    { id: "NVIDIA A40", price: { secure: 0.4, community: 0.32 } },
  ],
  cpus: [{ id: "cpu3c", price: { securePerVcpu: 0.03, serverlessPerVcpu: 0.03 } }],
};
const prices = priceSheetOf(lists, READ_AT);

describe("price sheet", () => {
  it("reads GPU and CPU prices and records when", () => {
    expect("sheet" in prices && prices.sheet.gpus.get("NVIDIA L4")).toEqual({ secure: 0.43, community: 0.344, serverless: 0.43 });
    expect("sheet" in prices && prices.sheet.readAt).toBe("2026-11-24T12:00:00.000Z");
  });

  it("is unavailable, naming the item, when a catalog entry has no price", () => {
    const bad = priceSheetOf({ gpus: [{ id: "NVIDIA L4" }], cpus: [] }, READ_AT);
    expect(bad).toEqual({ unavailable: expect.stringContaining('GPU type "NVIDIA L4" carries no valid price') });
  });

  it("reads the catalog once per source and says why on a backend without one", async () => {
    let reads = 0;
    const source = { catalogLists: async () => (reads++, lists) };
    const [a, b] = await Promise.all([pricesOf(source), pricesOf(source)]);
    expect(await pricesOf(source)).toBe(a);
    expect(b).toBe(a);
    expect(reads).toBe(1);
    expect(await pricesOf({})).toEqual({ unavailable: expect.stringContaining("v1 management API has no price catalog") });
  });

  it("does not keep a failed read", async () => {
    let reads = 0;
    const source = { catalogLists: async () => { reads++; if (reads === 1) throw new Error("503 Service Unavailable"); return lists; } };
    expect(await pricesOf(source)).toEqual({ unavailable: "the price catalog could not be read: 503 Service Unavailable" });
    expect("sheet" in (await pricesOf(source))).toBe(true);
  });
});

describe("pod estimate", () => {
  it("prices GPU x count on the pod's cloud, naming the price used", () => {
    const e = estimatePod({ gpuTypeIds: ["NVIDIA H100 80GB HBM3"], gpuCount: 2 }, prices);
    expect(e).toMatchObject({ status: "estimated", perHour: 5.38, pricesReadAt: READ_AT.toISOString() });
    expect(e.prices).toEqual([{ item: "NVIDIA H100 80GB HBM3 (secure cloud)", unitPrice: 2.69, unit: "GPU-hour", quantity: 2 }]);
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], cloudType: "COMMUNITY" }, prices).perHour).toBe(0.344);
  });

  it("prices a CPU pod per vCPU (default 2)", () => {
    expect(estimatePod({ computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4 }, prices).perHour).toBe(0.12);
    expect(estimatePod({ computeType: "CPU", cpuFlavorIds: ["cpu3c"] }, prices).perHour).toBe(0.06);
  });

  it("is pending while an input is unknown and unavailable rather than guessing", () => {
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], gpuCount: UNKNOWN }, prices)).toEqual({ status: "pending", reason: "gpuCount not known until apply", currency: "USD" });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA B300"] }, prices)).toMatchObject({ status: "unavailable", reason: 'GPU type "NVIDIA B300" is not in the catalog' });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], interruptible: true }, prices).status).toBe("unavailable");
    const v1: PriceLookup = { unavailable: "no catalog on v1" };
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"] }, v1)).toEqual({ status: "unavailable", reason: "no catalog on v1", currency: "USD" });
  });
});

describe("endpoint estimate", () => {
  it("prices always-on (workersMin) and the ceiling (workersMax) at the serverless rate", () => {
    const e = estimateEndpoint({ gpuTypeIds: ["NVIDIA L4"], gpuCount: 2, workersMin: 1, workersMax: 4 }, prices);
    expect(e).toMatchObject({ status: "estimated", perHour: 0.86, ceilingPerHour: 3.44 });
  });

  it("takes the dearest of several worker types and the default workersMax of 3", () => {
    const e = estimateEndpoint({ gpuTypeIds: ["NVIDIA L4", "NVIDIA H100 80GB HBM3"] }, prices);
    expect(e).toMatchObject({ perHour: 0, ceilingPerHour: 8.07 });
    expect(e.notes).toContain("several worker types: priced at the dearest");
  });

  it("is unavailable for a GPU outside any serverless pool", () => {
    expect(estimateEndpoint({ gpuTypeIds: ["NVIDIA A40"] }, prices)).toMatchObject({ status: "unavailable", reason: 'the catalog quotes no serverless price for "NVIDIA A40"' });
  });
});

describe("network volume estimate", () => {
  it("says the catalog quotes no storage price", () => {
    expect(estimateNetworkVolume({ size: 100, dataCenterId: "EU-RO-1" }, prices)).toMatchObject({ status: "unavailable", reason: "the catalog quotes no network volume storage price" });
  });
});
