/**
 * /api/v2/catalog/* and /api/v2/billing/* over real HTTP: the catalog and availability are the
 * ones /v1 places pods with, billing comes from the same ledger as /v1's, and the query rules
 * (include=AVAILABILITY with product, lastN or a window) answer 400 naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, api, sleep, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_ONE_WORKER_LB_ENDPOINT, apiV2, expectProblem, waitForIdleWorker, waitForStatus } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;
let v1: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ bootDelayMs: 0 });
  v2 = apiV2(emu);
  v1 = api(emu);
});
afterAll(() => emu.close());

describe("/api/v2/catalog/gpus", () => {
  it("lists GPU types wrapped, with pool, prices and no availability unless asked", async () => {
    const res = await v2.get("/catalog/gpus");
    expect(res.status).toBe(200);
    const rtx = res.body.gpus.find((g: { id: string }) => g.id === "NVIDIA GeForce RTX 4090");
    expect(rtx).toMatchObject({
      name: expect.any(String),
      pool: "ADA_24",
      manufacturer: "NVIDIA",
      memory: 24,
      price: { secure: 0.69, serverless: 0.69 },
    });
    expect(rtx.price.community).toBeLessThan(rtx.price.secure);
    expect(rtx.availability).toBeUndefined();
    expect((await v2.get("/catalog/gpus/NVIDIA GeForce RTX 4090")).body).toEqual(rtx);
    expect(expectProblem(await v2.get("/catalog/gpus/NVIDIA Nope"), 404).detail).toMatch(/not found/);
  });

  it("reports availability from the same free capacity /v1 places pods with", async () => {
    const h200 = async () =>
      (await v2.get("/catalog/gpus/NVIDIA H200", { include: "AVAILABILITY", product: "POD", count: "4" })).body.dataCenters
        ?.map((dc: { id: string }) => dc.id)
        .sort() ?? [];
    expect(await h200()).toEqual(["EU-RO-1", "US-TX-3"]);
    // 8 H200s in US-TX-3: two 4-GPU pods through /v1 take them all.
    for (const name of ["h200-a", "h200-b"]) {
      const pod = await v1.post("/pods", {
        name,
        imageName: "example/big:1",
        gpuTypeIds: ["NVIDIA H200"],
        gpuCount: 4,
        dataCenterIds: ["US-TX-3"],
      });
      expect(pod.status).toBe(201);
    }
    expect(await h200()).toEqual(["EU-RO-1"]);
    expect((await v2.get("/catalog/gpus/NVIDIA B200", { include: "AVAILABILITY", product: "POD" })).body.availability).toBe("NONE");
  });

  it("needs product with include=AVAILABILITY, and the availability parameters need include (400 naming them)", async () => {
    expect(expectProblem(await v2.get("/catalog/gpus", { include: "AVAILABILITY" }), 400).errors?.[0]).toMatch(
      /^invalid query parameter product/,
    );
    expect(expectProblem(await v2.get("/catalog/gpus", { count: "2" }), 400).detail).toBe(
      "invalid query parameter count: valid only with include=AVAILABILITY",
    );
    expect(expectProblem(await v2.get("/catalog/gpus", { include: "EVERYTHING" }), 400).detail).toMatch(/include/);
  });
});

describe("/api/v2/catalog/cpus", () => {
  it("lists CPU types with vCPU range and prices; availability per data center when asked", async () => {
    const list = (await v2.get("/catalog/cpus")).body.cpus as Array<{ id: string }>;
    expect(list.map((c) => c.id)).toContain("cpu3c");
    const cpu = (await v2.get("/catalog/cpus/cpu3c", { include: "AVAILABILITY", product: "POD", vcpuCount: "4" })).body;
    expect(cpu).toMatchObject({ id: "cpu3c", vcpu: { min: 2, max: 64 }, price: { securePerVcpu: expect.any(Number) } });
    expect(cpu.dataCenters.length).toBeGreaterThan(0);
    expectProblem(await v2.get("/catalog/cpus/cpu9z"), 404);
  });

  it("refuses a vCPU count that is not a power of two (400 naming vcpuCount)", async () => {
    expect(expectProblem(await v2.get("/catalog/cpus", { include: "AVAILABILITY", product: "POD", vcpuCount: "6" }), 400).detail).toMatch(
      /vcpuCount.*power of two/,
    );
  });
});

describe("/api/v2/catalog/datacenters", () => {
  it("lists data centers with region, volume tiers and compliance, filters them, and adds availability when asked", async () => {
    const all = (await v2.get("/catalog/datacenters")).body.dataCenters as Array<{
      id: string;
      region: string;
      globalNetwork: boolean;
      networkVolumeTypes: string[];
    }>;
    expect(all.map((dc) => dc.id)).toEqual(expect.arrayContaining(["US-TX-3", "EU-RO-1", "EU-SE-1"]));
    const europe = (await v2.get("/catalog/datacenters", { regions: "EUROPE" })).body.dataCenters as typeof all;
    expect(europe.length).toBeGreaterThan(0);
    expect(europe.every((dc) => dc.region === "EUROPE")).toBe(true);
    const fast = (await v2.get("/catalog/datacenters", { networkVolumeTypes: "HIGH_PERFORMANCE", globalNetwork: "true" })).body
      .dataCenters as typeof all;
    expect(fast.length).toBeGreaterThan(0);
    expect(fast.every((dc) => dc.globalNetwork && dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"))).toBe(true);
    const one = (await v2.get("/catalog/datacenters/US-KS-2", { include: "GPU_AVAILABILITY" })).body;
    expect(one.gpuAvailability.map((g: { id: string }) => g.id)).toContain("NVIDIA H200 NVL");
    expectProblem(await v2.get("/catalog/datacenters/MARS-1"), 404);
  });
});

describe("/api/v2/billing", () => {
  it("pods: {records, metadata} from the same ledger as /v1 (totals agree)", async () => {
    const pod = (await v2.post("/pods", V2_GPU_POD)).body;
    await waitForStatus(v2, pod.id, "RUNNING");
    await sleep(100); // 10 s of service time
    await v2.post(`/pods/${pod.id}/action`, { action: "stop" });
    const res = await v2.get("/billing/pods", { podId: pod.id, bucketSize: "year" });
    expect(res.status).toBe(200);
    const { records, metadata } = res.body;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ podId: pod.id, cpuAmount: 0, diskAmount: 0 });
    expect(records[0].gpuAmount).toBeGreaterThan(0);
    expect(records[0].totalAmount).toBe(records[0].gpuAmount);
    expect(metadata).toMatchObject({
      query: { bucketSize: "year", podId: pod.id },
      recordCount: 1,
      uniquePodCount: 1,
      totals: { totalAmount: records[0].totalAmount },
    });
    const v1Records = (await v1.get("/billing/pods", { grouping: "podId", podId: pod.id, bucketSize: "year" })).body as Array<{
      amount: number;
    }>;
    expect(records[0].totalAmount).toBeCloseTo(
      v1Records.reduce((sum, r) => sum + r.amount, 0),
      5,
    );
  });

  it("network volumes: one record per volume and bucket, by tier", async () => {
    const volume = (await v2.post("/network-volumes", { name: "billed", size: 100, dataCenter: "EU-RO-1" })).body;
    await sleep(50);
    const res = await v2.get("/billing/network-volumes", { networkVolumeId: volume.id, lastN: "1", bucketSize: "day" });
    expect(res.status).toBe(200);
    expect(res.body.records).toEqual([expect.objectContaining({ networkVolumeId: volume.id, highPerformanceAmount: 0 })]);
    expect(res.body.records[0].standardAmount).toBeGreaterThan(0);
    expect(res.body.metadata).toMatchObject({
      recordCount: 1,
      uniqueNetworkVolumeCount: 1,
      query: { networkVolumeId: volume.id, bucketSize: "day" },
    });
  });

  it("serverless: one record per endpoint and bucket from its workers' running time (billed once a worker stops)", async () => {
    const endpoint = (await v2.post("/serverless", V2_ONE_WORKER_LB_ENDPOINT)).body;
    await waitForIdleWorker(v2, endpoint.id);
    // Scaled to zero, the idle worker stops after 1 s of service time and its interval is billed.
    await v2.patch(`/serverless/${endpoint.id}`, { workers: { min: 0 } });
    const billed = await waitFor("a serverless billing record", async () => {
      const res = await v2.get("/billing/serverless", { serverlessId: endpoint.id, bucketSize: "year" });
      return res.body.records[0]?.gpuAmount > 0 ? res.body : undefined;
    });
    expect(billed.records).toEqual([expect.objectContaining({ serverlessId: endpoint.id, cpuAmount: 0, diskAmount: 0, feeAmount: 0 })]);
    expect(billed.metadata).toMatchObject({
      recordCount: 1,
      uniqueServerlessCount: 1,
      query: { serverlessId: endpoint.id, bucketSize: "year" },
    });
  });

  it("serverless: a worker still up is billed for its time so far, on /v2 and /v1 alike (the service bills by the second)", async () => {
    const endpoint = (
      await v2.post("/serverless", {
        name: "always-on",
        type: "QUEUE",
        image: "example/worker:1",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] },
        workers: { min: 1, max: 1 },
      })
    ).body;
    const worker = await waitFor("a worker", async () => (await v2.get(`/serverless/${endpoint.id}/workers`)).body.workers[0]);
    const amount = async () =>
      (await v2.get("/billing/serverless", { serverlessId: endpoint.id, bucketSize: "year" })).body.metadata.totals.totalAmount as number;
    const v1Amount = async () =>
      ((await v1.get("/billing/endpoints", { endpointId: endpoint.id, bucketSize: "year" })).body as Array<{ amount: number }>).reduce(
        (n, r) => n + r.amount,
        0,
      );
    const first = await amount();
    await sleep(50);
    const second = await amount();
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(await v1Amount()).toBeGreaterThanOrEqual(second);
    // The worker runs on: nothing was recorded as stopped, the bill came from its time so far.
    expect((await v2.get(`/serverless/${endpoint.id}/workers`)).body.workers.map((w: { id: string }) => w.id)).toContain(worker.id);
  });

  it("serverless: wrapped and empty for an account without workers, with the window echoed", async () => {
    const res = await v2.get("/billing/serverless", { startTime: "2026-01-05T10:00:00Z", endTime: "2026-01-07T00:00:00Z" });
    expect(res.body).toEqual({
      records: [],
      metadata: {
        query: { startTime: "2026-01-05T00:00:00Z", endTime: "2026-01-07T00:00:00Z", bucketSize: "day", serverlessId: null },
        recordCount: 0,
        uniqueServerlessCount: 0,
        totals: expect.objectContaining({ totalAmount: 0 }),
      },
    });
  });

  it("a window of many buckets costs what the records cost: centuries of hours, lastN far back, the first century", async () => {
    const volume = (await v2.post("/network-volumes", { name: "long-window", size: 10, dataCenter: "EU-RO-1" })).body;
    await sleep(20);
    const end = new Date(Date.now() + 86_400_000).toISOString();
    // Seven and a half centuries of hourly buckets: one record per hour the volume has existed.
    const centuries = await v2.get("/billing/network-volumes", { startTime: "1264-07-22T00:00:00Z", endTime: end, bucketSize: "hour" });
    expect(centuries.status).toBe(200);
    expect(centuries.body.metadata.query.startTime).toBe("1264-07-22T00:00:00Z");
    const own = centuries.body.records.filter((r: { networkVolumeId: string }) => r.networkVolumeId === volume.id);
    expect(own.length).toBeGreaterThanOrEqual(1);
    expect(own.length).toBeLessThanOrEqual(2);
    // lastN placed in one step: the largest the answer can still write, and one more, refused naming it.
    const tooFar = expectProblem(await v2.get("/billing/network-volumes", { lastN: "1000000000000000", bucketSize: "hour" }), 400);
    expect(tooFar.detail).toMatch(
      /^invalid query parameter lastN: 1000000000000000 hour buckets would start before 0000-01-01T00:00:00Z; give at most \d+/,
    );
    const most = Number(/give at most (\d+)/.exec(tooFar.detail)?.[1]);
    const farthest = await v2.get("/billing/network-volumes", { lastN: String(most), bucketSize: "hour", networkVolumeId: volume.id });
    expect(farthest.status).toBe(200);
    expect(farthest.body.metadata.query.startTime).toMatch(/^0000-01-01T/);
    expect(farthest.body.records.length).toBeGreaterThanOrEqual(1);
    expectProblem(await v2.get("/billing/network-volumes", { lastN: String(most + 1), bucketSize: "hour" }), 400);
    expect((await v2.get("/billing/pods", { lastN: "9007199254740991", bucketSize: "year" })).status).toBe(400);
    // Years before 100 are years, not 1900 + the year.
    const early = await v2.get("/billing/pods", {
      startTime: "0050-03-15T00:00:00Z",
      endTime: "0052-01-01T00:00:00Z",
      bucketSize: "month",
    });
    expect(early.body.metadata.query).toMatchObject({ startTime: "0050-03-01T00:00:00Z", endTime: "0052-01-01T00:00:00Z" });
  });

  it("answers 400 naming the parameter for lastN with a window, a start after the end, and a bad time", async () => {
    expect(expectProblem(await v2.get("/billing/pods", { lastN: "2", startTime: "2026-01-01T00:00:00Z" }), 400).detail).toMatch(
      /^invalid query parameter lastN/,
    );
    expect(
      expectProblem(await v2.get("/billing/pods", { startTime: "2026-02-01T00:00:00Z", endTime: "2026-01-01T00:00:00Z" }), 400).detail,
    ).toMatch(/^invalid query parameter startTime/);
    expect(expectProblem(await v2.get("/billing/serverless", { endTime: "yesterday" }), 400).errors?.[0]).toMatch(/endTime.*RFC 3339/);
    expect(expectProblem(await v2.get("/billing/network-volumes", { bucketSize: "fortnight" }), 400).errors?.[0]).toMatch(/bucketSize/);
  });
});
