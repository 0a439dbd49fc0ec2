// The v2 client reads every list whole (client/pages.ts), against scripted answers: it follows
// nextCursor with the other parameters unchanged, stops when the block is absent or says so,
// starts again from page one once on a 422 to a cursor, refuses a repeated cursor, and reads a
// one-page account in one call. Then the same walk against the emulator with a page size of 2.
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { BadRequestError } from "../../client/errors";
import { GpuCloudError } from "../../client/gpuCloudError";
import { ManagementClientV2 } from "../../client/managementV2";
import { PaginationError, readAllPages } from "../../client/pages";
import { PodV2Schema } from "../../client/schemasV2";
import { json, startScriptedServer, type ScriptedServer, type Step } from "../support/scriptedServer";

let server: ScriptedServer | undefined;
let emulator: RunningEmulator | undefined;
let client: ManagementClientV2 | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await emulator?.close();
  client = server = emulator = undefined;
});

async function scripted(steps: Step[] | Step) {
  server = await startScriptedServer(steps);
  client = new ManagementClientV2({ baseUrl: `${server.origin}/v2`, apiKey: "k", sleep: async () => undefined, random: () => 0 });
  return { server, client };
}

const pods = (...ids: string[]) => ids.map((id) => ({ id, name: id }));
const pageOf = (ids: string[], nextCursor: string | null, hasNextPage = nextCursor !== null) =>
  json(200, { pods: pods(...ids), pagination: { nextCursor, hasNextPage } });
const problem422 = json(
  422,
  { title: "Unprocessable Entity", status: 422, detail: "invalid query parameter cursor" },
  { "content-type": "application/problem+json" },
);
const queryOf = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams);

describe("reading a paginated list whole", () => {
  it("follows nextCursor until hasNextPage is false, asking limit=1000 and keeping the other parameters on every page", async () => {
    const { server, client } = await scripted([pageOf(["p5", "p4"], "c1"), pageOf(["p3", "p2"], "c2"), pageOf(["p1"], null)]);
    const items = await readAllPages(client.transport, {
      path: "/pods",
      operation: "listPods",
      paged: true,
      key: "pods",
      item: PodV2Schema,
      query: { includeClusterPods: true },
    });
    expect(items.map((p) => p.id)).toEqual(["p5", "p4", "p3", "p2", "p1"]);
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([
      { includeClusterPods: "true", limit: "1000" },
      { includeClusterPods: "true", limit: "1000", cursor: "c1" },
      { includeClusterPods: "true", limit: "1000", cursor: "c2" },
    ]);
  });

  it("a page shorter than asked is not the end: only the block says so", async () => {
    const { client, server } = await scripted([pageOf(["p3"], "c1"), pageOf([], "c2"), pageOf(["p1"], null)]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p3", "p1"]);
    expect(server.requests).toHaveLength(3);
  });

  it("one page (or no block at all, as older hosts and the bare lists answer) is one call; a list the reference does not page gets no limit", async () => {
    const { client, server } = await scripted([
      pageOf(["p1", "p2"], null),
      json(200, { pods: pods("p3") }),
      json(200, { networkVolumes: [{ id: "v1" }] }),
    ]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p1", "p2"]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p3"]);
    expect((await client.networkVolumes.list()).map((v) => v.id)).toEqual(["v1"]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v2/pods?limit=1000", "/v2/pods?limit=1000", "/v2/network-volumes"]);
  });

  it("stops when the block is absent on a later page, or nextCursor is null or empty though hasNextPage is true", async () => {
    const { client, server } = await scripted([
      pageOf(["p1"], "c1"),
      json(200, { pods: pods("p2") }),
      pageOf(["p3"], null, true),
      pageOf(["p4"], "", true),
    ]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p1", "p2"]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p3"]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p4"]);
    expect(server.requests).toHaveLength(4);
  });

  it("a 422 to a cursor request starts the walk again from the first page, once, without resending the cursor", async () => {
    const { client, server } = await scripted([pageOf(["p3"], "c1"), problem422, pageOf(["p3"], "c9"), pageOf(["p2", "p1"], null)]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p3", "p2", "p1"]);
    expect(server.requests.map((r) => queryOf(r.url).cursor)).toEqual([undefined, "c1", undefined, "c9"]);
  });

  it("a second 422 fails with a PaginationError naming the list", async () => {
    const { client, server } = await scripted([
      pageOf(["p3"], "c1"),
      problem422,
      pageOf(["p3"], "c2"),
      problem422,
      pageOf(["never"], null),
    ]);
    const error = await client.pods.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toBeInstanceOf(GpuCloudError);
    expect((error as PaginationError).operation).toBe("listPods");
    expect((error as Error).message).toMatch(/^listPods failed: the service refused a cursor it had just issued \(422\) twice/);
    expect((error as Error).cause).toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(4);
  });

  it("a 422 to the first page (no cursor) is the service refusing the request: thrown as it is, no restart", async () => {
    const { client, server } = await scripted([problem422, pageOf(["p1"], null)]);
    await expect(client.templates.list()).rejects.toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(1);
  });

  it("a cursor the service gives a second time is refused with a PaginationError naming the list, instead of looping", async () => {
    const { client, server } = await scripted([pageOf(["p1"], "c1"), pageOf(["p2"], "c2"), pageOf(["p3"], "c1")]);
    const error = await client.pods.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(/^listPods failed: the service returned the cursor "c1" a second time after 3 pages/);
    expect(server.requests).toHaveLength(3);
  });

  it("an item listed on two pages is kept once", async () => {
    const { client } = await scripted([pageOf(["p3", "p2"], "c1"), pageOf(["p2", "p1"], null)]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p3", "p2", "p1"]);
  });

  it("every collection's list walks pages (pods, endpoints, templates)", async () => {
    const page = (key: string, id: string, next: string | null) =>
      json(200, { [key]: [{ id, name: id }], pagination: { nextCursor: next, hasNextPage: next !== null } });
    const { client, server } = await scripted([
      page("endpoints", "e2", "x"),
      page("endpoints", "e1", null),
      page("templates", "t2", "y"),
      page("templates", "t1", null),
    ]);
    expect((await client.endpoints.list()).map((e) => e.id)).toEqual(["e2", "e1"]);
    expect((await client.templates.list()).map((t) => t.id)).toEqual(["t2", "t1"]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/serverless?limit=1000",
      "/v2/serverless?limit=1000&cursor=x",
      "/v2/templates?limit=1000",
      "/v2/templates?limit=1000&cursor=y",
    ]);
  });
});

describe("against the emulator with two items per page", () => {
  it("reads five pods in three calls, and one pod in one", async () => {
    const calls: string[] = [];
    emulator = await startEmulator({ timeScale: 0.01, pageSize: 2, rateLimit: false, onReply: (e) => void calls.push(e.operationId) });
    client = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey });
    const first = await client.pods.create({ name: "only", image: "example/app:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
    calls.length = 0;
    expect((await client.pods.list()).map((p) => p.id)).toEqual([first.id]);
    expect(calls.filter((c) => c === "listPods")).toHaveLength(1);
    for (let i = 0; i < 4; i++)
      await client.pods.create({ name: `p${i}`, image: "example/app:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
    calls.length = 0;
    const all = await client.pods.list();
    expect(all).toHaveLength(5);
    expect(new Set(all.map((p) => p.id)).size).toBe(5);
    expect(calls.filter((c) => c === "listPods")).toHaveLength(3);
  });
});
