/** /api/v2/templates, /network-volumes and /registries over real HTTP: shapes, 201s, wrapped lists, PATCH, DELETE and their refusals. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

describe("/api/v2/templates", () => {
  it("creates (201) with defaults, gets, lists wrapped, and another account sees none of it", async () => {
    const res = await v2.post("/templates", {
      name: "tpl-a",
      image: "example/a:1",
      env: { A: "1" },
      ports: ["8888/http"],
      mounts: { persistent: { size: 20, path: "/data" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "tpl-a",
      image: "example/a:1",
      args: "",
      cmd: [],
      entrypoint: [],
      disk: expect.any(Number),
      env: { A: "1" },
      ports: ["8888/http"],
      registry: null,
      mounts: { persistent: { size: 20, path: "/data" } },
      serverless: false,
      public: false,
      category: "NVIDIA",
      startSsh: true,
      startJupyter: true,
      allowedCudaVersions: [],
    });
    expect((await v2.get(`/templates/${res.body.id}`)).body).toEqual(res.body);
    expect((await v2.get("/templates")).body.templates.map((t: { id: string }) => t.id)).toContain(res.body.id);
    const other = apiV2(emu, KEY_B);
    expect((await other.get("/templates")).body.templates.map((t: { id: string }) => t.id)).not.toContain(res.body.id);
    expectProblem(await other.get(`/templates/${res.body.id}`), 404);
  });

  it("PATCHes only what is sent; a name another template has is accepted (v2 states no uniqueness)", async () => {
    const a = (await v2.post("/templates", { name: "tpl-patch", image: "example/p:1", env: { KEEP: "1" } })).body;
    await v2.post("/templates", { name: "tpl-taken", image: "example/t:1" });
    const res = await v2.patch(`/templates/${a.id}`, { args: "python run.py", category: "CPU", startSsh: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "tpl-patch",
      image: "example/p:1",
      env: { KEEP: "1" },
      args: "python run.py",
      category: "CPU",
      startSsh: false,
    });
    expect((await v2.patch(`/templates/${a.id}`, { name: "tpl-taken" })).body.name).toBe("tpl-taken");
  });

  it("answers 422 for a body that does not fit, naming each field", async () => {
    const problem = expectProblem(
      await v2.post("/templates", { name: "", image: "x", category: "TPU", mounts: { network: [] }, imageName: "y" }),
      422,
    );
    const text = problem.errors?.join("\n") ?? "";
    for (const field of ["name", "category", '"mounts.network"', '"imageName"']) expect(text).toContain(field);
  });

  it("deletes a template a pod was made from (204): the pod keeps no link to it (template: null) and lives on", async () => {
    // CreatePodRequest.templateId: "the created pod does not retain a link to the template (`template` stays null)".
    const template = (await v2.post("/templates", { name: "tpl-used", image: "example/u:1" })).body;
    const pod = (await v2.post("/pods", { name: "from-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" } })).body;
    expect(pod.template).toBeNull();
    expect((await v2.del(`/templates/${template.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/templates/${template.id}`), 404);
    expect((await v2.get(`/pods/${pod.id}`)).body).toMatchObject({ image: "example/u:1", template: null });
  });
});

describe("/api/v2/network-volumes", () => {
  it("creates (201) with its type, lists wrapped, grows, renames, and deletes (204)", async () => {
    const res = await v2.post("/network-volumes", { name: "vol-a", size: 10, dataCenter: "EU-RO-1" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "vol-a", size: 10, dataCenter: "EU-RO-1", type: "STANDARD" });
    expect((await v2.get("/network-volumes")).body.networkVolumes).toContainEqual(res.body);
    const grown = await v2.patch(`/network-volumes/${res.body.id}`, { size: 4096, name: "vol-b" });
    expect(grown.status).toBe(200);
    expect(grown.body).toMatchObject({ size: 4096, name: "vol-b", dataCenter: "EU-RO-1" });
    expect((await v2.del(`/network-volumes/${res.body.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/network-volumes/${res.body.id}`), 404);
  });

  it("keeps size within 10..4096 GB (422) and refuses to shrink (400 naming size)", async () => {
    for (const size of [9, 4097, 10.5])
      expect(expectProblem(await v2.post("/network-volumes", { name: "v", size, dataCenter: "EU-RO-1" }), 422).errors?.[0]).toMatch(/size/);
    const volume = (await v2.post("/network-volumes", { name: "v", size: 50, dataCenter: "EU-RO-1" })).body;
    const shrink = expectProblem(await v2.patch(`/network-volumes/${volume.id}`, { size: 20 }), 400);
    expect(shrink.detail).toBe(`invalid size: a network volume can only grow; ${volume.id} has 50 GB, requested 20`);
    expect(expectProblem(await v2.patch(`/network-volumes/${volume.id}`, { dataCenter: "US-TX-3" }), 422).errors?.[0]).toMatch(
      /"dataCenter"/,
    );
  });

  it("names the data center or type a create cannot use (400)", async () => {
    expect(expectProblem(await v2.post("/network-volumes", { name: "v", size: 10, dataCenter: "MARS-1" }), 400).errors?.[0]).toMatch(
      /^invalid dataCenter: unknown data center "MARS-1"/,
    );
    const dataCenters = (await v2.get("/catalog/datacenters")).body.dataCenters as Array<{ id: string; networkVolumeTypes: string[] }>;
    const standardOnly = dataCenters.find((dc) => !dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"));
    if (!standardOnly) throw new Error("the catalog should have a data center without HIGH_PERFORMANCE volumes");
    const wrongType = expectProblem(
      await v2.post("/network-volumes", { name: "v", size: 10, dataCenter: standardOnly.id, type: "HIGH_PERFORMANCE" }),
      400,
    );
    expect(wrongType.errors?.[0]).toMatch(/^invalid type: .* not HIGH_PERFORMANCE/);
    const fast = dataCenters.find((dc) => dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"));
    if (fast)
      expect((await v2.post("/network-volumes", { name: "fast", size: 10, dataCenter: fast.id, type: "HIGH_PERFORMANCE" })).body.type).toBe(
        "HIGH_PERFORMANCE",
      );
  });

  it("refuses to delete a volume a pod or endpoint uses (409), naming them", async () => {
    const volume = (await v2.post("/network-volumes", { name: "attached", size: 10, dataCenter: "EU-SE-1" })).body;
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, mounts: { network: [{ volumeId: volume.id, path: "/models" }] } })).body;
    const endpoint = (await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, networkVolumes: [volume.id] })).body;
    const refused = expectProblem(await v2.del(`/network-volumes/${volume.id}`), 409);
    expect(refused.detail).toContain(pod.id);
    await v2.del(`/pods/${pod.id}`);
    expect(expectProblem(await v2.del(`/network-volumes/${volume.id}`), 409).detail).toContain(endpoint.id);
    await v2.del(`/serverless/${endpoint.id}`);
    expect((await v2.del(`/network-volumes/${volume.id}`)).status).toBe(204);
  });
});

describe("/api/v2/registries", () => {
  it("creates (201) without echoing secrets, lists wrapped, and accepts a name in use (v2 states no uniqueness)", async () => {
    const res = await v2.post("/registries", { name: "reg-a", username: "u", password: "secret-pw" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "reg-a" });
    expect(res.text).not.toContain("secret-pw");
    expect((await v2.get(`/registries/${res.body.id}`)).body).toEqual(res.body);
    expect((await v2.get("/registries")).body.registries).toContainEqual(res.body);
    expect((await v2.post("/registries", { name: "reg-a", username: "u", password: "p" })).status).toBe(201);
    const missing = expectProblem(await v2.post("/registries", { name: "reg-b" }), 422);
    expect(missing.errors).toEqual(expect.arrayContaining([expect.stringContaining("username"), expect.stringContaining("password")]));
  });

  it("refuses delete while a pod pulls with it (400 naming the pod); a template only loses the reference", async () => {
    const registry = (await v2.post("/registries", { name: "reg-used", username: "u", password: "p" })).body;
    const template = (await v2.post("/templates", { name: "tpl-reg", image: "private/x:1", registry: registry.id })).body;
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, registry: registry.id })).body;
    const refused = expectProblem(await v2.del(`/registries/${registry.id}`), 400);
    expect(refused.detail).toContain(pod.id);
    expect(refused.detail).toMatch(/registry to null/);
    await v2.patch(`/pods/${pod.id}`, { registry: null });
    expect((await v2.del(`/registries/${registry.id}`)).status).toBe(204);
    expect((await v2.get(`/templates/${template.id}`)).body.registry).toBeNull();
    expectProblem(await v2.get(`/registries/${registry.id}`), 404);
    expectProblem(await v2.del(`/registries/${registry.id}`), 404);
  });
});
