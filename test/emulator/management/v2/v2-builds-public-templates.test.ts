/**
 * GET /api/v2/serverless/{id}/builds and /builds/{buildId} (management-api-v2-today.md 5.3: an
 * endpoint with no build history answers an empty page; the emulator builds nothing, so every
 * endpoint has none) and GET /api/v2/catalog/templates (listPublicTemplates: the service's
 * templates, the community's public ones, at most 100, a bare list) over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, startTestEmulator } from "../../../support/managementHelpers";
import { V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;
let other: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: false });
  v2 = apiV2(emu);
  other = apiV2(emu, KEY_B);
});
afterAll(() => emu.close());

describe("/api/v2/serverless/{id}/builds", () => {
  it("answers an endpoint's empty build history as an empty last page; a bad limit or cursor is a 422", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    const page = await v2.get(`/serverless/${endpoint.id}/builds`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ builds: [], pagination: { nextCursor: null, hasNextPage: false } });
    expect((await v2.get(`/serverless/${endpoint.id}/builds`, { limit: "100" })).status).toBe(200);
    // Builds page by at most 100 (PaginationLimitBuilds), not the 1000 of the other lists.
    expect(expectProblem(await v2.get(`/serverless/${endpoint.id}/builds`, { limit: "101" }), 422).errors?.join(" ")).toMatch(/limit/);
    expectProblem(await v2.get(`/serverless/${endpoint.id}/builds`, { cursor: "bm90IGEgY3Vyc29y" }), 422);
    // Its releases name no build either.
    const releases = (await v2.get(`/serverless/${endpoint.id}/releases`)).body.releases as Array<{ buildId: string | null }>;
    expect(releases.every((release) => release.buildId === null)).toBe(true);
  });

  it("answers 404 for a build id, and for the builds of an endpoint that is not the account's", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    expect(expectProblem(await v2.get(`/serverless/${endpoint.id}/builds/b123`), 404).detail).toBe("build not found");
    expect(expectProblem(await other.get(`/serverless/${endpoint.id}/builds`), 404).detail).toBe("endpoint not found");
    expect(expectProblem(await other.get(`/serverless/${endpoint.id}/builds/b123`), 404).detail).toBe("endpoint not found");
  });
});

describe("/api/v2/catalog/templates", () => {
  it("lists the service's templates by default (source=official), as a bare list with no registry", async () => {
    const res = await v2.get("/catalog/templates");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["templates"]);
    const templates = res.body.templates as Array<{ id: string; serverless: boolean; public: boolean; registry: string | null }>;
    expect(templates.map((t) => t.id).sort()).toEqual(["svcpytorch", "svcworker0"]);
    expect(templates.find((t) => t.id === "svcworker0")?.serverless).toBe(true);
    expect(templates.every((t) => t.public && t.registry === null)).toBe(true);
    expect((await v2.get("/catalog/templates", { source: "official" })).body).toEqual(res.body);
    // Each entry is readable through /templates/{id}, as the reference says of catalog templates.
    expect((await v2.get("/templates/svcpytorch")).body).toEqual(templates.find((t) => t.id === "svcpytorch"));
  });

  it("lists every account's public templates under community (the owner's registry shown to the owner only), none under verified", async () => {
    const registry = (await v2.post("/registries", { name: "private", username: "u", password: "p" })).body;
    const published = (
      await v2.post("/templates", { name: "published", image: "example/published:1", public: true, registry: registry.id })
    ).body;
    const hidden = (await v2.post("/templates", { name: "hidden", image: "example/hidden:1" })).body;
    const seenBy = async (client: Api) =>
      (await client.get("/catalog/templates", { source: "community" })).body.templates as Array<{ id: string; registry: string | null }>;
    const byOther = await seenBy(other);
    expect(byOther.find((t) => t.id === published.id)).toMatchObject({ name: "published", registry: null });
    expect(byOther.map((t) => t.id)).not.toContain(hidden.id);
    expect((await seenBy(v2)).find((t) => t.id === published.id)?.registry).toBe(registry.id);
    expect((await v2.get("/catalog/templates", { source: "verified" })).body).toEqual({ templates: [] });
    expect(expectProblem(await v2.get("/catalog/templates", { source: "everyone" }), 400).errors?.[0]).toMatch(/source/);
  });

  it("answers at most 100 templates, the newest", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 101; i++)
      ids.push((await other.post("/templates", { name: `many-${i}`, image: "example/many:1", public: true })).body.id as string);
    const listed = (await v2.get("/catalog/templates", { source: "community" })).body.templates.map((t: { id: string }) => t.id);
    expect(listed).toHaveLength(100);
    expect(listed[0]).toBe(ids[100]);
    expect(listed).not.toContain(ids[0]);
  });
});
