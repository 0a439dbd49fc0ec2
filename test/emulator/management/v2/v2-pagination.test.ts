/**
 * Paginated /api/v2 lists over real HTTP: `limit` and `cursor` on pods, serverless endpoints,
 * templates and releases, the `pagination` block on their answers (and not on the bare lists),
 * newest first, cursors bound to their list, parameters and account (422 elsewhere), positions
 * that survive deletes between pages, and the emulator's page-size cap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { parseCliArgs } from "../../../../emulator/cliArgs";
import { resolveOptions } from "../../../../emulator/options";
import { type Api, type Json, KEY_B, api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  // No page-size cap here (1000 is the largest limit): pages are cut by the `limit` each test asks
  // for. The rate limit is raised: these requests do not pace themselves (v2-ratelimit.test.ts).
  emu = await startTestEmulator({ pageSize: 1000, rateLimit: { perMinute: 100_000 } });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

interface Page {
  items: Json[];
  pagination: { nextCursor: string | null; hasNextPage: boolean };
}

async function page(client: Api, path: string, key: string, query: Record<string, string>): Promise<Page> {
  const res = await client.get(path, query);
  expect(res.status, res.text).toBe(200);
  return { items: res.body[key], pagination: res.body.pagination };
}

/** Every page of a list, following nextCursor until hasNextPage is false. */
async function walk(client: Api, path: string, key: string, query: Record<string, string> = {}): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (;;) {
    const next = await page(client, path, key, { ...query, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(next);
    if (!next.pagination.hasNextPage) return pages;
    expect(typeof next.pagination.nextCursor).toBe("string");
    cursor = next.pagination.nextCursor ?? "";
    if (pages.length > 50) throw new Error("the walk does not end");
  }
}

describe("paginated lists", () => {
  it("pods: pages of `limit` items, newest first, every pod exactly once; the last page has hasNextPage false and nextCursor null", async () => {
    const client = api({ ...emu, apiUrl: emu.apiUrlV2 }, KEY_B);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.post("/pods", { ...V2_GPU_POD, name: `walk-${i}` })).body.id);
    const pages = await walk(client, "/pods", "pods", { limit: "2" });
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages.at(-1)?.pagination).toEqual({ nextCursor: null, hasNextPage: false });
    const ids = pages.flatMap((p) => p.items.map((pod: Json) => pod.id as string));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...made].sort());
    // Newest first: creation times never increase along the walk.
    const times = pages.flatMap((p) => p.items.map((pod: Json) => Date.parse(pod.createdAt as string)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // One page holding everything when limit allows it (the default limit is 1000).
    const whole = await page(client, "/pods", "pods", {});
    expect(whole.items.map((p: Json) => p.id)).toEqual(ids);
    expect(whole.pagination).toEqual({ nextCursor: null, hasNextPage: false });
    for (const id of made) await client.del(`/pods/${id}`);
  });

  it("a cursor is a position, not an offset: items deleted between pages neither shift nor repeat the rest", async () => {
    const names = ["t0", "t1", "t2", "t3", "t4", "t5"];
    for (const name of names) await v2.post("/templates", { name: `pos-${name}`, image: "example/t:1" });
    const before = (await page(v2, "/templates", "templates", {})).items.map((t: Json) => t.id as string);
    const first = await page(v2, "/templates", "templates", { limit: "2" });
    expect(first.items.map((t: Json) => t.id)).toEqual(before.slice(0, 2));
    // Delete the first page's items and the next one: the next page continues after the position.
    for (const id of before.slice(0, 3)) expect((await v2.del(`/templates/${id}`)).status).toBe(204);
    const second = await page(v2, "/templates", "templates", { limit: "2", cursor: first.pagination.nextCursor ?? "" });
    expect(second.items.map((t: Json) => t.id)).toEqual(before.slice(3, 5));
    for (const id of before.slice(3)) await v2.del(`/templates/${id}`);
  });

  it("serverless endpoints and releases are paginated too; the releases' rollout summary is the same on every page", async () => {
    const endpoints: string[] = [];
    for (let i = 0; i < 3; i++) endpoints.push((await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: `ep-${i}` })).body.id);
    const pages = await walk(v2, "/serverless", "endpoints", { limit: "1" });
    expect(pages.flatMap((p) => p.items.map((e: Json) => e.id)).sort()).toEqual([...endpoints].sort());

    const id = endpoints[0] ?? "";
    for (const image of ["example/worker:2", "example/worker:3"]) expect((await v2.patch(`/serverless/${id}`, { image })).status).toBe(200);
    const releasePages = await walk(v2, `/serverless/${id}/releases`, "releases", { limit: "2" });
    expect(releasePages.map((p) => p.items.map((r: Json) => r.version))).toEqual([[2, 1], [0]]);
    const bodies = await Promise.all([v2.get(`/serverless/${id}/releases`, { limit: "1" }), v2.get(`/serverless/${id}/releases`)]);
    expect(bodies[0].body.rollout).toEqual(bodies[1].body.rollout);
    expect(bodies[0].body.endpointVersion).toBe(2);
    for (const e of endpoints) await v2.del(`/serverless/${e}`);
  });

  it("the pagination block is on the four paginated lists and not on the bare ones", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    for (const path of ["/pods", "/serverless", "/templates", `/serverless/${endpoint.id}/releases`]) {
      const res = await v2.get(path);
      expect(res.body.pagination, path).toEqual({ nextCursor: null, hasNextPage: expect.any(Boolean) });
    }
    for (const path of ["/network-volumes", "/registries", `/serverless/${endpoint.id}/workers`, "/catalog/gpus"]) {
      const res = await v2.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.pagination, path).toBeUndefined();
    }
    await v2.del(`/serverless/${endpoint.id}`);
  });

  it("query parameters the list does not define are ignored, not refused; includeClusterPods is accepted", async () => {
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, name: "unfiltered" })).body;
    const res = await v2.get("/pods", { desiredStatus: "EXITED", name: "someone-else" });
    expect(res.status).toBe(200);
    expect(res.body.pods.map((p: Json) => p.id)).toContain(pod.id);
    expect((await v2.get("/templates", { sort: "name" })).status).toBe(200);
    expect((await v2.get("/pods", { includeClusterPods: "true" })).status).toBe(200);
    await v2.del(`/pods/${pod.id}`);
  });
});

describe("limit and cursor validation (422 problems)", () => {
  it.each([
    ["0", /limit.*1/],
    ["1001", /limit.*1000/],
    ["abc", /limit/],
    ["1.5", /limit/],
  ])("limit=%s is a 422 naming limit", async (limit, pattern) => {
    for (const path of ["/pods", "/serverless", "/templates"]) {
      const problem = expectProblem(await v2.get(path, { limit }), 422);
      expect(problem.detail).toMatch(pattern);
    }
  });

  it("limit 1 and 1000 are accepted", async () => {
    expect((await v2.get("/pods", { limit: "1" })).status).toBe(200);
    expect((await v2.get("/pods", { limit: "1000" })).status).toBe(200);
  });

  /** A cursor of a list with two items and limit 1: a real one, with a next page. */
  async function cursorOf(client: Api, path: string, query: Record<string, string> = {}): Promise<string> {
    const first = await page(client, path, path === "/pods" ? "pods" : path === "/templates" ? "templates" : "releases", {
      ...query,
      limit: "1",
    });
    expect(first.pagination.hasNextPage).toBe(true);
    return first.pagination.nextCursor ?? "";
  }

  it("a malformed, empty or altered cursor is a 422 naming cursor", async () => {
    for (const cursor of ["not-a-cursor", "eyJ4IjoxfQ", ""]) {
      const problem = expectProblem(await v2.get("/pods", { cursor }), 422);
      expect(problem.detail).toMatch(/cursor/);
    }
    const pods = [
      (await v2.post("/pods", { ...V2_GPU_POD, name: "c1" })).body.id,
      (await v2.post("/pods", { ...V2_GPU_POD, name: "c2" })).body.id,
    ];
    const real = await cursorOf(v2, "/pods");
    const decoded = JSON.parse(Buffer.from(real, "base64url").toString()) as { r: number; i: string; s: string };
    const altered = Buffer.from(JSON.stringify({ ...decoded, r: decoded.r + 1 })).toString("base64url");
    expect(expectProblem(await v2.get("/pods", { cursor: altered }), 422).detail).toMatch(/cursor/);
    expect((await v2.get("/pods", { cursor: real })).status).toBe(200);
    for (const id of pods) await v2.del(`/pods/${id}`);
  });

  it("a foreign cursor is a 422: another operation's, another account's, or the same list with other parameters", async () => {
    const pods = [
      (await v2.post("/pods", { ...V2_GPU_POD, name: "f1" })).body.id,
      (await v2.post("/pods", { ...V2_GPU_POD, name: "f2" })).body.id,
    ];
    const templates = [
      (await v2.post("/templates", { name: "f1", image: "x/y:1" })).body.id,
      (await v2.post("/templates", { name: "f2", image: "x/y:1" })).body.id,
    ];
    const podCursor = await cursorOf(v2, "/pods");
    const templateCursor = await cursorOf(v2, "/templates");
    // Another operation's.
    expectProblem(await v2.get("/templates", { cursor: podCursor }), 422);
    expectProblem(await v2.get("/pods", { cursor: templateCursor }), 422);
    // Another account's (account B has pods of its own in other tests, or none).
    const other = api({ ...emu, apiUrl: emu.apiUrlV2 }, KEY_B);
    expectProblem(await other.get("/pods", { cursor: podCursor }), 422);
    // The same list with other parameters: includeClusterPods is part of the binding, limit is not.
    expectProblem(await v2.get("/pods", { cursor: podCursor, includeClusterPods: "true" }), 422);
    expect((await v2.get("/pods", { cursor: podCursor, limit: "5" })).status).toBe(200);
    // Issued with includeClusterPods=true, it is good only with it.
    const clusterCursor = await cursorOf(v2, "/pods", { includeClusterPods: "true" });
    expectProblem(await v2.get("/pods", { cursor: clusterCursor }), 422);
    expect((await v2.get("/pods", { cursor: clusterCursor, includeClusterPods: "true" })).status).toBe(200);
    // Releases: another endpoint's cursor is foreign.
    const a = (await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "rel-a" })).body.id;
    const b = (await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "rel-b" })).body.id;
    await v2.patch(`/serverless/${a}`, { image: "example/worker:2" });
    await v2.patch(`/serverless/${b}`, { image: "example/worker:2" });
    const releaseCursor = await cursorOf(v2, `/serverless/${a}/releases`);
    expectProblem(await v2.get(`/serverless/${b}/releases`, { cursor: releaseCursor }), 422);
    expect((await v2.get(`/serverless/${a}/releases`, { cursor: releaseCursor })).status).toBe(200);
    for (const id of pods) await v2.del(`/pods/${id}`);
    for (const id of templates) await v2.del(`/templates/${id}`);
    for (const id of [a, b]) await v2.del(`/serverless/${id}`);
  });
});

describe("the emulator's page-size cap (--page-size, startEmulator({ pageSize }))", () => {
  let capped: RunningEmulator;
  beforeAll(async () => {
    capped = await startTestEmulator({ pageSize: 1 });
  });
  afterAll(() => capped.close());

  it("caps every page below limit: three templates span three pages even with the default limit; a smaller limit still wins", async () => {
    const client = apiV2(capped);
    for (const name of ["a", "b", "c"]) await client.post("/templates", { name, image: "x/y:1" });
    const pages = await walk(client, "/templates", "templates");
    expect(pages.map((p) => p.items.length)).toEqual([1, 1, 1]);
    expect(pages.flatMap((p) => p.items.map((t: Json) => t.name)).sort()).toEqual(["a", "b", "c"]);
    expect((await page(client, "/templates", "templates", { limit: "1000" })).items).toHaveLength(1);
  });

  it("/v1 lists are not paginated: every item in one bare array", async () => {
    const v1 = api(capped);
    const res = await v1.get("/templates");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(3);
  });

  it("the default comes from GPUCLOUD_EMULATOR_PAGE_SIZE (2 in this suite, vitest.config.mts); a bad value is refused by name", async () => {
    expect(process.env.GPUCLOUD_EMULATOR_PAGE_SIZE).toBe("2");
    const byDefault = await startTestEmulator();
    try {
      const client = apiV2(byDefault);
      for (const name of ["a", "b", "c"]) await client.post("/templates", { name, image: "x/y:1" });
      expect((await walk(client, "/templates", "templates")).map((p) => p.items.length)).toEqual([2, 1]);
    } finally {
      await byDefault.close();
    }
    const saved = process.env.GPUCLOUD_EMULATOR_PAGE_SIZE;
    process.env.GPUCLOUD_EMULATOR_PAGE_SIZE = "two";
    try {
      expect(() => resolveOptions({})).toThrow(/GPUCLOUD_EMULATOR_PAGE_SIZE must be an integer >= 1, got "two"/);
      expect(resolveOptions({ pageSize: 3 }).pageSize).toBe(3);
    } finally {
      process.env.GPUCLOUD_EMULATOR_PAGE_SIZE = saved;
    }
  });

  it("--page-size N sets the option; a value that is not an integer >= 1 is a usage error", () => {
    const parsed = parseCliArgs(["--page-size", "2"]);
    expect(parsed.help === false && parsed.options.pageSize).toBe(2);
    expect(() => parseCliArgs(["--page-size", "0"])).toThrow(/--page-size must be an integer >= 1/);
    expect(() => parseCliArgs(["--page-size", "x"])).toThrow(/--page-size/);
  });
});

describe("the v2 OpenAPI document", () => {
  it("lists limit and cursor on the paginated lists, and a required pagination block on their answers only", async () => {
    const doc = (await v2.get("/openapi.json")).body;
    for (const [path, schema] of [
      ["/pods", "ListPodsResponse"],
      ["/serverless", "ListEndpointsResponse"],
      ["/templates", "ListTemplatesResponse"],
      ["/serverless/{id}/releases", "ListEndpointReleasesResponse"],
    ] as const) {
      const names = (doc.paths[path].get.parameters ?? []).filter((p: Json) => p.in === "query").map((p: Json) => p.name);
      expect(names, path).toEqual(expect.arrayContaining(["limit", "cursor"]));
      expect(doc.components.schemas[schema].required, schema).toContain("pagination");
    }
    for (const schema of ["ListNetworkVolumesResponse", "ListRegistriesResponse", "ListEndpointWorkersResponse"]) {
      expect(doc.components.schemas[schema].properties.pagination, schema).toBeUndefined();
    }
  });
});
