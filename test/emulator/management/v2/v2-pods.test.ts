/** /api/v2/pods over real HTTP: shapes, status over service time, actions and their 409s, PATCH, DELETE, errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, apiV2, expectProblem, waitForStatus } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  // 30 s of boot is 300 ms real at this time scale: PROVISIONING and STARTING are short but observable,
  // and a create answered on a busy machine is still PROVISIONING (2 s, 20 ms real, was not).
  emu = await startTestEmulator({ bootDelayMs: 30_000 });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

describe("POST /api/v2/pods", () => {
  it("creates a GPU pod (201) with the v2 shape and walks PROVISIONING -> RUNNING over service time", async () => {
    const res = await v2.post("/pods", {
      ...V2_GPU_POD,
      env: { A: "1" },
      args: "python serve.py",
      disk: 30,
      mounts: { persistent: { size: 20, path: "/data" } },
    });
    expect(res.status).toBe(201);
    const pod = res.body;
    expect(pod).toMatchObject({
      name: "v2 pod",
      status: "PROVISIONING",
      actions: ["stop", "terminate"],
      image: "example/app:1",
      args: "python serve.py",
      disk: 30,
      ports: ["8888/http", "22/tcp"],
      registry: null,
      mounts: { persistent: { size: 20, path: "/data" } },
      gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
      cloud: "SECURE",
      cudaVersion: "12.8",
      template: null,
      locked: false,
      globalNetworking: { enabled: false },
      runtime: null,
    });
    expect(pod.env.A).toBe("1");
    expect(pod.cpu).toBeUndefined();
    expect(pod.cost).toBeCloseTo(0.69);
    const running = await waitForStatus(v2, pod.id, "RUNNING");
    expect(running.actions).toEqual(["stop", "restart", "terminate"]);
    const runtime = running.runtime as { ports: Array<{ private: number; public: number | null; type: string; ip: string | null }> };
    expect(runtime.ports.map((p) => [p.private, p.type])).toEqual([
      [8888, "http"],
      [22, "tcp"],
    ]);
    // The http port answers through the shared proxy (100.64.0.0/10, no public port); the tcp port has the pod's own.
    expect(runtime.ports[0]).toMatchObject({ public: null, ip: expect.stringMatching(/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./) });
    expect(runtime.ports[1]).toMatchObject({ public: expect.any(Number), ip: expect.any(String) });
    expect(runtime.ports[1]?.ip).not.toBe(runtime.ports[0]?.ip);
    expect((running.ssh as { direct: { port: number } | null }).direct?.port).toBe(runtime.ports[1]?.public);
  });

  it("creates a CPU pod with cpu {id, vcpuCount, memory} and no gpu", async () => {
    const res = await v2.post("/pods", { name: "cpu", image: "busybox", cpu: { id: "cpu3g", vcpuCount: 4 } });
    expect(res.status).toBe(201);
    expect(res.body.cpu).toEqual({ id: "cpu3g", vcpuCount: 4, memory: 16 });
    expect(res.body.gpu).toBeUndefined();
    expect(res.body.cudaVersion).toBeNull();
    expect(res.body.mounts).toEqual({});
  });

  it("mounts a network volume of the same account and places the pod in its data center", async () => {
    const volume = (await v2.post("/network-volumes", { name: "vol", size: 10, dataCenter: "EU-SE-1" })).body;
    const res = await v2.post("/pods", { ...V2_GPU_POD, mounts: { network: [{ volumeId: volume.id, path: "/models" }] } });
    expect(res.status).toBe(201);
    expect(res.body.mounts).toEqual({ network: [{ volumeId: volume.id, path: "/models" }] });
    expect(res.body.dataCenterId).toBe("EU-SE-1");
  });

  it("applies templateId once (body fields win) and keeps no link to the template (template: null)", async () => {
    const template = (
      await v2.post("/templates", { name: "pod-tpl", image: "tpl/image:1", env: { FROM: "template", KEEP: "t" }, ports: ["7860/http"] })
    ).body;
    const res = await v2.post("/pods", { name: "from-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" }, env: { FROM: "body" } });
    expect(res.status).toBe(201);
    // CreatePodRequest.templateId: "the created pod does not retain a link to the template (`template` stays null)".
    expect(res.body).toMatchObject({ image: "tpl/image:1", ports: ["7860/http"], template: null, gpu: { id: "NVIDIA A40", count: 1 } });
    expect(res.body.env).toMatchObject({ FROM: "body", KEEP: "t" });
  });

  it("rejects bodies that do not fit the schema with 422 listing every field", async () => {
    const problem = expectProblem(await v2.post("/pods", { name: "", gpu: { id: "NVIDIA A40", count: 0 }, imageName: "x" }), 422);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining("name"),
        expect.stringContaining("gpu.count"),
        expect.stringContaining('"imageName"'),
      ]),
    );
  });

  it("answers 400 naming the field for choices the account or catalog rejects", async () => {
    const both = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, cpu: { id: "cpu3c", vcpuCount: 2 } }), 400);
    expect(both.errors?.[0]).toMatch(/exactly one of gpu .* or cpu/);
    expect(expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA Nope" } }), 400).errors?.[0]).toMatch(
      /^invalid gpu\.id: unknown GPU type "NVIDIA Nope"/,
    );
    expect(expectProblem(await v2.post("/pods", { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 6 } }), 400).detail).toMatch(
      /cpu\.vcpuCount: must be a power of two/,
    );
    expect(expectProblem(await v2.post("/pods", { name: "n", gpu: { id: "NVIDIA A40" } }), 400).detail).toMatch(
      /^invalid image: image is required/,
    );
    expect(expectProblem(await v2.post("/pods", { ...V2_GPU_POD, registry: "nope" }), 400).detail).toMatch(/^invalid registry/);
    expect(
      expectProblem(
        await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } }),
        400,
      ).detail,
    ).toMatch(/gpu\.minCudaVersion/);
    expect(expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA B200" } }), 400).detail).toMatch(
      /no instances available/,
    );
  });
});

describe("GET /api/v2/pods", () => {
  it("lists wrapped as {pods: [...]} and 404s an unknown id with a problem", async () => {
    const list = await v2.get("/pods");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.pods)).toBe(true);
    expect(list.body.pods.length).toBeGreaterThan(0);
    expect(expectProblem(await v2.get("/pods/nope"), 404).detail).toBe("pod not found");
  });
});

describe("PATCH /api/v2/pods/{id}", () => {
  it("changes container settings (env replaced whole, registry set and cleared) and renames without a reboot", async () => {
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, env: { A: "1", B: "2" } })).body;
    await waitForStatus(v2, pod.id, "RUNNING");
    const renamed = await v2.patch(`/pods/${pod.id}`, { name: "renamed", locked: true });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "renamed", locked: true, status: "RUNNING", actions: ["restart", "terminate"] });
    const registry = (await v2.post("/registries", { name: "reg-patch", username: "u", password: "p" })).body;
    await v2.patch(`/pods/${pod.id}`, { locked: false });
    const changed = await v2.patch(`/pods/${pod.id}`, {
      image: "example/app:2",
      env: { C: "3" },
      registry: registry.id,
      args: "run --fast",
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ image: "example/app:2", registry: registry.id, args: "run --fast" });
    expect(changed.body.env).toEqual({ C: "3" });
    expect(["PROVISIONING", "STARTING"]).toContain(changed.body.status); // a resetting change reboots
    const cleared = await v2.patch(`/pods/${pod.id}`, { registry: null });
    expect(cleared.body.registry).toBeNull();
  });

  it("refuses create-only fields (422) and a different network volume (400)", async () => {
    const pod = (await v2.post("/pods", V2_GPU_POD)).body;
    const problem = expectProblem(await v2.patch(`/pods/${pod.id}`, { gpu: { id: "NVIDIA A40" } }), 422);
    expect(problem.errors?.[0]).toMatch(/unknown field "gpu"/);
    const volume = (await v2.post("/network-volumes", { name: "v", size: 10, dataCenter: "EU-SE-1" })).body;
    expect(
      expectProblem(await v2.patch(`/pods/${pod.id}`, { mounts: { network: [{ volumeId: volume.id, path: "/x" }] } }), 400).detail,
    ).toMatch(/fixed at create/);
  });
});

describe("POST /api/v2/pods/{id}/action", () => {
  it("stops, starts, restarts and terminates; an action that does not fit the status is a 409", async () => {
    const pod = (await v2.post("/pods", V2_GPU_POD)).body;
    await waitForStatus(v2, pod.id, "RUNNING");
    const stopped = await v2.post(`/pods/${pod.id}/action`, { action: "stop" });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: "EXITED", actions: ["start", "terminate"], cost: 0, runtime: null });
    const again = expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "stop" }), 409);
    expect(again.detail).toMatch(/does not fit pod .* in status EXITED; allowed now: start, terminate/);
    expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "restart" }), 409);
    const started = await v2.post(`/pods/${pod.id}/action`, { action: "start" });
    expect(started.status).toBe(200);
    expect(started.body.status).not.toBe("EXITED");
    await waitForStatus(v2, pod.id, "RUNNING");
    expect((await v2.post(`/pods/${pod.id}/action`, { action: "restart" })).status).toBe(200);
    expect(expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "reset" }), 422).errors?.[0]).toMatch(/action/);
    const gone = await v2.post(`/pods/${pod.id}/action`, { action: "terminate" });
    expect(gone.status).toBe(204);
    expectProblem(await v2.get(`/pods/${pod.id}`), 404);
  });

  it("refuses stop while locked (409 saying how to unlock)", async () => {
    const pod = (await v2.post("/pods", V2_GPU_POD)).body;
    await v2.patch(`/pods/${pod.id}`, { locked: true });
    expect(expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "stop" }), 409).detail).toMatch(/locked/);
  });
});

describe("DELETE /api/v2/pods/{id}", () => {
  it("answers 204 and the pod is gone; a second delete is 404", async () => {
    const pod = (await v2.post("/pods", V2_GPU_POD)).body;
    expect((await v2.del(`/pods/${pod.id}`)).status).toBe(204);
    expectProblem(await v2.del(`/pods/${pod.id}`), 404);
  });
});
