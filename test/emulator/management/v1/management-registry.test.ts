import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, api, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;
const SECRET = "hunter2-super-secret";

beforeAll(async () => {
  emu = await startTestEmulator();
  client = api(emu);
});
afterAll(() => emu.close());

describe("container registry auths", () => {
  test("create, get, list return id and name only; the password never comes back", async () => {
    const created = await client.post("/containerregistryauth", { name: "my creds", username: "me", password: SECRET });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[a-z0-9]{25}$/), name: "my creds" });
    const got = await client.get(`/containerregistryauth/${created.body.id}`);
    expect(got.body).toEqual(created.body);
    const list = await client.get("/containerregistryauth");
    expect(list.body).toContainEqual(created.body);
    for (const text of [created.text, got.text, list.text, JSON.stringify(emu.inspect())]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("password");
    }
  });

  test.each([
    [{ username: "u", password: "p" }, "name"],
    [{ name: "n", password: "p" }, "username"],
    [{ name: "n", username: "u" }, "password"],
    [{ name: "n", username: "u", password: "" }, "password"],
    [{ name: "n", username: "u", password: "p", registry: "x" }, '"registry"'],
  ])("400 naming the field: %j", async (body, field) => {
    const res = await client.post("/containerregistryauth", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
  });

  test("names are unique (409)", async () => {
    await client.post("/containerregistryauth", { name: "dup", username: "u", password: "p" });
    const again = await client.post("/containerregistryauth", { name: "dup", username: "u2", password: "p2" });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("dup");
  });

  test("there is no update operation (405 with Allow)", async () => {
    const id = (await client.post("/containerregistryauth", { name: "no-update", username: "u", password: "p" })).body.id;
    const patch = await client.patch(`/containerregistryauth/${id}`, { name: "x" });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toContain("DELETE");
    expect(patch.body.error).toContain("PATCH");
    expect((await client.post(`/containerregistryauth/${id}/update`, { name: "x" })).status).toBe(404);
  });

  test("delete: 204, 404 after; refused (409) while a pod or template uses it", async () => {
    const auth = (await client.post("/containerregistryauth", { name: "in-use", username: "u", password: "p" })).body;
    const pod = (await client.post("/pods", { ...GPU_POD, containerRegistryAuthId: auth.id })).body;
    expect(pod.containerRegistryAuthId).toBe(auth.id);
    const refused = await client.del(`/containerregistryauth/${auth.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(pod.id);
    await client.patch(`/pods/${pod.id}`, { containerRegistryAuthId: null });
    expect((await client.del(`/containerregistryauth/${auth.id}`)).status).toBe(204);
    expect((await client.get(`/containerregistryauth/${auth.id}`)).body).toEqual({
      error: "container registry auth not found",
      status: 404,
    });
  });
});
