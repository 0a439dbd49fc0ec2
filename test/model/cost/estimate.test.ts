import { describe, expect, it } from "vitest";
import { estimateEndpoint, estimateNetworkVolume, estimatePod } from "../../../model/cost/estimate";
import { priceSheetOf, pricesOf } from "../../../model/cost/priceSheet";
import { parseOwnPrices } from "../../../model/cost/ownPrices";
import type { Prices } from "../../../model/cost/estimate";

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
const catalog = priceSheetOf(lists, READ_AT);
const prices: Prices = { catalog };
const CONFIG_READ_AT = new Date("2026-11-24T12:05:00.000Z");
const own = parseOwnPrices(
  JSON.stringify({
    networkVolumePerGbMonth: { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 },
    containerDiskPerGbMonth: 0.1,
    podVolumePerGbMonth: 0.2,
  }),
  CONFIG_READ_AT,
);
const withOwn: Prices = { catalog, own };
const v1: Prices = { catalog: { unavailable: "no catalog on v1" } };

describe("price sheet", () => {
  it("reads GPU and CPU prices and records when", () => {
    expect("sheet" in catalog && catalog.sheet.gpus.get("NVIDIA L4")).toEqual({ secure: 0.43, community: 0.344, serverless: 0.43 });
    expect("sheet" in catalog && catalog.sheet.readAt).toBe("2026-11-24T12:00:00.000Z");
  });

  it("is unavailable, naming the item, when a catalog entry has no price", () => {
    const bad = priceSheetOf({ gpus: [{ id: "NVIDIA L4" }], cpus: [] }, READ_AT);
    expect(bad).toEqual({ unavailable: expect.stringContaining('GPU type "NVIDIA L4" carries no valid price') });
  });

  it("reads the catalog once per source and says why on a backend without one", async () => {
    let reads = 0;
    const source = {
      catalogLists: async () => {
        reads++;
        return lists;
      },
    };
    const [a, b] = await Promise.all([pricesOf(source), pricesOf(source)]);
    expect(await pricesOf(source)).toBe(a);
    expect(b).toBe(a);
    expect(reads).toBe(1);
    expect(await pricesOf({})).toEqual({ unavailable: expect.stringContaining("v1 management API has no price catalog") });
  });

  it("does not keep a failed read", async () => {
    let reads = 0;
    const source = {
      catalogLists: async () => {
        reads++;
        if (reads === 1) throw new Error("503 Service Unavailable");
        return lists;
      },
    };
    expect(await pricesOf(source)).toEqual({ unavailable: "the price catalog could not be read: 503 Service Unavailable" });
    expect("sheet" in (await pricesOf(source))).toBe(true);
  });
});

describe("pod estimate", () => {
  it("prices GPU x count on the pod's cloud, naming the price used in one basis line", () => {
    const e = estimatePod({ gpuTypeIds: ["NVIDIA H100 80GB HBM3"], gpuCount: 2, containerDiskInGb: 0, volumeInGb: 0 }, prices);
    expect(e).toEqual({ status: "estimated", perHour: 5.38, basis: "NVIDIA H100 80GB HBM3 (secure cloud) 2.69 USD/GPU-hour x 2" });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], cloudType: "COMMUNITY" }, prices).perHour).toBe(0.344);
  });

  it("prices a CPU pod per vCPU (default 2)", () => {
    expect(estimatePod({ computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4 }, prices).perHour).toBe(0.12);
    expect(estimatePod({ computeType: "CPU", cpuFlavorIds: ["cpu3c"] }, prices).perHour).toBe(0.06);
  });

  it("is pending while an input is unknown and unavailable rather than guessing", () => {
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], gpuCount: UNKNOWN }, prices)).toEqual({
      status: "pending",
      reason: "gpuCount not known until apply",
    });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA B300"] }, prices)).toMatchObject({
      status: "unavailable",
      reason: 'GPU type "NVIDIA B300" is not in the catalog',
    });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], interruptible: true }, prices).status).toBe("unavailable");
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"] }, v1)).toEqual({ status: "unavailable", reason: "no catalog on v1" });
  });

  it("says its disks are not included, naming the keys that would price them, without the user's prices", () => {
    const e = estimatePod({ gpuTypeIds: ["NVIDIA L4"], volumeInGb: 20 }, prices);
    expect(e.perHour).toBe(0.43);
    expect(e.basis).toBe(
      "NVIDIA L4 (secure cloud) 0.43 USD/GPU-hour x 1; container disk and pod volume not included (set containerDiskPerGbMonth and podVolumePerGbMonth in gpucloud:prices)",
    );
  });

  it("adds its disks at the user's prices per GB-month (30 days), each named as the user's", () => {
    const e = estimatePod({ gpuTypeIds: ["NVIDIA L4"], containerDiskInGb: 72, volumeInGb: 36 }, withOwn);
    // 0.43 + 72 GB x 0.1 / 720 h + 36 GB x 0.2 / 720 h = 0.43 + 0.01 + 0.01
    expect(e).toMatchObject({ status: "estimated", perHour: 0.45 });
    expect(e.basis).toBe(
      "NVIDIA L4 (secure cloud) 0.43 USD/GPU-hour x 1 + container disk 0.1 USD/GB-month x 72 (your price) + pod volume 0.2 USD/GB-month x 36 (your price)",
    );
  });

  it("prices the service's disk sizes when none are declared, and no pod volume beside a network volume", () => {
    // Defaults: a 50 GB container disk and no pod volume (v2 creates none unless asked; v1 made 20 GB).
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"] }, withOwn).basis).toBe(
      "NVIDIA L4 (secure cloud) 0.43 USD/GPU-hour x 1 + container disk 0.1 USD/GB-month x 50 (your price)",
    );
    const mounted = estimatePod({ gpuTypeIds: ["NVIDIA L4"], networkVolumeId: "vol-1", volumeInGb: 100 }, withOwn);
    expect(mounted.basis).toBe("NVIDIA L4 (secure cloud) 0.43 USD/GPU-hour x 1 + container disk 0.1 USD/GB-month x 50 (your price)");
  });

  it("leaves out, with a note, the disks whose size comes from the template or whose price is not given", () => {
    const fromTemplate = estimatePod({ gpuTypeIds: ["NVIDIA L4"], templateId: "tpl-1", volumeInGb: 0 }, withOwn);
    expect(fromTemplate.basis).toBe("NVIDIA L4 (secure cloud) 0.43 USD/GPU-hour x 1; container disk from the template not included");
    const partial = { catalog, own: { ...own, podVolumePerGbMonth: undefined } };
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], volumeInGb: 20 }, partial).basis).toMatch(
      /; pod volume not included \(set podVolumePerGbMonth in gpucloud:prices\)$/,
    );
  });

  it("is pending while a priced disk size is unknown, and not when the disks are not priced", () => {
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], containerDiskInGb: UNKNOWN }, withOwn)).toMatchObject({
      status: "pending",
      reason: "containerDiskInGb not known until apply",
    });
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"], containerDiskInGb: UNKNOWN }, prices)).toMatchObject({
      status: "estimated",
      perHour: 0.43,
    });
  });

  it("stays unavailable on a backend without a catalog even with disk prices (a partial figure would understate)", () => {
    expect(estimatePod({ gpuTypeIds: ["NVIDIA L4"] }, { ...v1, own })).toMatchObject({ status: "unavailable", reason: "no catalog on v1" });
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
    expect(e.basis).toBe(
      "NVIDIA H100 80GB HBM3 (serverless, the dearest type) 2.69 USD/GPU-hour x 1 per worker; 0 always-on, up to 3 when busy",
    );
  });

  it("is unavailable for a GPU outside any serverless pool", () => {
    expect(estimateEndpoint({ gpuTypeIds: ["NVIDIA A40"] }, prices)).toMatchObject({
      status: "unavailable",
      reason: 'the catalog quotes no serverless price for "NVIDIA A40"',
    });
  });
});

describe("network volume estimate", () => {
  it("is unavailable without the user's storage price, naming the config key to set", () => {
    expect(estimateNetworkVolume({ size: 100, dataCenterId: "EU-RO-1", type: "STANDARD" }, prices)).toMatchObject({
      status: "unavailable",
      reason: "the catalog quotes no storage price: set networkVolumePerGbMonth (STANDARD) in gpucloud:prices to your price per GB-month",
    });
    const standardOnly = { catalog, own: { ...own, networkVolumePerGbMonth: { STANDARD: 0.07 } } };
    expect(estimateNetworkVolume({ size: 100, type: "HIGH_PERFORMANCE" }, standardOnly).reason).toContain(
      "networkVolumePerGbMonth (HIGH_PERFORMANCE)",
    );
  });

  it("prices storage per month at the user's price for its tier", () => {
    const e = estimateNetworkVolume({ size: 100, dataCenterId: "EU-RO-1", type: "STANDARD" }, withOwn);
    expect(e).toEqual({ status: "estimated", perMonth: 7, basis: "STANDARD storage 0.07 USD/GB-month x 100 (your price)" });
    expect(estimateNetworkVolume({ size: 100, type: "HIGH_PERFORMANCE" }, withOwn).perMonth).toBe(14);
  });

  it("an undeclared tier (the data center's primary, not published) is never taken for STANDARD", () => {
    // Tiers priced differently: the dearer one, said in the basis.
    expect(estimateNetworkVolume({ size: 100, dataCenterId: "CA-MTL-3" }, withOwn)).toEqual({
      status: "estimated",
      perMonth: 14,
      basis: "storage at the dearer tier (type not declared) 0.14 USD/GB-month x 100 (your price)",
    });
    // One number prices both tiers: that price.
    const onePrice = { catalog, own: { ...own, networkVolumePerGbMonth: { STANDARD: 0.07, HIGH_PERFORMANCE: 0.07 } } };
    expect(estimateNetworkVolume({ size: 100 }, onePrice)).toMatchObject({
      perMonth: 7,
      basis: expect.stringMatching(/^storage \(either tier\)/),
    });
    // One tier priced: which applies is not known, so no figure.
    const standardOnly = { catalog, own: { ...own, networkVolumePerGbMonth: { STANDARD: 0.07 } } };
    expect(estimateNetworkVolume({ size: 100 }, standardOnly)).toMatchObject({
      status: "unavailable",
      reason: expect.stringMatching(
        /^no type declared: .*primary storage tier.*declare type, or set networkVolumePerGbMonth for both tiers/,
      ),
    });
  });

  it("needs no catalog: the user's price estimates a volume on the v1 API too", () => {
    expect(estimateNetworkVolume({ size: 20, type: "STANDARD" }, { ...v1, own })).toMatchObject({ status: "estimated", perMonth: 1.4 });
  });

  it("is pending while the size is unknown", () => {
    expect(estimateNetworkVolume({ size: UNKNOWN }, withOwn)).toMatchObject({ status: "pending", reason: "size not known until apply" });
  });
});
