import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, FakeServerless, api, createServerlessTemplate, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;
const fake = new FakeServerless();

beforeAll(async () => {
  emu = await startTestEmulator({ serverlessFactory: fake.factory });
  client = api(emu);
});
afterAll(async () => {
  await emu.close();
  expect(fake.closed).toBe(true);
});

describe("create", () => {
  test("defaults filled in, template resolved into the job side's EndpointSpec", async () => {
    const tpl = await createServerlessTemplate(client);
    const res = await client.post("/endpoints", { templateId: tpl.id, gpuTypeIds: ["NVIDIA L4"], name: "my endpoint" });
    expect(res.status).toBe(200);
    const endpoint = res.body;
    expect(endpoint.id).toMatch(/^[a-z0-9]{14}$/);
    expect(endpoint).toMatchObject({
      name: "my endpoint",
      templateId: tpl.id,
      computeType: "GPU",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 1,
      idleTimeout: 5,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      workersMin: 0,
      workersMax: 3,
      executionTimeoutMs: 600000,
      version: 0,
      env: {},
      userId: emu.accountIdOf(emu.apiKey),
    });
    expect(endpoint.dataCenterIds).toHaveLength(26);
    expect(Date.parse(endpoint.createdAt)).not.toBeNaN();
    const spec = fake.changed.at(-1);
    expect(spec).toMatchObject({
      id: endpoint.id,
      accountId: emu.accountIdOf(emu.apiKey),
      imageName: "example/worker:1",
      env: { MODEL: "small", PORT: "80", PORT_HEALTH: "80" },
      gpuTypeIds: ["NVIDIA L4"],
      version: 0,
      type: "QUEUE",
    });
  });

  test("CPU endpoints show instanceIds", async () => {
    const tpl = await createServerlessTemplate(client);
    const res = await client.post("/endpoints", { templateId: tpl.id, computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 8 });
    expect(res.status).toBe(200);
    expect(res.body.instanceIds).toEqual(["cpu3c-8-16"]);
  });

  test.each([
    [{}, "templateId"],
    [{ idleTimeout: 0 }, "idleTimeout"],
    [{ idleTimeout: 3601 }, "idleTimeout"],
    [{ scalerValue: 0 }, "scalerValue"],
    [{ workersMin: -1 }, "workersMin"],
    [{ workersMax: -1 }, "workersMax"],
    [{ workersMin: 4, workersMax: 3 }, "workersMin (4) must be <= workersMax (3)"],
    [{ gpuCount: 0 }, "gpuCount"],
    [{ name: "n".repeat(192) }, "name"],
    [{ scalerType: "FAST" }, "scalerType"],
    [{ computeType: "TPU" }, "computeType"],
    [{ cpuFlavorIds: ["cpu3m"] }, "cpuFlavorIds[0]"],
    [{ minCudaVersion: "10.0" }, "minCudaVersion"],
    [{ networkVolumeId: "nosuchvol0" }, "networkVolumeId"],
    [{ networkVolumeIds: ["nosuchvol0"] }, "networkVolumeIds"],
    [{ flashboot: "yes" }, "flashboot"],
    [{ env: { A: "1" } }, '"env"'],
  ])("400 naming the field: %j", async (extra, field) => {
    const tpl = await createServerlessTemplate(client);
    const body = "templateId" in extra || Object.keys(extra).length === 0 ? extra : { templateId: tpl.id, ...extra };
    const res = await client.post("/endpoints", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
  });

  test("the template must exist and be a serverless template", async () => {
    const missing = await client.post("/endpoints", { templateId: "nosuchtpl0" });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("nosuchtpl0");
    const podTemplate = await client.post("/templates", { name: "for pods", imageName: "example/pod:1" });
    const wrong = await client.post("/endpoints", { templateId: podTemplate.body.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain("isServerless");
  });
});

describe("read", () => {
  test("get/list with includeTemplate and includeWorkers (workers as Pod-shaped objects)", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id, gpuTypeIds: ["NVIDIA L4"] })).body;
    fake.workerList.set(endpoint.id, [
      {
        id: "worker00000001",
        status: "running",
        gpuTypeId: "NVIDIA L4",
        dataCenterId: "EU-RO-1",
        costPerHr: 0.43,
        createdAtMs: emu.clock.now(),
      },
    ]);
    const plain = await client.get(`/endpoints/${endpoint.id}`);
    expect(plain.body.template).toBeUndefined();
    expect(plain.body.workers).toBeUndefined();
    const full = await client.get(`/endpoints/${endpoint.id}`, { includeTemplate: "true", includeWorkers: "true" });
    expect(full.body.template).toMatchObject({ id: tpl.id, imageName: "example/worker:1", isServerless: true });
    expect(full.body.workers).toEqual([
      expect.objectContaining({
        id: "worker00000001",
        desiredStatus: "RUNNING",
        endpointId: endpoint.id,
        image: "example/worker:1",
        costPerHr: 0.43,
        slsVersion: 0,
        gpu: expect.objectContaining({ id: "NVIDIA L4" }),
      }),
    ]);
    // The pod list shows workers when asked.
    const pods = await client.get("/pods", { endpointId: endpoint.id });
    expect(pods.body.map((p: { id: string }) => p.id)).toEqual(["worker00000001"]);
    const asPod = await client.get("/pods/worker00000001", { includeWorkers: "true" });
    expect(asPod.body.endpointId).toBe(endpoint.id);
    expect((await client.get("/pods/worker00000001")).status).toBe(404);
    const list = await client.get("/endpoints", { includeTemplate: "1" });
    expect(list.status).toBe(200);
    expect(list.body.find((e: { id: string }) => e.id === endpoint.id).template.id).toBe(tpl.id);
    expect((await client.get("/endpoints/nosuchendpoint")).body).toEqual({ error: "endpoint not found", status: 404 });
  });
});

describe("rolling releases", () => {
  test("each worker reports the endpoint version it was started with (slsVersion), the endpoint its latest", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id, gpuTypeIds: ["NVIDIA L4"] })).body;
    const next = await createServerlessTemplate(client);
    const released = await client.patch(`/endpoints/${endpoint.id}`, { templateId: next.id });
    expect(released.status, released.text).toBe(200);
    expect(released.body.version).toBe(1);
    const worker = (id: string, version: number) => ({
      id,
      status: "running" as const,
      gpuTypeId: "NVIDIA L4",
      dataCenterId: "EU-RO-1",
      costPerHr: 0.43,
      createdAtMs: emu.clock.now(),
      version,
    });
    // One worker still runs version 0 (busy when the release came), one runs the new version.
    fake.workerList.set(endpoint.id, [worker("worker0000000a", 0), worker("worker0000000b", 1)]);
    const full = await client.get(`/endpoints/${endpoint.id}`, { includeWorkers: "true" });
    expect(full.body.version).toBe(1);
    expect(full.body.workers.map((w: { id: string; slsVersion: number }) => [w.id, w.slsVersion])).toEqual([
      ["worker0000000a", 0],
      ["worker0000000b", 1],
    ]);
  });
});

describe("update", () => {
  test("PATCH bumps version only when workers must change; every change reaches the job side", async () => {
    const tpl = await createServerlessTemplate(client);
    const other = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id })).body;
    const scaled = await client.patch(`/endpoints/${endpoint.id}`, { workersMax: 5, idleTimeout: 60, name: "renamed", flashboot: false });
    expect(scaled.status).toBe(200);
    expect(scaled.body).toMatchObject({ workersMax: 5, idleTimeout: 60, name: "renamed", version: 0 });
    expect(fake.changed.at(-1)).toMatchObject({ id: endpoint.id, workersMax: 5, idleTimeout: 60, version: 0 });
    const released = await client.post(`/endpoints/${endpoint.id}/update`, { templateId: other.id });
    expect(released.body).toMatchObject({ templateId: other.id, version: 1 });
    const hardware = await client.patch(`/endpoints/${endpoint.id}`, { gpuTypeIds: ["NVIDIA A40"], dataCenterIds: ["EU-RO-1", "US-TX-3"] });
    expect(hardware.body).toMatchObject({ version: 2, gpuTypeIds: ["NVIDIA A40"], dataCenterIds: ["EU-RO-1", "US-TX-3"] });
    // Comma-separated dataCenterIds are accepted too (clients echo what they read).
    const comma = await client.patch(`/endpoints/${endpoint.id}`, { dataCenterIds: "EU-RO-1,US-TX-3" });
    expect(comma.body).toMatchObject({ version: 2, dataCenterIds: ["EU-RO-1", "US-TX-3"] });
    // A template update rolls the endpoints built on it.
    await client.patch(`/templates/${other.id}`, { imageName: "example/worker:2" });
    const rolled = await client.get(`/endpoints/${endpoint.id}`);
    expect(rolled.body.version).toBe(3);
    expect(fake.changed.at(-1)).toMatchObject({ id: endpoint.id, imageName: "example/worker:2", version: 3 });
  });

  test("computeType cannot be updated; min/max checked on the merged values", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id, workersMin: 1, workersMax: 2 })).body;
    const compute = await client.patch(`/endpoints/${endpoint.id}`, { computeType: "CPU" });
    expect(compute.status).toBe(400);
    expect(compute.body.error).toContain("computeType");
    const tooLow = await client.patch(`/endpoints/${endpoint.id}`, { workersMax: 0 });
    expect(tooLow.status).toBe(400);
    expect(tooLow.body.error).toContain("workersMin (1) must be <= workersMax (0)");
    expect((await client.patch("/endpoints/nosuchendpoint", { name: "x" })).status).toBe(404);
    await client.patch(`/endpoints/${endpoint.id}`, { workersMin: 0 });
  });
});

describe("delete", () => {
  test("refused while workersMin > 0 (scale to 0 first), then 204 and the job side is told", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id, workersMin: 1 })).body;
    const refused = await client.del(`/endpoints/${endpoint.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain("workersMin");
    expect(refused.body.error).toContain("scale workersMin to 0");
    await client.patch(`/endpoints/${endpoint.id}`, { workersMin: 0 });
    expect((await client.del(`/endpoints/${endpoint.id}`)).status).toBe(204);
    expect(fake.deleted.at(-1)).toEqual({ accountId: emu.accountIdOf(emu.apiKey), endpointId: endpoint.id });
    expect((await client.get(`/endpoints/${endpoint.id}`)).status).toBe(404);
  });
});

describe("job side seam", () => {
  test("getEndpoint resolves own endpoints only; public endpoints for every account", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id })).body;
    const deps = fake.deps;
    if (!deps) throw new Error("no deps");
    const a = deps.resolveAccount(`Bearer ${emu.apiKey}`);
    const b = deps.resolveAccount(emu.apiKeys[1]);
    expect(a).toBe(emu.accountIdOf(emu.apiKey));
    expect(b).toBeDefined();
    expect(deps.resolveAccount("Bearer wrong")).toBeUndefined();
    expect(deps.resolveAccount(undefined)).toBeUndefined();
    expect(deps.getEndpoint(a ?? "", endpoint.id)?.id).toBe(endpoint.id);
    expect(deps.getEndpoint(b ?? "", endpoint.id)).toBeUndefined();
  });

  test("--public-endpoint specs are announced and callable by any account", async () => {
    const own = new FakeServerless();
    const pub = await startTestEmulator({ serverlessFactory: own.factory, publicEndpoints: { "hello-world": "example/hello:1" } });
    try {
      expect(own.changed).toEqual([expect.objectContaining({ id: "hello-world", accountId: "public", imageName: "example/hello:1" })]);
      const someone = own.deps?.resolveAccount(pub.apiKeys[1]) ?? "";
      expect(own.deps?.getEndpoint(someone, "hello-world")?.imageName).toBe("example/hello:1");
    } finally {
      await pub.close();
    }
  });
});
