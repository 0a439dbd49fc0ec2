/**
 * /v1 and /api/v2 share one store per account: what is made or changed through one is seen, in
 * that version's shape, through the other, for all five resources.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { type Api, GPU_POD, api, createServerlessTemplate, startTestEmulator, waitForBoot } from "../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem, waitForStatus } from "../../support/v2Helpers";

let emu: RunningEmulator;
let v1: Api;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  v1 = api(emu);
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

describe("pods", () => {
  it("made through /v1, read, changed and stopped through /v2, seen back through /v1", async () => {
    const made = (await v1.post("/pods", { ...GPU_POD, env: { A: "1" }, containerDiskInGb: 30 })).body;
    await waitForBoot(v1, made.id);
    const seen = (await v2.get(`/pods/${made.id}`)).body;
    expect(seen).toMatchObject({
      id: made.id,
      name: "test pod",
      status: "RUNNING",
      image: "example/app:1",
      disk: 30,
      gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
      ports: ["8888/http", "22/tcp"],
    });
    expect(seen.env.A).toBe("1");
    expect((await v2.get("/pods")).body.pods.map((p: { id: string }) => p.id)).toContain(made.id);

    expect((await v2.patch(`/pods/${made.id}`, { name: "renamed in v2" })).status).toBe(200);
    expect((await v2.post(`/pods/${made.id}/action`, { action: "stop" })).body.status).toBe("EXITED");
    expect((await v1.get(`/pods/${made.id}`)).body).toMatchObject({ name: "renamed in v2", desiredStatus: "EXITED" });
  });

  it("made through /v2, read, started and deleted through /v1", async () => {
    const made = (await v2.post("/pods", { ...V2_GPU_POD, env: { B: "2" } })).body;
    const seen = (await v1.get(`/pods/${made.id}`)).body;
    expect(seen).toMatchObject({
      id: made.id,
      name: "v2 pod",
      image: "example/app:1",
      desiredStatus: "RUNNING",
      ports: ["8888/http", "22/tcp"],
    });
    expect(seen.env.B).toBe("2");
    await waitForStatus(v2, made.id, "RUNNING");
    expect((await v1.post(`/pods/${made.id}/stop`)).status).toBe(200);
    expect((await v2.get(`/pods/${made.id}`)).body.status).toBe("EXITED");
    expect((await v1.post(`/pods/${made.id}/start`)).status).toBe(200);
    await waitForStatus(v2, made.id, "RUNNING");
    expect((await v1.del(`/pods/${made.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/pods/${made.id}`), 404);
  });
});

describe("serverless endpoints", () => {
  it("made through /v1 (GPU type list) are read through /v2 as pools and exclusions", async () => {
    const template = await createServerlessTemplate(v1);
    const made = (
      await v1.post("/endpoints", { name: "v1 ep", templateId: template.id, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], workersMax: 2 })
    ).body;
    const seen = (await v2.get(`/serverless/${made.id}`)).body;
    expect(seen).toMatchObject({
      id: made.id,
      name: "v1 ep",
      type: "QUEUE",
      image: "example/worker:1",
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] },
      workers: { min: 0, max: 2 },
    });
    expect(seen.env.MODEL).toBe("small");
  });

  it("made through /v2 are read through /v1 as a GPU type list, and a /v1 change is a /v2 release", async () => {
    const made = (
      await v2.post("/serverless", {
        ...V2_QUEUE_ENDPOINT,
        gpu: { pools: ["ADA_24", "AMPERE_48"], excludedTypes: ["NVIDIA L4"] },
        workers: { max: 4 },
      })
    ).body;
    const seen = (await v1.get(`/endpoints/${made.id}`)).body;
    expect(seen).toMatchObject({
      id: made.id,
      name: "v2 endpoint",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA A40", "NVIDIA RTX A6000"],
      workersMax: 4,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
    });
    expect((await v1.patch(`/endpoints/${made.id}`, { gpuTypeIds: ["NVIDIA A40"] })).status).toBe(200);
    const after = (await v2.get(`/serverless/${made.id}`)).body;
    expect(after.gpu).toMatchObject({ pools: ["AMPERE_48"], excludedTypes: ["NVIDIA RTX A6000"] });
    const releases = (await v2.get(`/serverless/${made.id}/releases`)).body;
    expect(releases.endpointVersion).toBeGreaterThanOrEqual(1);
    expect(releases.releases).toHaveLength(releases.endpointVersion + 1);
    const templatesBefore = emu.inspect()[0]?.templates.length ?? 0;
    expect((await v1.del(`/endpoints/${made.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/serverless/${made.id}`), 404);
    // The template the /v2 create bound to the endpoint goes with it, whichever API deletes it.
    expect(emu.inspect()[0]?.templates.length).toBe(templatesBefore - 1);
  });
});

describe("templates, network volumes, registries", () => {
  it("templates: /v1 imageName and isServerless are /v2 image and serverless, both ways", async () => {
    const fromV1 = (await v1.post("/templates", { name: "v1 tpl", imageName: "example/v1:1", isServerless: true, env: { X: "1" } })).body;
    expect((await v2.get(`/templates/${fromV1.id}`)).body).toMatchObject({
      name: "v1 tpl",
      image: "example/v1:1",
      serverless: true,
      env: { X: "1" },
    });
    const fromV2 = (await v2.post("/templates", { name: "v2 tpl", image: "example/v2:1", ports: ["80/http"] })).body;
    expect((await v1.get(`/templates/${fromV2.id}`)).body).toMatchObject({
      name: "v2 tpl",
      imageName: "example/v2:1",
      isServerless: false,
      ports: ["80/http"],
    });
    await v1.patch(`/templates/${fromV2.id}`, { imageName: "example/v2:2" });
    expect((await v2.get(`/templates/${fromV2.id}`)).body.image).toBe("example/v2:2");
  });

  it("network volumes: /v1 dataCenterId is /v2 dataCenter; a /v2 grow is seen by /v1", async () => {
    const fromV1 = (await v1.post("/networkvolumes", { name: "v1 vol", size: 20, dataCenterId: "EU-RO-1" })).body;
    expect((await v2.get(`/network-volumes/${fromV1.id}`)).body).toEqual({
      id: fromV1.id,
      name: "v1 vol",
      size: 20,
      dataCenter: "EU-RO-1",
      type: "STANDARD",
    });
    await v2.patch(`/network-volumes/${fromV1.id}`, { size: 40 });
    expect((await v1.get(`/networkvolumes/${fromV1.id}`)).body).toMatchObject({ size: 40, dataCenterId: "EU-RO-1" });
    const fromV2 = (await v2.post("/network-volumes", { name: "v2 vol", size: 10, dataCenter: "US-TX-3" })).body;
    expect((await v1.get(`/networkvolumes/${fromV2.id}`)).body).toMatchObject({ name: "v2 vol", size: 10, dataCenterId: "US-TX-3" });
  });

  it("registries: one list, deletable from either side", async () => {
    const fromV1 = (await v1.post("/containerregistryauth", { name: "v1 reg", username: "u", password: "p" })).body;
    expect((await v2.get(`/registries/${fromV1.id}`)).body).toEqual({ id: fromV1.id, name: "v1 reg" });
    const fromV2 = (await v2.post("/registries", { name: "v2 reg", username: "u", password: "p" })).body;
    expect((await v1.get(`/containerregistryauth/${fromV2.id}`)).body).toMatchObject({ id: fromV2.id, name: "v2 reg" });
    expect((await v1.del(`/containerregistryauth/${fromV2.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/registries/${fromV2.id}`), 404);
  });
});
