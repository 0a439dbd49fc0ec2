import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator, WorkerUsage } from "../../../emulator";
import { bucketStart, forEachBucket, nextBucket } from "../../../emulator/billing/buckets";
import { networkVolumeBilling, podBilling } from "../../../emulator/billing/reports";
import type { Ledger } from "../../../emulator/state/model";
import { type Api, FakeServerless, GPU_POD, KEY_B, api, sleep, startTestEmulator } from "../../support/managementHelpers";

const HOUR = 3_600_000;
const RTX4090 = "NVIDIA GeForce RTX 4090";
const L4 = "NVIDIA L4";

let emu: RunningEmulator;
let client: Api;
const fake = new FakeServerless();

beforeAll(async () => {
  emu = await startTestEmulator({ serverlessFactory: fake.factory });
  client = api(emu);
});
afterAll(() => emu.close());

describe("pod billing over HTTP", () => {
  test("amount = RUNNING time x costPerHr; the interval closes on stop; grouping and filters", async () => {
    const before = emu.clock.now();
    const pod = (await client.post("/pods", { ...GPU_POD, gpuCount: 2 })).body;
    const afterCreate = emu.clock.now();
    await sleep(300); // ~30 service seconds
    const beforeStop = emu.clock.now();
    await client.post(`/pods/${pod.id}/stop`);
    const afterStop = emu.clock.now();
    await sleep(100); // stopped time is not billed

    const records = (await client.get("/billing/pods", { grouping: "podId", podId: pod.id, bucketSize: "year" })).body;
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record.podId).toBe(pod.id);
    expect(record.gpuTypeId).toBeUndefined();
    expect(record.timeBilledMs).toBeGreaterThanOrEqual(Math.floor(beforeStop - afterCreate));
    expect(record.timeBilledMs).toBeLessThanOrEqual(Math.ceil(afterStop - before));
    expect(record.amount).toBeCloseTo((record.timeBilledMs / HOUR) * pod.costPerHr, 5);
    expect(record.diskSpaceBilledGb).toBe(70);
    expect(record.time).toMatch(/^\d{4}-01-01T00:00:00Z$/);

    const byType = (await client.get("/billing/pods", { gpuTypeId: RTX4090, bucketSize: "year" })).body;
    expect(byType.every((r: { gpuTypeId: string }) => r.gpuTypeId === RTX4090)).toBe(true);
    expect(byType.reduce((sum: number, r: { timeBilledMs: number }) => sum + r.timeBilledMs, 0)).toBeGreaterThanOrEqual(
      record.timeBilledMs,
    );
    expect((await client.get("/billing/pods", { gpuTypeId: L4 })).body).toEqual([]);
  });

  test("a running pod's open interval counts up to now", async () => {
    const pod = (await client.post("/pods", { ...GPU_POD, gpuTypeIds: [L4] })).body;
    const first = (await client.get("/billing/pods", { grouping: "podId", podId: pod.id })).body;
    await sleep(50);
    const second = (await client.get("/billing/pods", { grouping: "podId", podId: pod.id })).body;
    const total = (rs: Array<{ timeBilledMs: number }>) => rs.reduce((sum, r) => sum + r.timeBilledMs, 0);
    expect(total(second)).toBeGreaterThan(total(first));
    await client.del(`/pods/${pod.id}`);
    const closed = total((await client.get("/billing/pods", { grouping: "podId", podId: pod.id })).body);
    await sleep(30);
    expect(total((await client.get("/billing/pods", { grouping: "podId", podId: pod.id })).body)).toBe(closed); // deleted pods stay billed, frozen
  });

  test("bad parameters are 400 naming the parameter and the value", async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ["/billing/pods", { bucketSize: "minute" }, "bucketSize"],
      ["/billing/pods", { grouping: "endpointId" }, "grouping"],
      ["/billing/pods", { startTime: "yesterday" }, "startTime"],
      ["/billing/pods", { endTime: "2023-13-45T00:00:00Z" }, "endTime"],
      ["/billing/pods", { gpuTypeId: "NVIDIA GTX 1" }, "gpuTypeId"],
      ["/billing/endpoints", { grouping: "imageName" }, "grouping"],
      ["/billing/endpoints", { dataCenterId: "MARS-1" }, "dataCenterId"],
      ["/billing/networkvolumes", { bucketSize: "decade" }, "bucketSize"],
    ];
    for (const [path, query, param] of cases) {
      const res = await client.get(path, query);
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body.error).toContain(param);
      expect(res.body.error).toContain(Object.values(query)[0] ?? "");
    }
    const reversed = await client.get("/billing/pods", { startTime: "2024-02-01T00:00:00Z", endTime: "2024-01-01T00:00:00Z" });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toContain("after endTime");
  });
});

describe("endpoint billing (worker usage from the job side)", () => {
  const at = (iso: string) => Date.parse(iso);
  const usage = (overrides: Partial<WorkerUsage>): WorkerUsage => ({
    accountId: emu.accountIdOf(emu.apiKey),
    endpointId: "endpointaaaaaa",
    workerId: "worker1",
    templateId: "tplaaaaaaa",
    imageName: "example/worker:1",
    gpuTypeId: RTX4090,
    dataCenterId: "EU-RO-1",
    costPerHr: 0.69,
    startMs: at("2024-01-01T10:30:00Z"),
    endMs: at("2024-01-01T12:00:00Z"),
    ...overrides,
  });

  beforeAll(() => {
    const deps = fake.deps;
    if (!deps) throw new Error("no deps");
    deps.recordWorkerUsage(usage({}));
    deps.recordWorkerUsage(
      usage({ workerId: "worker2", gpuTypeId: L4, costPerHr: 0.43, dataCenterId: "US-TX-3", startMs: at("2024-01-01T11:00:00Z") }),
    );
    deps.recordWorkerUsage(
      usage({ endpointId: "endpointbbbbbb", workerId: "worker3", imageName: "example/other:1", templateId: "tplbbbbbbb" }),
    );
    deps.recordWorkerUsage(usage({ accountId: emu.accountIdOf(KEY_B), workerId: "someone-else" }));
  });

  const window = { startTime: "2024-01-01T00:00:00Z", endTime: "2024-01-02T00:00:00Z" };

  test("grouped by endpoint (default), split into UTC hours", async () => {
    const records = (await client.get("/billing/endpoints", { ...window, bucketSize: "hour" })).body;
    expect(records).toEqual([
      { amount: 0.345, diskSpaceBilledGb: 0, endpointId: "endpointaaaaaa", time: "2024-01-01T10:00:00Z", timeBilledMs: HOUR / 2 },
      { amount: 0.345, diskSpaceBilledGb: 0, endpointId: "endpointbbbbbb", time: "2024-01-01T10:00:00Z", timeBilledMs: HOUR / 2 },
      { amount: 1.12, diskSpaceBilledGb: 0, endpointId: "endpointaaaaaa", time: "2024-01-01T11:00:00Z", timeBilledMs: 2 * HOUR },
      { amount: 0.69, diskSpaceBilledGb: 0, endpointId: "endpointbbbbbb", time: "2024-01-01T11:00:00Z", timeBilledMs: HOUR },
    ]);
  });

  test("grouped by worker (podId) and by gpuTypeId, per day", async () => {
    const byWorker = (await client.get("/billing/endpoints", { ...window, grouping: "podId" })).body;
    expect(byWorker.map((r: { podId: string; amount: number }) => [r.podId, r.amount])).toEqual([
      ["worker1", 1.035],
      ["worker2", 0.43],
      ["worker3", 1.035],
    ]);
    const byGpu = (await client.get("/billing/endpoints", { ...window, grouping: "gpuTypeId" })).body;
    expect(byGpu).toEqual([
      { amount: 2.07, diskSpaceBilledGb: 0, gpuTypeId: RTX4090, time: "2024-01-01T00:00:00Z", timeBilledMs: 3 * HOUR },
      { amount: 0.43, diskSpaceBilledGb: 0, gpuTypeId: L4, time: "2024-01-01T00:00:00Z", timeBilledMs: HOUR },
    ]);
  });

  test("filters: endpointId, gpuTypeId, dataCenterId, imageName, templateId; the window clips", async () => {
    const amounts = async (query: Record<string, string | string[]>) =>
      ((await client.get("/billing/endpoints", { ...window, grouping: "podId", ...query })).body as Array<{ podId: string }>).map(
        (r) => r.podId,
      );
    expect(await amounts({ endpointId: "endpointbbbbbb" })).toEqual(["worker3"]);
    expect(await amounts({ gpuTypeId: [L4] })).toEqual(["worker2"]);
    expect(await amounts({ dataCenterId: ["US-TX-3", "EU-SE-1"] })).toEqual(["worker2"]);
    expect(await amounts({ imageName: "example/other:1" })).toEqual(["worker3"]);
    expect(await amounts({ templateId: "tplaaaaaaa" })).toEqual(["worker1", "worker2"]);
    const clipped = (
      await client.get("/billing/endpoints", {
        startTime: "2024-01-01T11:30:00Z",
        endTime: "2024-01-01T11:45:00Z",
        endpointId: "endpointbbbbbb",
      })
    ).body;
    expect(clipped).toEqual([
      { amount: 0.1725, diskSpaceBilledGb: 0, endpointId: "endpointbbbbbb", time: "2024-01-01T00:00:00Z", timeBilledMs: HOUR / 4 },
    ]);
  });
});

describe("network volume billing", () => {
  test("GB held x time x the per-GB-month price; growth shows in diskSpaceBilledGb", async () => {
    const own = await startTestEmulator();
    try {
      const c = api(own);
      const before = own.clock.now();
      const volume = (await c.post("/networkvolumes", { name: "v", size: 100, dataCenterId: "EU-RO-1" })).body;
      await sleep(100);
      await c.patch(`/networkvolumes/${volume.id}`, { size: 150 });
      await c.del(`/networkvolumes/${volume.id}`);
      const after = own.clock.now();
      const records = (await c.get("/billing/networkvolumes", { bucketSize: "year" })).body;
      expect(records).toHaveLength(1);
      const [record] = records;
      expect(Object.keys(record).sort()).toEqual([
        "amount",
        "diskSpaceBilledGb",
        "highPerformanceStorageAmount",
        "highPerformanceStorageDiskSpaceBilledGb",
        "time",
      ]);
      expect(record.diskSpaceBilledGb).toBe(150);
      const maxAmount = ((150 * (after - before)) / HOUR) * (0.07 / 720);
      expect(record.amount).toBeGreaterThan(0);
      expect(record.amount).toBeLessThanOrEqual(maxAmount + 1e-6);
      expect(record.amount).toBeGreaterThanOrEqual(((100 * 9_000) / HOUR) * (0.07 / 720) - 1e-6); // >= 9 service s (90 ms real) at 100 GB
    } finally {
      await own.close();
    }
  });
});

describe("reports (unit)", () => {
  test("bucket alignment in UTC: hours, days, ISO weeks from Monday, months, years", () => {
    const t = Date.parse("2024-02-29T13:45:10Z"); // a Thursday in a leap year
    expect(new Date(bucketStart(t, "hour")).toISOString()).toBe("2024-02-29T13:00:00.000Z");
    expect(new Date(bucketStart(t, "day")).toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(new Date(bucketStart(t, "week")).toISOString()).toBe("2024-02-26T00:00:00.000Z");
    expect(new Date(bucketStart(t, "month")).toISOString()).toBe("2024-02-01T00:00:00.000Z");
    expect(new Date(bucketStart(t, "year")).toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(new Date(nextBucket(bucketStart(t, "month"), "month")).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    const sunday = Date.parse("2024-03-03T23:00:00Z");
    expect(new Date(bucketStart(sunday, "week")).toISOString()).toBe("2024-02-26T00:00:00.000Z");
    const pieces: Array<[string, number]> = [];
    forEachBucket(Date.parse("2024-01-31T23:30:00Z"), Date.parse("2024-02-01T00:15:00Z"), "month", (b, ms) =>
      pieces.push([new Date(b).toISOString(), ms]),
    );
    expect(pieces).toEqual([
      ["2024-01-01T00:00:00.000Z", 30 * 60_000],
      ["2024-02-01T00:00:00.000Z", 15 * 60_000],
    ]);
  });

  test("pod and volume reports from a synthetic ledger", () => {
    const ledger: Ledger = {
      pods: [
        {
          podId: "p1",
          gpuTypeId: RTX4090,
          cpuFlavorId: null,
          dataCenterId: "EU-RO-1",
          costPerHr: 1,
          diskGb: 70,
          startMs: Date.parse("2024-01-01T23:00:00Z"),
          endMs: Date.parse("2024-01-02T01:00:00Z"),
        },
        {
          podId: "p2",
          gpuTypeId: null,
          cpuFlavorId: "cpu3c",
          dataCenterId: "EU-RO-1",
          costPerHr: 0.06,
          diskGb: 20,
          startMs: Date.parse("2024-01-02T00:00:00Z"),
          endMs: null,
        },
      ],
      workers: [],
      volumes: [{ volumeId: "v1", dataCenterId: "EU-RO-1", sizeGb: 720, startMs: Date.parse("2024-01-01T00:00:00Z"), endMs: null }],
    };
    const window = {
      startMs: Date.parse("2024-01-01T00:00:00Z"),
      endMs: Date.parse("2024-01-03T00:00:00Z"),
      nowMs: Date.parse("2024-01-02T02:00:00Z"),
      bucketSize: "day" as const,
    };
    expect(podBilling(ledger, { ...window, grouping: "gpuTypeId" })).toEqual([
      { amount: 1, diskSpaceBilledGb: 70, gpuTypeId: RTX4090, time: "2024-01-01T00:00:00Z", timeBilledMs: HOUR },
      { amount: 1, diskSpaceBilledGb: 70, gpuTypeId: RTX4090, time: "2024-01-02T00:00:00Z", timeBilledMs: HOUR },
      { amount: 0.12, diskSpaceBilledGb: 20, gpuTypeId: "cpu3c", time: "2024-01-02T00:00:00Z", timeBilledMs: 2 * HOUR },
    ]);
    // 720 GB for 26 hours at 0.07 per GB-month (720 h): 0.07 x 26 = 1.82.
    const volumes = networkVolumeBilling(ledger, window);
    expect(volumes.map((r) => [r.time, r.amount, r.diskSpaceBilledGb])).toEqual([
      ["2024-01-01T00:00:00Z", 1.68, 720],
      ["2024-01-02T00:00:00Z", 0.14, 720],
    ]);
  });
});
