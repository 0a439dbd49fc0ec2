import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, api, startTestEmulator, waitForBoot } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;

beforeAll(async () => {
  // 2 s of service time to boot = 20 ms real at timeScale 0.01.
  emu = await startTestEmulator({ bootDelayMs: 2000 });
  client = api(emu);
});
afterAll(() => emu.close());

describe("create", () => {
  test("201 with documented defaults, price, image under both names, injected PUBLIC_KEY", async () => {
    const res = await client.post("/pods", { imageName: "example/app:1", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], env: { A: "1" } });
    expect(res.status).toBe(201);
    const pod = res.body;
    expect(pod.id).toMatch(/^[a-z0-9]{14}$/);
    expect(pod).toMatchObject({
      name: "my pod",
      desiredStatus: "RUNNING",
      image: "example/app:1",
      imageName: "example/app:1",
      ports: ["8888/http", "22/tcp"],
      containerDiskInGb: 50,
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      dockerEntrypoint: [],
      dockerStartCmd: [],
      costPerHr: 0.69,
      adjustedCostPerHr: 0.69,
      interruptible: false,
      locked: false,
      gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
      consumerUserId: emu.accountIdOf(emu.apiKey),
      templateId: null,
      endpointId: null,
    });
    expect(pod.env.A).toBe("1");
    expect(pod.env.PUBLIC_KEY).toMatch(/^ssh-ed25519 /);
    expect(pod.lastStatusChange).toMatch(/^Rented by User: /);
  });

  test("price scales with gpuCount, cloud type and interruptible; CPU pods are priced per vCPU", async () => {
    const two = await client.post("/pods", { ...GPU_POD, gpuCount: 2 });
    expect(two.body.costPerHr).toBeCloseTo(1.38, 6);
    const community = await client.post("/pods", { ...GPU_POD, cloudType: "COMMUNITY" });
    expect(community.body.costPerHr).toBeCloseTo(0.552, 6);
    const spot = await client.post("/pods", { ...GPU_POD, interruptible: true });
    expect(spot.body.costPerHr).toBeCloseTo(0.345, 6);
    expect(spot.body.interruptible).toBe(true);
    const cpu = await client.post("/pods", { imageName: "example/cpu:1", computeType: "CPU", cpuFlavorIds: ["cpu3g"], vcpuCount: 4 });
    expect(cpu.status).toBe(201);
    expect(cpu.body).toMatchObject({ cpuFlavorId: "cpu3g", vcpuCount: 4, memoryInGb: 16 });
    expect(cpu.body.costPerHr).toBeCloseTo(0.16, 6);
    expect(cpu.body.gpu).toBeUndefined();
  });

  test("a template supplies image, env, ports and disks; the body overrides them", async () => {
    const tpl = await client.post("/templates", {
      name: "pod-template",
      imageName: "example/from-template:2",
      env: { FROM: "template", SHARED: "template" },
      ports: ["7860/http"],
      containerDiskInGb: 10,
    });
    expect(tpl.status).toBe(200);
    const res = await client.post("/pods", {
      templateId: tpl.body.id,
      gpuTypeIds: GPU_POD.gpuTypeIds,
      env: { SHARED: "body" },
      volumeInGb: 5,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      image: "example/from-template:2",
      ports: ["7860/http"],
      containerDiskInGb: 10,
      volumeInGb: 5,
      templateId: tpl.body.id,
    });
    expect(res.body.env).toMatchObject({ FROM: "template", SHARED: "body" });
    const withTemplate = await client.get(`/pods/${res.body.id}`, { includeTemplate: "true" });
    expect(withTemplate.body.template).toMatchObject({ id: tpl.body.id, name: "pod-template" });
  });

  test.each([
    [{ gpuTypeIds: GPU_POD.gpuTypeIds }, "imageName"],
    [{ ...GPU_POD, gpuCount: 0 }, "gpuCount"],
    [{ ...GPU_POD, gpuCount: 1.5 }, "gpuCount"],
    [{ ...GPU_POD, gpuTypeIds: ["NVIDIA GTX 1"] }, "gpuTypeIds[0]"],
    [{ ...GPU_POD, name: "x".repeat(192) }, "name"],
    [{ ...GPU_POD, cloudType: "PRIVATE" }, "cloudType"],
    [{ ...GPU_POD, ports: ["http"] }, "ports[0]"],
    [{ ...GPU_POD, env: { A: 1 } }, "env.A"],
    [{ ...GPU_POD, dataCenterIds: ["MARS-1"] }, "dataCenterIds[0]"],
    [{ ...GPU_POD, templateId: "nosuchtpl0" }, "templateId"],
    [{ ...GPU_POD, networkVolumeId: "nosuchvol0" }, "networkVolumeId"],
    [{ ...GPU_POD, containerRegistryAuthId: "cnosuchauth" }, "containerRegistryAuthId"],
    [{ ...GPU_POD, bogusField: true }, '"bogusField"'],
  ])("400 naming the field: %j", async (body, field) => {
    const res = await client.post("/pods", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
    expect(res.body.status).toBe(400);
  });

  test("a network volume pins the pod to its data center", async () => {
    const volume = await client.post("/networkvolumes", { name: "v", size: 10, dataCenterId: "EU-SE-1" });
    const pod = await client.post("/pods", { ...GPU_POD, networkVolumeId: volume.body.id });
    expect(pod.status).toBe(201);
    const read = await client.get(`/pods/${pod.body.id}`, { includeMachine: "true", includeNetworkVolume: "true" });
    expect(read.body.machine.dataCenterId).toBe("EU-SE-1");
    expect(read.body.networkVolume).toEqual({ id: volume.body.id, name: "v", size: 10, dataCenterId: "EU-SE-1" });
    const clash = await client.post("/pods", { ...GPU_POD, networkVolumeId: volume.body.id, dataCenterIds: ["EU-RO-1"] });
    expect(clash.status).toBe(400);
    expect(clash.body.error).toContain("EU-SE-1");
  });

  test("countryCodes restrict data centers", async () => {
    const res = await client.post("/pods", { ...GPU_POD, countryCodes: ["JP"] });
    const read = await client.get(`/pods/${res.body.id}`, { includeMachine: "true" });
    expect(read.body.machine.dataCenterId).toBe("AP-JP-1");
    const none = await client.post("/pods", { ...GPU_POD, countryCodes: ["ZZ"] });
    expect(none.status).toBe(400);
    expect(none.body.error).toContain("countryCodes");
  });
});

describe("boot", () => {
  test("RUNNING at once, public IP and one mapping per declared port only after the boot delay", async () => {
    const created = await client.post("/pods", { ...GPU_POD, ports: ["8888/http", "22/tcp", "9000/tcp"] });
    expect(created.body.desiredStatus).toBe("RUNNING");
    expect(created.body.publicIp).toBeNull();
    expect(created.body.portMappings).toEqual({});
    const booted = await waitForBoot(client, created.body.id);
    expect(booted.publicIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(Object.keys(booted.portMappings).sort()).toEqual(["22", "8888", "9000"]);
    for (const port of Object.values(booted.portMappings)) expect(port).toEqual(expect.any(Number));
  });
});

describe("read", () => {
  test("get with include flags; 404 in the service's words", async () => {
    const created = await client.post("/pods", GPU_POD);
    const plain = await client.get(`/pods/${created.body.id}`);
    expect(plain.body.machine).toBeUndefined();
    expect(plain.body.savingsPlans).toBeUndefined();
    const full = await client.get(`/pods/${created.body.id}`, {
      includeMachine: "true",
      includeNetworkVolume: "true",
      includeSavingsPlans: "true",
      includeTemplate: "true",
      includeWorkers: "true",
    });
    expect(full.body.machine).toMatchObject({ gpuTypeId: "NVIDIA GeForce RTX 4090", secureCloud: true, costPerHr: 0.69 });
    expect(full.body.savingsPlans).toEqual([]);
    const missing = await client.get("/pods/doesnotexist00");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "pod not found", status: 404 });
    const badFlag = await client.get(`/pods/${created.body.id}`, { includeMachine: "maybe" });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error).toContain("includeMachine");
  });

  test("list filters", async () => {
    const own = await startTestEmulator();
    const c = api(own);
    try {
      const a = (await c.post("/pods", { ...GPU_POD, name: "alpha", dataCenterIds: ["EU-RO-1"] })).body;
      const b = (
        await c.post("/pods", {
          ...GPU_POD,
          name: "beta",
          imageName: "example/other:1",
          gpuTypeIds: ["NVIDIA L4"],
          dataCenterIds: ["US-TX-3"],
        })
      ).body;
      const cpu = (await c.post("/pods", { imageName: "example/cpu:1", computeType: "CPU", cpuFlavorIds: ["cpu5c"] })).body;
      await c.post(`/pods/${b.id}/stop`);
      const ids = async (query: Record<string, string | string[]>) =>
        ((await c.get("/pods", query)).body as Array<{ id: string }>).map((p) => p.id);
      expect(await ids({})).toEqual([a.id, b.id, cpu.id]);
      expect(await ids({ name: "alpha" })).toEqual([a.id]);
      expect(await ids({ id: b.id })).toEqual([b.id]);
      expect(await ids({ imageName: "example/other:1" })).toEqual([b.id]);
      expect(await ids({ desiredStatus: "EXITED" })).toEqual([b.id]);
      expect(await ids({ desiredStatus: "RUNNING" })).toEqual([a.id, cpu.id]);
      expect(await ids({ computeType: "CPU" })).toEqual([cpu.id]);
      expect(await ids({ cpuFlavorId: ["cpu3c", "cpu5c"] })).toEqual([cpu.id]);
      expect(await ids({ gpuTypeId: ["NVIDIA L4"] })).toEqual([b.id]);
      expect(await ids({ gpuTypeId: "NVIDIA L4,NVIDIA GeForce RTX 4090" })).toEqual([a.id, b.id]);
      expect(await ids({ dataCenterId: ["US-TX-3"] })).toEqual([b.id]);
      expect(await ids({ templateId: "none" })).toEqual([]);
      expect(await ids({ networkVolumeId: "none" })).toEqual([]);
      expect(await ids({ endpointId: "none" })).toEqual([]);
      expect(await ids({ unknownParameter: "is ignored" })).toEqual([a.id, b.id, cpu.id]);
      const bad = await c.get("/pods", { desiredStatus: "SLEEPING" });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain("desiredStatus");
      expect(bad.body.error).toContain("SLEEPING");
    } finally {
      await own.close();
    }
  });
});

describe("update", () => {
  test("PATCH and POST /update change allowed fields; image change resets a running pod", async () => {
    const created = (await client.post("/pods", GPU_POD)).body;
    await waitForBoot(client, created.id);
    const renamed = await client.patch(`/pods/${created.id}`, { name: "renamed", locked: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("renamed");
    expect(renamed.body.publicIp).not.toBeNull(); // name/locked alone never reset
    const updated = await client.post(`/pods/${created.id}/update`, {
      imageName: "example/app:2",
      env: { ONLY: "this" },
      ports: ["22/tcp"],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ image: "example/app:2", imageName: "example/app:2", ports: ["22/tcp"], desiredStatus: "RUNNING" });
    expect(updated.body.env).toEqual({ ONLY: "this" }); // wholesale: the injected PUBLIC_KEY is gone
    expect(updated.body.publicIp).toBeNull();
    expect(updated.body.portMappings).toEqual({});
    expect(updated.body.lastStatusChange).toMatch(/^Reset by update/);
    const rebooted = await waitForBoot(client, created.id);
    expect(Object.keys(rebooted.portMappings)).toEqual(["22"]);
  });

  test("an update that changes nothing does not reset", async () => {
    const created = (await client.post("/pods", GPU_POD)).body;
    await waitForBoot(client, created.id);
    const same = await client.patch(`/pods/${created.id}`, { imageName: GPU_POD.imageName });
    expect(same.body.publicIp).not.toBeNull();
  });

  test("create-only and unknown fields are 400 naming the key", async () => {
    const created = (await client.post("/pods", GPU_POD)).body;
    for (const key of ["gpuTypeIds", "cloudType", "gpuCount", "networkVolumeId", "templateId", "dataCenterIds", "interruptible"]) {
      const res = await client.patch(`/pods/${created.id}`, { [key]: null });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(`"${key}"`);
      expect(res.body.error).toContain("only be set when the pod is created");
    }
    const unknown = await client.patch(`/pods/${created.id}`, { colour: "blue" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('"colour"');
    const badValue = await client.patch(`/pods/${created.id}`, { containerDiskInGb: -1 });
    expect(badValue.status).toBe(400);
    expect(badValue.body.error).toContain("containerDiskInGb");
    expect((await client.patch("/pods/doesnotexist00", { name: "x" })).status).toBe(404);
  });
});

describe("lifecycle", () => {
  test("stop -> EXITED (no IP), start -> RUNNING and boots again, restart, reset, delete -> 404", async () => {
    const created = (await client.post("/pods", GPU_POD)).body;
    await waitForBoot(client, created.id);
    const stopped = await client.post(`/pods/${created.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ desiredStatus: "EXITED", publicIp: null, portMappings: {} });
    expect((await client.post(`/pods/${created.id}/stop`)).body.desiredStatus).toBe("EXITED"); // idempotent
    const reset = await client.post(`/pods/${created.id}/reset`);
    expect(reset.body.desiredStatus).toBe("EXITED");
    const started = await client.post(`/pods/${created.id}/start`);
    expect(started.body).toMatchObject({ desiredStatus: "RUNNING", publicIp: null });
    await waitForBoot(client, created.id);
    const restarted = await client.post(`/pods/${created.id}/restart`);
    expect(restarted.body).toMatchObject({ desiredStatus: "RUNNING", publicIp: null });
    await waitForBoot(client, created.id);
    const resetRunning = await client.post(`/pods/${created.id}/reset`);
    expect(resetRunning.body.publicIp).toBeNull();
    await client.post(`/pods/${created.id}/stop`);
    const restartStopped = await client.post(`/pods/${created.id}/restart`);
    expect(restartStopped.body.desiredStatus).toBe("RUNNING");
    const deleted = await client.del(`/pods/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await client.get(`/pods/${created.id}`)).status).toBe(404);
    expect((await client.del(`/pods/${created.id}`)).status).toBe(404);
    for (const action of ["start", "stop", "reset", "restart"]) {
      expect((await client.post(`/pods/${created.id}/${action}`)).status).toBe(404);
    }
  });

  test("a locked pod refuses stop, reset and resetting updates with a clear 400; unlocking in the same PATCH works", async () => {
    const created = (await client.post("/pods", { ...GPU_POD, locked: true })).body;
    expect(created.locked).toBe(true);
    for (const action of ["stop", "reset"]) {
      const res = await client.post(`/pods/${created.id}/${action}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain("locked");
      expect(res.body.error).toContain(created.id);
    }
    const resetting = await client.patch(`/pods/${created.id}`, { imageName: "example/app:9" });
    expect(resetting.status).toBe(400);
    expect(resetting.body.error).toContain("locked");
    expect((await client.patch(`/pods/${created.id}`, { name: "still locked" })).status).toBe(200);
    const unlockAndUpdate = await client.patch(`/pods/${created.id}`, { imageName: "example/app:9", locked: false });
    expect(unlockAndUpdate.status).toBe(200);
    expect(unlockAndUpdate.body).toMatchObject({ locked: false, image: "example/app:9" });
    expect((await client.post(`/pods/${created.id}/stop`)).status).toBe(200);
  });
});
