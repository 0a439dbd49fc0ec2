import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { Accounts, accountIdOf } from "../../emulator/auth";
import { type Api, GPU_POD, KEY_A, KEY_B, api, createServerlessTemplate, startTestEmulator } from "../support/managementHelpers";

let emu: RunningEmulator;
let a: Api;
let b: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  a = api(emu, KEY_A);
  b = api(emu, KEY_B);
});
afterAll(() => emu.close());

describe("API keys", () => {
  test("missing or wrong key is 401 JSON on every operation; openapi.json and docs are public", async () => {
    const anonymous = api(emu, null);
    for (const [method, path] of [
      ["GET", "/pods"],
      ["POST", "/pods"],
      ["GET", "/pods/abc"],
      ["PATCH", "/pods/abc"],
      ["DELETE", "/pods/abc"],
      ["POST", "/pods/abc/stop"],
      ["GET", "/endpoints"],
      ["POST", "/templates"],
      ["GET", "/networkvolumes"],
      ["GET", "/containerregistryauth"],
      ["GET", "/billing/pods"],
      ["GET", "/billing/endpoints"],
      ["GET", "/billing/networkvolumes"],
    ] as const) {
      const res = await anonymous.raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error).toContain("API key");
      const wrong = await api(emu, "not-a-key").raw(method, path);
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: "invalid API key", status: 401 });
    }
    expect((await anonymous.get("/openapi.json")).status).toBe(200);
    const docs = await anonymous.get("/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
  });

  test("accepted as Bearer (any case) and as the bare key", async () => {
    for (const authorization of [`Bearer ${KEY_A}`, `bearer ${KEY_A}`, KEY_A, `  Bearer   ${KEY_A} `]) {
      expect((await api(emu, null).raw("GET", "/pods", { headers: { authorization } })).status).toBe(200);
    }
    expect((await api(emu, null).raw("GET", "/pods", { headers: { authorization: "Bearer " } })).status).toBe(401);
  });

  test("account ids are derived from the key (stable across restarts, key never stored)", () => {
    const accounts = new Accounts(["k1", "k2"]);
    expect(accounts.resolve("Bearer k1")).toBe(accountIdOf("k1"));
    expect(accountIdOf("k1")).toMatch(/^user_[0-9a-f]{27}$/);
    expect(accountIdOf("k1")).not.toContain("k1");
    expect(accountIdOf("k1")).not.toBe(accountIdOf("k2"));
  });
});

describe("account isolation", () => {
  test("another account's ids are 404 for every operation; lists show only own resources", async () => {
    const pod = (await a.post("/pods", GPU_POD)).body;
    const tpl = await createServerlessTemplate(a);
    const endpoint = (await a.post("/endpoints", { templateId: tpl.id })).body;
    const volume = (await a.post("/networkvolumes", { name: "v", size: 1, dataCenterId: "EU-RO-1" })).body;
    const auth = (await a.post("/containerregistryauth", { name: "c", username: "u", password: "p" })).body;

    const checks: Array<[string, string, unknown?]> = [
      ["GET", `/pods/${pod.id}`],
      ["PATCH", `/pods/${pod.id}`, { name: "x" }],
      ["POST", `/pods/${pod.id}/update`, { name: "x" }],
      ["POST", `/pods/${pod.id}/stop`],
      ["POST", `/pods/${pod.id}/start`],
      ["POST", `/pods/${pod.id}/reset`],
      ["POST", `/pods/${pod.id}/restart`],
      ["DELETE", `/pods/${pod.id}`],
      ["GET", `/endpoints/${endpoint.id}`],
      ["PATCH", `/endpoints/${endpoint.id}`, { name: "x" }],
      ["DELETE", `/endpoints/${endpoint.id}`],
      ["GET", `/templates/${tpl.id}`],
      ["PATCH", `/templates/${tpl.id}`, { name: "x" }],
      ["DELETE", `/templates/${tpl.id}`],
      ["GET", `/networkvolumes/${volume.id}`],
      ["PATCH", `/networkvolumes/${volume.id}`, { size: 2 }],
      ["DELETE", `/networkvolumes/${volume.id}`],
      ["GET", `/containerregistryauth/${auth.id}`],
      ["DELETE", `/containerregistryauth/${auth.id}`],
    ];
    for (const [method, path, body] of checks) {
      const res = await b.raw(method, path, body === undefined ? {} : { body: JSON.stringify(body) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const path of ["/pods", "/endpoints", "/templates", "/networkvolumes", "/containerregistryauth"]) {
      expect((await b.get(path)).body, path).toEqual([]);
      expect((await a.get(path)).body.length, path).toBeGreaterThan(0);
    }
    // Another account cannot reference these ids either.
    expect((await b.post("/endpoints", { templateId: tpl.id })).status).toBe(400);
    expect((await b.post("/pods", { ...GPU_POD, networkVolumeId: volume.id })).status).toBe(400);
    expect((await b.post("/pods", { ...GPU_POD, containerRegistryAuthId: auth.id })).status).toBe(400);
    // Still there for the owner.
    expect((await a.get(`/pods/${pod.id}`)).body.name).toBe(GPU_POD.name);
  });

  test("billing is per account", async () => {
    await a.post("/pods", GPU_POD);
    await a.post("/networkvolumes", { name: "billed", size: 10, dataCenterId: "EU-RO-1" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await a.get("/billing/pods")).body.length).toBeGreaterThan(0);
    expect((await a.get("/billing/networkvolumes")).body.length).toBeGreaterThan(0);
    expect((await b.get("/billing/pods")).body).toEqual([]);
    expect((await b.get("/billing/networkvolumes")).body).toEqual([]);
    expect((await b.get("/billing/endpoints")).body).toEqual([]);
  });
});
