/**
 * GET /api/v2/billing (listBilling: the account's aggregate, one record per bucket with every
 * family's components) and GET /api/v2/billing/endpoints (listEndpointBilling: public endpoints,
 * which the emulator hosts none of) over real HTTP: the aggregate's components are the
 * per-resource reports' totals over the same window, the window rules are theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, sleep, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { loadV2Wire } from "../../../support/v2Wire";
import { V2_GPU_POD, V2_ONE_WORKER_LB_ENDPOINT, apiV2, expectProblem, waitForIdleWorker, waitForStatus } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

/** Every cost component of an aggregate record, as the project's description of the wire has BillingAmounts. */
const COMPONENTS = [...(loadV2Wire().schemas.get("BillingAmounts")?.properties.keys() ?? [])].filter((field) => field !== "totalAmount");

beforeAll(async () => {
  emu = await startTestEmulator({ bootDelayMs: 0, rateLimit: false });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

/** Runs a pod, a network volume, a serverless worker and a cluster for a while, each closed so that every report is final. */
async function billSomeUsage(): Promise<void> {
  const pod = (await v2.post("/pods", V2_GPU_POD)).body;
  await waitForStatus(v2, pod.id, "RUNNING");
  const volume = (await v2.post("/network-volumes", { name: "billed", size: 100, dataCenter: "EU-RO-1" })).body;
  const endpoint = (await v2.post("/serverless", V2_ONE_WORKER_LB_ENDPOINT)).body;
  await waitForIdleWorker(v2, endpoint.id);
  const cluster = await v2.post("/clusters", {
    name: "billed",
    type: "TRAINING",
    compute: { gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCountPerPod: 1, podCount: 2 },
    image: "example/trainer:1",
  });
  expect(cluster.status).toBe(201);
  await sleep(100); // 10 s of service time
  expect((await v2.del(`/clusters/${cluster.body.id}`)).status).toBe(204);
  await v2.post(`/pods/${pod.id}/action`, { action: "stop" });
  expect((await v2.del(`/network-volumes/${volume.id}`)).status).toBe(204);
  await v2.patch(`/serverless/${endpoint.id}`, { workers: { min: 0 } });
  await waitFor("the worker's billing", async () =>
    (await v2.get("/billing/serverless", { bucketSize: "year" })).body.metadata.totals.gpuAmount > 0 ? true : undefined,
  );
}

describe("GET /api/v2/billing", () => {
  it("answers one record per bucket whose components are the per-resource reports' totals, and their sum", async () => {
    await billSomeUsage();
    const res = await v2.get("/billing", { bucketSize: "year" });
    expect(res.status).toBe(200);
    const { records, metadata } = res.body;
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(COMPONENTS).toHaveLength(13);
    expect(Object.keys(record).sort()).toEqual(["startTime", "endTime", "totalAmount", ...COMPONENTS].sort());
    const pods = (await v2.get("/billing/pods", { bucketSize: "year" })).body.metadata.totals;
    const serverless = (await v2.get("/billing/serverless", { bucketSize: "year" })).body.metadata.totals;
    const volumes = (await v2.get("/billing/network-volumes", { bucketSize: "year" })).body.metadata.totals;
    const clusters = (await v2.get("/billing/clusters", { bucketSize: "year" })).body.metadata.totals;
    expect(pods.gpuAmount).toBeGreaterThan(0);
    expect(record.podGpuAmount).toBeCloseTo(pods.gpuAmount, 5);
    expect(record.podCpuAmount).toBeCloseTo(pods.cpuAmount, 5);
    expect(serverless.gpuAmount).toBeGreaterThan(0);
    expect(record.serverlessGpuAmount).toBeCloseTo(serverless.gpuAmount, 5);
    expect(volumes.totalAmount).toBeGreaterThan(0);
    expect(record.storageStandardAmount).toBeCloseTo(volumes.standardAmount, 5);
    expect(record.storageHighPerformanceAmount).toBeCloseTo(volumes.highPerformanceAmount, 5);
    expect(clusters.gpuAmount).toBeGreaterThan(0);
    expect(record.clusterGpuAmount).toBeCloseTo(clusters.gpuAmount, 5);
    for (const zero of ["podDiskAmount", "serverlessDiskAmount", "serverlessFeeAmount", "endpointAmount", "clusterDiskAmount"])
      expect(record[zero]).toBe(0);
    const sum = COMPONENTS.reduce((total, field) => total + record[field], 0);
    expect(record.totalAmount).toBeCloseTo(sum, 5);
    expect(record.totalAmount).toBeCloseTo(pods.totalAmount + serverless.totalAmount + volumes.totalAmount + clusters.totalAmount, 5);
    expect(metadata).toEqual({
      query: { startTime: record.startTime, endTime: record.endTime, bucketSize: "year" },
      recordCount: 1,
      totals: Object.fromEntries(Object.entries(record).filter(([key]) => key !== "startTime" && key !== "endTime")),
    });
    expect(record.startTime).toMatch(/^\d{4}-01-01T00:00:00Z$/);
  });

  it("answers an account without usage no records and zero totals; lastN with a window, or an unknown bucket size, is a 400", async () => {
    const other = apiV2(emu, KEY_B);
    const empty = (await other.get("/billing", { lastN: "2", bucketSize: "month" })).body;
    expect(empty.records).toEqual([]);
    expect(empty.metadata.recordCount).toBe(0);
    expect(Object.values(empty.metadata.totals)).toEqual(Array(COMPONENTS.length + 1).fill(0));
    expect(expectProblem(await v2.get("/billing", { lastN: "2", startTime: "2026-01-01T00:00:00Z" }), 400).detail).toMatch(/lastN/);
    expect(expectProblem(await v2.get("/billing", { bucketSize: "fortnight" }), 400).detail).toMatch(/bucketSize/);
  });
});

describe("GET /api/v2/billing/endpoints", () => {
  it("answers no records (no public endpoints) with the resolved window echoed, snapped to buckets", async () => {
    const res = await v2.get("/billing/endpoints", {
      startTime: "2026-03-04T10:30:00Z",
      endTime: "2026-03-20T00:00:00Z",
      bucketSize: "week",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      records: [],
      metadata: {
        // 2026-03-04 is a Wednesday: the window starts on that week's Monday; the end, on a day boundary, is snapped up to the next Monday.
        query: { startTime: "2026-03-02T00:00:00Z", endTime: "2026-03-23T00:00:00Z", bucketSize: "week" },
        recordCount: 0,
        totals: { totalAmount: 0 },
      },
    });
    const lastThree = (await v2.get("/billing/endpoints", { lastN: "3", bucketSize: "day" })).body.metadata.query;
    expect(Date.parse(lastThree.endTime) - Date.parse(lastThree.startTime)).toBe(3 * 86_400_000);
    expectProblem(await v2.get("/billing/endpoints", { startTime: "2026-03-20T00:00:00Z", endTime: "2026-03-01T00:00:00Z" }), 400);
    expectProblem(await v2.get("/billing/endpoints", { lastN: "0" }), 400);
  });
});
