import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, api, createServerlessTemplate, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = api(emu);
});
afterAll(() => emu.close());

describe("templates", () => {
  test("create fills the documented defaults; ids are 10 characters", async () => {
    const res = await client.post("/templates", { name: "defaults", imageName: "example/app:1" });
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^[a-z0-9]{10}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      name: "defaults",
      imageName: "example/app:1",
      category: "NVIDIA",
      containerDiskInGb: 50,
      dockerEntrypoint: [],
      dockerStartCmd: [],
      earned: 0,
      env: {},
      isPublic: false,
      isServerless: false,
      ports: ["8888/http", "22/tcp"],
      readme: "",
      runtimeInMin: 0,
      volumeInGb: 20,
      volumeMountPath: "/workspace",
    });
  });

  test("serverless templates get PORT and PORT_HEALTH injected (unless set)", async () => {
    const res = await client.post("/templates", { name: "sls", imageName: "example/w:1", isServerless: true, env: { PORT: "8000" } });
    expect(res.body.env).toEqual({ PORT: "8000", PORT_HEALTH: "80" });
  });

  test.each([
    [{ imageName: "x" }, "name"],
    [{ name: "x" }, "imageName"],
    [{ name: "x", imageName: "x", category: "TPU" }, "category"],
    [{ name: "x", imageName: "x", containerDiskInGb: -5 }, "containerDiskInGb"],
    [{ name: "x", imageName: "x", ports: "99999/tcp" }, "ports[0]"],
    [{ name: "x", imageName: "x", containerRegistryAuthId: "cnope" }, "containerRegistryAuthId"],
    [{ name: "x", imageName: "x", extra: 1 }, '"extra"'],
  ])("400 naming the field: %j", async (body, field) => {
    const res = await client.post("/templates", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
  });

  test("names are unique per account (409), on create and on rename; other accounts may reuse them", async () => {
    const first = await client.post("/templates", { name: "unique-name", imageName: "example/a:1" });
    const again = await client.post("/templates", { name: "unique-name", imageName: "example/b:1" });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("unique-name");
    expect(again.body.error).toContain(first.body.id);
    const second = await client.post("/templates", { name: "other-name", imageName: "example/a:1" });
    const rename = await client.patch(`/templates/${second.body.id}`, { name: "unique-name" });
    expect(rename.status).toBe(409);
    expect((await client.patch(`/templates/${first.body.id}`, { name: "unique-name" })).status).toBe(200); // own name is fine
    expect((await api(emu, KEY_B).post("/templates", { name: "unique-name", imageName: "example/a:1" })).status).toBe(200);
  });

  test("PATCH and POST /update accept every field except category and isServerless", async () => {
    const tpl = (await client.post("/templates", { name: "patchable", imageName: "example/a:1" })).body;
    const all = {
      containerDiskInGb: 11,
      dockerEntrypoint: ["/bin/sh"],
      dockerStartCmd: ["-c", "run"],
      env: { A: "b" },
      imageName: "example/a:2",
      isPublic: true,
      name: "patched",
      ports: ["22/tcp"],
      readme: "# hi",
      volumeInGb: 7,
      volumeMountPath: "/data",
    };
    const res = await client.patch(`/templates/${tpl.id}`, all);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(all);
    const viaPost = await client.post(`/templates/${tpl.id}/update`, { readme: "again" });
    expect(viaPost.body.readme).toBe("again");
    for (const key of ["category", "isServerless"]) {
      const refused = await client.patch(`/templates/${tpl.id}`, { [key]: key === "category" ? "CPU" : true });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(key);
      expect(refused.body.error).toContain("only be set when the template is created");
    }
  });

  test("list and get: own templates; public and service templates only when asked", async () => {
    const other = api(emu, KEY_B);
    const shared = (await other.post("/templates", { name: "shared-public", imageName: "example/p:1", isPublic: true })).body;
    const ownIds = (await client.get("/templates")).body.map((t: { id: string }) => t.id);
    expect(ownIds).not.toContain(shared.id);
    const withPublic = (await client.get("/templates", { includePublicTemplates: "true" })).body.map((t: { id: string }) => t.id);
    expect(withPublic).toContain(shared.id);
    const withService = (await client.get("/templates", { includeServiceTemplates: "true" })).body.map((t: { id: string }) => t.id);
    expect(withService).toContain("svcpytorch");
    expect((await client.get("/templates", { includeEndpointBoundTemplates: "true" })).status).toBe(200);
    expect((await client.get(`/templates/${shared.id}`)).status).toBe(404);
    expect((await client.get(`/templates/${shared.id}`, { includePublicTemplates: "true" })).body.id).toBe(shared.id);
    expect((await client.get("/templates/nosuchtpl0")).body).toEqual({ error: "template not found", status: 404 });
    // Someone else's public template cannot be changed or deleted.
    expect((await client.patch(`/templates/${shared.id}`, { name: "mine" })).status).toBe(404);
    expect((await client.del(`/templates/${shared.id}`)).status).toBe(404);
  });

  test("delete: 204, refused (409) while an endpoint uses the template", async () => {
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id })).body;
    const refused = await client.del(`/templates/${tpl.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(endpoint.id);
    await client.del(`/endpoints/${endpoint.id}`);
    expect((await client.del(`/templates/${tpl.id}`)).status).toBe(204);
    expect((await client.get(`/templates/${tpl.id}`)).status).toBe(404);
  });
});
