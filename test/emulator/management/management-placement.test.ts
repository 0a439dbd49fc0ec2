import { afterEach, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { Capacity } from "../../../emulator/management/placement";
import { createAvailabilityTable } from "../../../emulator/vocabulary/availability";
import { FakeServerless, GPU_POD, api, startTestEmulator } from "../../support/managementHelpers";

const RTX4090 = "NVIDIA GeForce RTX 4090";
const L4 = "NVIDIA L4";
const A40 = "NVIDIA A40";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function machineOf(client: ReturnType<typeof api>, podId: string) {
  return (await client.get(`/pods/${podId}`, { includeMachine: "true" })).body.machine;
}

describe("pods", () => {
  test("gpuTypeIds is a priority list: the first type with capacity wins, else the next", async () => {
    emu = await startTestEmulator({ availability: { gpus: { [RTX4090]: 0, [L4]: 1 } } });
    const client = api(emu);
    const body = { ...GPU_POD, gpuTypeIds: [RTX4090, L4, A40], dataCenterIds: ["EU-RO-1"] };
    const first = await client.post("/pods", body);
    expect(first.status).toBe(201);
    expect(first.body.gpu.id).toBe(L4);
    expect(first.body.costPerHr).toBeCloseTo(0.43, 6);
    // L4 has one GPU per data center, now taken: the next pod falls through to A40.
    const second = await client.post("/pods", body);
    expect(second.body.gpu.id).toBe(A40);
  });

  test("data centers are tried in the order given; per-data-center figures", async () => {
    emu = await startTestEmulator({ availability: { gpus: { [RTX4090]: { "US-TX-3": 1, "EU-SE-1": 1 } } } });
    const client = api(emu);
    const pod = await client.post("/pods", { ...GPU_POD, dataCenterIds: ["EU-RO-1", "EU-SE-1", "US-TX-3"] });
    expect((await machineOf(client, pod.body.id)).dataCenterId).toBe("EU-SE-1");
    const next = await client.post("/pods", { ...GPU_POD, dataCenterIds: ["EU-RO-1", "EU-SE-1", "US-TX-3"] });
    expect((await machineOf(client, next.body.id)).dataCenterId).toBe("US-TX-3");
  });

  test("none available: 409 naming every type tried; capacity returns on stop and delete", async () => {
    emu = await startTestEmulator({ availability: { gpus: { [RTX4090]: { "EU-RO-1": 2 }, [L4]: 0 } } });
    const client = api(emu);
    const body = { ...GPU_POD, gpuTypeIds: [RTX4090, L4], dataCenterIds: ["EU-RO-1"], gpuCount: 2 };
    const pod = await client.post("/pods", body);
    expect(pod.status).toBe(201);
    const refused = await client.post("/pods", body);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(RTX4090);
    expect(refused.body.error).toContain(L4);
    expect(refused.body.error).toContain("no instances available");
    await client.post(`/pods/${pod.body.id}/stop`);
    const whileStopped = await client.post("/pods", body);
    expect(whileStopped.status).toBe(201);
    // The stopped pod cannot start while its GPUs are taken.
    const cannotStart = await client.post(`/pods/${pod.body.id}/start`);
    expect(cannotStart.status).toBe(409);
    expect(cannotStart.body.error).toContain("EU-RO-1");
    await client.del(`/pods/${whileStopped.body.id}`);
    expect((await client.post(`/pods/${pod.body.id}/start`)).status).toBe(200);
  });

  test("built-in scarcity: B200 is sold out by default", async () => {
    emu = await startTestEmulator();
    const res = await api(emu).post("/pods", { ...GPU_POD, gpuTypeIds: ["NVIDIA B200"] });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("NVIDIA B200");
  });

  test("cpuFlavorIds work the same way", async () => {
    emu = await startTestEmulator({ availability: { cpus: { cpu3c: 0, cpu5c: { "EU-RO-1": 4 } } } });
    const client = api(emu);
    const body = {
      imageName: "example/cpu:1",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c", "cpu5c"],
      vcpuCount: 4,
      dataCenterIds: ["EU-RO-1"],
    };
    const pod = await client.post("/pods", body);
    expect(pod.body.cpuFlavorId).toBe("cpu5c");
    const none = await client.post("/pods", body);
    expect(none.status).toBe(409);
    expect(none.body.error).toContain("cpu3c");
    expect(none.body.error).toContain("cpu5c");
  });

  test("bad availability options fail at start", async () => {
    await expect(startTestEmulator({ availability: { gpus: { "NVIDIA GTX 1": 3 } } })).rejects.toThrow(/unknown id/);
    await expect(startTestEmulator({ availability: { gpus: { [L4]: -1 } } })).rejects.toThrow(/integers >= 0/);
  });
});

describe("serverless workers (contract place)", () => {
  test("place() follows the endpoint's priority lists and does not hold capacity", async () => {
    const fake = new FakeServerless();
    emu = await startTestEmulator({ serverlessFactory: fake.factory, availability: { gpus: { [RTX4090]: 0, [L4]: { "US-TX-3": 1 } } } });
    const deps = fake.deps;
    if (!deps) throw new Error("factory not called");
    const spec = {
      id: "e1",
      accountId: emu.accountIdOf(emu.apiKey),
      name: "e",
      templateId: "t",
      imageName: "i",
      env: {},
      computeType: "GPU" as const,
      gpuTypeIds: [RTX4090, L4],
      gpuCount: 1,
      cpuFlavorIds: [],
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      workersMin: 0,
      workersMax: 3,
      idleTimeout: 5,
      scalerType: "QUEUE_DELAY" as const,
      scalerValue: 4,
      executionTimeoutMs: 600000,
      version: 0,
      type: "QUEUE" as const,
    };
    const first = deps.place(spec);
    expect(first).toEqual({ gpuTypeId: L4, cpuFlavorId: null, dataCenterId: "US-TX-3", costPerHr: 0.43 });
    expect(deps.place(spec)).toEqual(first); // not held
    const none = deps.place({ ...spec, gpuTypeIds: [RTX4090] });
    expect(none).toEqual({ error: expect.stringContaining(RTX4090) });
    const cpu = deps.place({ ...spec, computeType: "CPU", cpuFlavorIds: ["cpu5g"] });
    expect(cpu).toMatchObject({ gpuTypeId: null, cpuFlavorId: "cpu5g", dataCenterId: "EU-RO-1" });
  });
});

describe("Capacity (unit)", () => {
  test("reserve/release and the empty list meaning any rentable type", () => {
    const capacity = new Capacity(createAvailabilityTable({ defaultGpus: 1, scarceDefaults: false }));
    const request = {
      computeType: "GPU" as const,
      gpuTypeIds: [],
      gpuCount: 1,
      cpuFlavorIds: [],
      vcpuCount: 2,
      dataCenterIds: ["EU-RO-1"],
      cloudType: "SECURE" as const,
      interruptible: false,
    };
    const a = capacity.choose(request);
    if ("error" in a) throw new Error(a.error);
    expect(a.typeId).toBe(RTX4090);
    capacity.reserve(a.kind, a.typeId, a.dataCenterId, a.units);
    const b = capacity.choose(request);
    if ("error" in b) throw new Error(b.error);
    expect(b.typeId).toBe(A40);
    capacity.release(a.kind, a.typeId, a.dataCenterId, a.units);
    expect(capacity.free("gpu", RTX4090, "EU-RO-1")).toBe(1);
    const legacy = capacity.choose({ ...request, gpuTypeIds: ["NVIDIA  A30"] });
    expect("error" in legacy).toBe(true);
    const slow = capacity.choose({ ...request, minDownloadMbps: 1e9 });
    expect(slow).toEqual({ error: expect.stringContaining("minimum") });
  });
});
