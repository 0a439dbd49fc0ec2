import { afterEach, describe, expect, it } from "vitest";
import { BadRequestError, ConnectionError, ServerError } from "../../client/errors";
import { JobApiClient } from "../../client/jobs";
import { dropConnection, json, startScriptedServer, type ScriptedServer, type Step } from "./scriptedServer";

const KEY = "jobs-key-SECRET-7";

let server: ScriptedServer | undefined;
let client: JobApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(steps: Step[] | Step) {
  server = await startScriptedServer(steps);
  client = new JobApiClient({ baseUrl: `${server.origin}/v2`, apiKey: KEY, sleep: async () => undefined });
  return { server, client };
}

describe("JobApiClient", () => {
  it("run posts the request (only known fields) and reads {id, status}", async () => {
    const { server, client } = await setup(json(200, { id: "job-1", status: "IN_QUEUE" }));
    const rec = await client.run("ep1", {
      input: { prompt: "hi" },
      webhook: "http://hook",
      policy: { ttl: 60000, executionTimeout: undefined },
      ...({ junk: 1 } as object),
    });
    expect(rec).toEqual({ id: "job-1", status: "IN_QUEUE" });
    const req = server.requests[0]!;
    expect(`${req.method} ${req.url}`).toBe("POST /v2/ep1/run");
    expect(req.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(req.body)).toEqual({ input: { prompt: "hi" }, webhook: "http://hook", policy: { ttl: 60000 } });
  });

  it("runSync passes wait and returns the full record (or an unfinished one)", async () => {
    const { server, client } = await setup([
      json(200, { id: "j", status: "COMPLETED", output: { text: "ok" }, delayTime: 12, executionTime: "340", workerId: "w1" }),
      json(200, { id: "sync-abc", status: "IN_PROGRESS" }),
    ]);
    const done = await client.runSync("ep1", { input: {} }, { waitMs: 5000 });
    expect(done).toEqual({ id: "j", status: "COMPLETED", output: { text: "ok" }, delayTime: 12, executionTime: 340, workerId: "w1" });
    const early = await client.runSync("ep1", { input: {} });
    expect(early.status).toBe("IN_PROGRESS");
    expect(server.requests.map((r) => r.url)).toEqual(["/v2/ep1/runsync?wait=5000", "/v2/ep1/runsync?wait=90000"]);
  });

  it("runSync outside the wait range: the service's 400 message comes through", async () => {
    const { client } = await setup(json(400, { error: "wait is invalid; must be between 1000 and 300000" }));
    const e = await client.runSync("ep1", { input: {} }, { waitMs: 5 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as Error).message).toBe("RunSyncJob failed: 400 Bad Request: wait is invalid; must be between 1000 and 300000");
  });

  it("run is not retried on 500 or after a reset (could double-submit), but is on 429", async () => {
    const { server, client } = await setup([json(500, { error: "x" }), dropConnection, json(429, {}), json(200, { id: "j", status: "IN_QUEUE" })]);
    await expect(client.run("ep1", { input: {} })).rejects.toBeInstanceOf(ServerError);
    await expect(client.run("ep1", { input: {} })).rejects.toBeInstanceOf(ConnectionError);
    await expect(client.run("ep1", { input: {} })).resolves.toMatchObject({ id: "j" });
    expect(server.requests).toHaveLength(4);
  });

  it("status, statusSync, stream, cancel, retry, purgeQueue, health", async () => {
    const { server, client } = await setup([
      json(200, { id: "j", status: "FAILED", error: "boom" }),
      json(200, { id: "j", status: "COMPLETED", output: 1 }),
      json(200, { status: "IN_PROGRESS", stream: [{ output: "a" }, { output: "b" }] }),
      json(200, { status: "COMPLETED", stream: [] }),
      json(200, { id: "j", status: "CANCELLED" }),
      json(200, { id: "j", status: "IN_QUEUE" }),
      json(200, { removed: 3, status: "completed" }),
      json(200, {
        jobs: { completed: 1, failed: 0, inProgress: 2, inQueue: 3, retried: 0 },
        workers: { idle: 1, initializing: 0, ready: 1, running: 2, throttled: 0, unhealthy: 0 },
      }),
    ]);
    expect(await client.status("ep1", "j", { ttlMs: 1000 })).toEqual({ id: "j", status: "FAILED", error: "boom" });
    expect((await client.statusSync("ep1", "j", { waitMs: 2000 })).output).toBe(1);
    expect((await client.stream("ep1", "j")).stream).toEqual([{ output: "a" }, { output: "b" }]);
    expect(await client.stream("ep1", "j")).toEqual({ status: "COMPLETED", stream: [] });
    expect((await client.cancel("ep1", "j")).status).toBe("CANCELLED");
    expect((await client.retry("ep1", "j")).status).toBe("IN_QUEUE");
    expect(await client.purgeQueue("ep1")).toEqual({ removed: 3, status: "completed" });
    expect((await client.health("ep1")).workers.running).toBe(2);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /v2/ep1/status/j?ttl=1000",
      "GET /v2/ep1/status-sync/j?wait=2000",
      "GET /v2/ep1/stream/j",
      "GET /v2/ep1/stream/j",
      "POST /v2/ep1/cancel/j",
      "POST /v2/ep1/retry/j",
      "POST /v2/ep1/purge-queue",
      "GET /v2/ep1/health",
    ]);
    // the state-setting POSTs arrive with {} and a JSON content type, as the public clients send them
    for (const r of server.requests.filter((x) => x.method === "POST")) {
      expect(r.body).toBe("{}");
      expect(r.headers["content-type"]).toBe("application/json");
    }
  });

  it("cancel and status are retried (idempotent)", async () => {
    const { server, client } = await setup([json(503), json(200, { id: "j", status: "CANCELLED" }), dropConnection, json(200, { id: "j", status: "IN_QUEUE" })]);
    await client.cancel("ep1", "j");
    await client.status("ep1", "j");
    expect(server.requests).toHaveLength(4);
  });
});
