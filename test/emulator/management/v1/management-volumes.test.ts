import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, api, createServerlessTemplate, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = api(emu);
});
afterAll(() => emu.close());

describe("network volumes", () => {
  test("CRUD: create, get, list, rename and grow (PATCH and POST /update), delete", async () => {
    const created = await client.post("/networkvolumes", { name: "data", size: 50, dataCenterId: "EU-RO-1" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[a-z0-9]{10}$/), name: "data", size: 50, dataCenterId: "EU-RO-1" });
    const id = created.body.id;
    expect((await client.get(`/networkvolumes/${id}`)).body).toEqual(created.body);
    expect((await client.get("/networkvolumes")).body).toContainEqual(created.body);
    const grown = await client.patch(`/networkvolumes/${id}`, { size: 100, name: "bigger" });
    expect(grown.body).toMatchObject({ size: 100, name: "bigger", dataCenterId: "EU-RO-1" });
    expect((await client.post(`/networkvolumes/${id}/update`, { size: 100 })).status).toBe(200); // same size is fine
    expect((await client.del(`/networkvolumes/${id}`)).status).toBe(204);
    expect((await client.get(`/networkvolumes/${id}`)).body).toEqual({ error: "network volume not found", status: 404 });
  });

  test.each([
    [{ size: 1, dataCenterId: "EU-RO-1" }, "name"],
    [{ name: "v", dataCenterId: "EU-RO-1" }, "size"],
    [{ name: "v", size: 1 }, "dataCenterId"],
    [{ name: "v", size: -1, dataCenterId: "EU-RO-1" }, "size"],
    [{ name: "v", size: 4001, dataCenterId: "EU-RO-1" }, "size"],
    [{ name: "v", size: 10.5, dataCenterId: "EU-RO-1" }, "size"],
    [{ name: "v", size: 1, dataCenterId: "MOON-1" }, "dataCenterId"],
  ])("create 400 naming the field: %j", async (body, field) => {
    const res = await client.post("/networkvolumes", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
  });

  test("size 0 and 4000 are the documented bounds", async () => {
    expect((await client.post("/networkvolumes", { name: "zero", size: 0, dataCenterId: "EU-RO-1" })).status).toBe(200);
    expect((await client.post("/networkvolumes", { name: "max", size: 4000, dataCenterId: "EU-RO-1" })).status).toBe(200);
  });

  test("size only grows; dataCenterId is fixed", async () => {
    const id = (await client.post("/networkvolumes", { name: "v", size: 50, dataCenterId: "US-TX-3" })).body.id;
    const shrink = await client.patch(`/networkvolumes/${id}`, { size: 40 });
    expect(shrink.status).toBe(400);
    expect(shrink.body.error).toContain("only grow");
    expect(shrink.body.error).toContain("50");
    const move = await client.patch(`/networkvolumes/${id}`, { dataCenterId: "EU-RO-1" });
    expect(move.status).toBe(400);
    expect(move.body.error).toContain("dataCenterId");
    expect((await client.patch(`/networkvolumes/${id}`, { size: 5000 })).status).toBe(400);
    expect((await client.get(`/networkvolumes/${id}`)).body).toMatchObject({ size: 50, dataCenterId: "US-TX-3" });
  });

  test("a volume attached to a pod or an endpoint cannot be deleted (409 naming it)", async () => {
    const volume = (await client.post("/networkvolumes", { name: "attached", size: 10, dataCenterId: "EU-RO-1" })).body;
    const pod = (await client.post("/pods", { ...GPU_POD, networkVolumeId: volume.id })).body;
    const refused = await client.del(`/networkvolumes/${volume.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`pod ${pod.id}`);
    await client.post(`/pods/${pod.id}/stop`);
    expect((await client.del(`/networkvolumes/${volume.id}`)).status).toBe(409); // a stopped pod still holds it
    await client.del(`/pods/${pod.id}`);
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id, networkVolumeIds: [volume.id] })).body;
    const byEndpoint = await client.del(`/networkvolumes/${volume.id}`);
    expect(byEndpoint.status).toBe(409);
    expect(byEndpoint.body.error).toContain(`endpoint ${endpoint.id}`);
    await client.patch(`/endpoints/${endpoint.id}`, { networkVolumeIds: [] });
    expect((await client.del(`/networkvolumes/${volume.id}`)).status).toBe(204);
  });
});
