/**
 * /api/v2/global-volumes (create, list, get, rename, delete: management-api-v2-today.md section 4)
 * and /api/v2/registries/delegations (create, list, revoke) over real HTTP: shapes, statuses,
 * pagination, refusals, isolation between accounts, and the state file. Registry delegations
 * share `/registries/` with the credential routes: `GET /registries/delegations` is the delegation
 * list, not the credential named "delegations".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, startTestEmulator } from "../../../support/managementHelpers";
import { apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;
let other: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  v2 = apiV2(emu);
  other = apiV2(emu, KEY_B);
});
afterAll(() => emu.close());

describe("/api/v2/global-volumes", () => {
  it("creates (201) with the name trimmed, gets it, and another account does not find it", async () => {
    const account = (await v2.get("/account")).body;
    const res = await v2.post("/global-volumes", { name: "  shared datasets  " });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^gsb_[a-z0-9]{10}$/),
      name: "shared datasets",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      createdByUserId: account.id,
    });
    expect((await v2.get(`/global-volumes/${res.body.id}`)).body).toEqual(res.body);
    expect(expectProblem(await other.get(`/global-volumes/${res.body.id}`), 404).detail).toBe("global volume not found");
    expect((await other.get("/global-volumes")).body).toEqual({ globalVolumes: [], pagination: { nextCursor: null, hasNextPage: false } });
  });

  it("lists newest first in pages that follow nextCursor; a foreign or altered cursor is a 422", async () => {
    const names = ["gv-1", "gv-2", "gv-3"];
    for (const name of names) expect((await other.post("/global-volumes", { name })).status).toBe(201);
    const seen: string[] = [];
    let query: Record<string, string> = { limit: "2" };
    for (let page = 0; page < 5; page++) {
      const res = await other.get("/global-volumes", query);
      expect(res.status).toBe(200);
      seen.push(...res.body.globalVolumes.map((v: { name: string }) => v.name));
      if (!res.body.pagination.hasNextPage) break;
      query = { limit: "2", cursor: res.body.pagination.nextCursor };
    }
    expect(seen).toEqual(["gv-3", "gv-2", "gv-1"]);
    const first = await other.get("/global-volumes", { limit: "1" });
    expect(expectProblem(await v2.get("/global-volumes", { cursor: first.body.pagination.nextCursor }), 422).detail).toMatch(/cursor/);
    expectProblem(await other.get("/global-volumes", { limit: "1001" }), 422);
    expectProblem(await other.get("/global-volumes", { cursor: "bm90IGEgY3Vyc29y" }), 422);
  });

  it("renames in place (PATCH, trimmed), and refuses an empty body, a blank or long name and any other field (422)", async () => {
    const { id } = (await v2.post("/global-volumes", { name: "before" })).body;
    const renamed = await v2.patch(`/global-volumes/${id}`, { name: " after " });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: "after" });
    expect((await v2.get(`/global-volumes/${id}`)).body.name).toBe("after");
    expect(expectProblem(await v2.patch(`/global-volumes/${id}`, {}), 422).errors?.join(" ")).toMatch(/name/);
    expect(expectProblem(await v2.patch(`/global-volumes/${id}`, { name: "x", size: 10 }), 422).errors?.join(" ")).toMatch(/size/);
    expectProblem(await v2.post("/global-volumes", { name: "   " }), 422);
    expectProblem(await v2.post("/global-volumes", { name: "" }), 422);
    expectProblem(await v2.post("/global-volumes", { name: "n".repeat(192) }), 422);
    expect((await v2.post("/global-volumes", { name: "n".repeat(191) })).status).toBe(201);
    // Mounting is not in the reference: no field but name is taken.
    expect(expectProblem(await v2.post("/global-volumes", { name: "m", dataCenterId: "EU-RO-1" }), 422).errors?.join(" ")).toMatch(
      /dataCenterId/,
    );
    expectProblem(await v2.patch("/global-volumes/gsb_nothere000", { name: "x" }), 404);
  });

  it("deletes (204), after which it is neither found nor listed", async () => {
    const { id } = (await v2.post("/global-volumes", { name: "doomed" })).body;
    expect((await v2.del(`/global-volumes/${id}`)).status).toBe(204);
    expectProblem(await v2.get(`/global-volumes/${id}`), 404);
    expectProblem(await v2.del(`/global-volumes/${id}`), 404);
    const listed = (await v2.get("/global-volumes", { limit: "1000" })).body.globalVolumes.map((v: { id: string }) => v.id);
    expect(listed).not.toContain(id);
  });
});

const RESOURCE = "arn:cloud:registry:eu-west-1:123456789012:repository/team/trainer";

describe("/api/v2/registries/delegations", () => {
  it("is served as its own route: the list is not the registry credential named 'delegations'", async () => {
    const res = await other.get("/registries/delegations");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delegations: [] });
    // The credential routes beside it still take their ids.
    const credential = await other.post("/registries", { name: "r", username: "u", password: "p" });
    expect((await other.get(`/registries/${credential.body.id}`)).body).toEqual({ id: credential.body.id, name: "r" });
    // A method the static path lacks is a 405 naming its own methods, not the credential delete.
    const refused = expectProblem(await other.del("/registries/delegations"), 405);
    expect(refused.detail).toMatch(/allowed: GET, POST$/);
  });

  it("registers (201) with what the resource name says, lists it, and revokes it (204, then 404)", async () => {
    const account = (await v2.get("/account")).body;
    const created = await v2.post("/registries/delegations", { resource: `${RESOURCE}:v3`, name: "trainer images" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{12}$/),
      name: "trainer images",
      delegatorUserId: account.id,
      awsUser: "123456789012",
      repository: "team/trainer",
      tag: "v3",
      awsRegion: "eu-west-1",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const untagged = await v2.post("/registries/delegations", { resource: RESOURCE });
    expect(untagged.body).toMatchObject({ name: null, tag: "latest", repository: "team/trainer" });
    const listed = (await v2.get("/registries/delegations")).body.delegations.map((d: { id: string }) => d.id);
    expect(listed).toEqual(expect.arrayContaining([created.body.id, untagged.body.id]));
    expect((await other.get("/registries/delegations")).body.delegations).toEqual([]);
    expectProblem(await other.del(`/registries/delegations/${created.body.id}`), 404);
    expect((await v2.del(`/registries/delegations/${created.body.id}`)).status).toBe(204);
    expect(expectProblem(await v2.del(`/registries/delegations/${created.body.id}`), 404).detail).toBe("registry delegation not found");
    expect((await v2.get("/registries/delegations")).body.delegations.map((d: { id: string }) => d.id)).toEqual([untagged.body.id]);
  });

  it("refuses a resource that is not a registry image's resource name (400 naming it and the form) and an unknown field (422)", async () => {
    for (const resource of [
      "team/trainer:v3",
      "arn:cloud:registry:eu-west-1:1234:repository/x",
      "arn:cloud:registry:eu-west-1:123456789012:bucket/x",
    ]) {
      const problem = expectProblem(await v2.post("/registries/delegations", { resource }), 400);
      expect(problem.errors?.[0]).toMatch(/^invalid resource: .*repository\/<repository>\[:<tag>\]/);
    }
    expect(expectProblem(await v2.post("/registries/delegations", { name: "x" }), 422).errors?.join(" ")).toMatch(/resource/);
    expect(expectProblem(await v2.post("/registries/delegations", { resource: RESOURCE, region: "x" }), 422).errors?.join(" ")).toMatch(
      /region/,
    );
  });
});

describe("scopes", () => {
  it("global volumes need global-volumes:read / :write, delegations registries:read / :write (403 naming the scope)", async () => {
    const scoped = await startTestEmulator({ apiKeys: [{ key: "readers", scopes: ["global-volumes:read", "registries:read"] }] });
    try {
      const client = apiV2(scoped, "readers");
      expect((await client.get("/global-volumes")).status).toBe(200);
      expect((await client.get("/registries/delegations")).status).toBe(200);
      expect(expectProblem(await client.post("/global-volumes", { name: "x" }), 403).detail).toMatch(/"global-volumes:write"/);
      expect(expectProblem(await client.post("/registries/delegations", { resource: RESOURCE }), 403).detail).toMatch(/"registries:write"/);
    } finally {
      await scoped.close();
    }
  });
});

describe("the state file", () => {
  it("keeps global volumes and registry delegations across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gv-state-"));
    try {
      const statePath = join(dir, "state.json");
      const first = await startTestEmulator({ statePath });
      const client = apiV2(first);
      const volume = (await client.post("/global-volumes", { name: "kept" })).body;
      const delegation = (await client.post("/registries/delegations", { resource: RESOURCE })).body;
      await first.close();
      const second = await startTestEmulator({ statePath });
      try {
        const again = apiV2(second);
        expect((await again.get(`/global-volumes/${volume.id}`)).body).toEqual(volume);
        expect((await again.get("/registries/delegations")).body).toEqual({ delegations: [delegation] });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
