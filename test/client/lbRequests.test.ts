/**
 * Load-balancing endpoints end to end through the package's own clients against the real emulator:
 * ManagementClient creates a template and a LOAD_BALANCER endpoint (the type travels as the " -lb"
 * name marker, which the emulator reads), and JobClient.request talks to the workers' HTTP servers:
 * the built-in echo server, and a user server module (test/support/fixtures/lb-status-server.cjs)
 * whose 404s and 500s come back as answers, not exceptions. Pinning with X-Service-Worker-Id, and
 * the queue verbs, which such an endpoint does not have.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { NotFoundError } from "../../client/errors";
import { ManagementClient } from "../../client/management";
import type { Endpoint } from "../../client/schemas";
import { JobClient, WORKER_ID_HEADER, type EndpointHttpResponse } from "../../client/jobClient";

const STATUS_SERVER_IMAGE = "acme/lb-status-server:1";
const ECHO_IMAGE = "acme/echo-server:1";

/** What the built-in echo server answers: the request as the worker received it. */
interface Echo {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

function echoOf(answer: EndpointHttpResponse): Echo {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers["content-type"]).toBe("application/json");
  return answer.json as Echo;
}

let emulator: RunningEmulator;
let management: ManagementClient;
let jobs: JobClient;
let echoEndpoint: Endpoint;
let userEndpoint: Endpoint;

/** The endpoint's workers that passed their health check (idle or running), by id. */
async function healthyWorkers(endpointId: string): Promise<string[]> {
  const live = await management.getEndpoint(endpointId, { includeWorkers: true });
  return (live.workers ?? []).filter((w) => /^Worker (idle|running)$/.test(String(w.lastStatusChange))).map((w) => w.id);
}

async function untilHealthy(endpointId: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ids = await healthyWorkers(endpointId);
    if (ids.length >= count) return ids;
    if (Date.now() > deadline) throw new Error(`endpoint ${endpointId}: ${ids.length} of ${count} workers healthy after 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  emulator = await startEmulator({
    timeScale: 0.01,
    handlers: { [STATUS_SERVER_IMAGE]: path.join(__dirname, "..", "support", "fixtures", "lb-status-server.cjs") },
  });
  management = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey: emulator.apiKey, maxRetries: 0 });
  jobs = new JobClient({ apiKey: emulator.apiKey, serverlessUrl: emulator.serverlessUrl, timeoutMs: 15_000 });

  const echoTemplate = await management.createTemplate({ name: "lb-echo", imageName: ECHO_IMAGE, isServerless: true });
  const userTemplate = await management.createTemplate({ name: "lb-user", imageName: STATUS_SERVER_IMAGE, isServerless: true });
  const lb = { type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", scalerValue: 1, gpuTypeIds: ["NVIDIA L4"] } as const;
  echoEndpoint = await management.createEndpoint({ ...lb, templateId: echoTemplate.id, name: "echo", workersMin: 2, workersMax: 2 });
  userEndpoint = await management.createEndpoint({ ...lb, templateId: userTemplate.id, name: "user-server", workersMin: 1, workersMax: 1 });
  await untilHealthy(echoEndpoint.id, 2);
  await untilHealthy(userEndpoint.id, 1);
});

afterAll(async () => {
  await jobs?.close();
  await management?.close();
  await emulator?.close();
});

describe("a LOAD_BALANCER endpoint created through ManagementClient", () => {
  it("reads back with its own name and type LOAD_BALANCER; the service-side name carries the marker", async () => {
    expect(echoEndpoint).toMatchObject({ name: "echo", type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT" });
    expect(await management.getEndpoint(echoEndpoint.id)).toMatchObject({ name: "echo", type: "LOAD_BALANCER" });
    expect((await management.listEndpoints()).map((e) => [e.name, e.type]).sort()).toEqual([
      ["echo", "LOAD_BALANCER"],
      ["user-server", "LOAD_BALANCER"],
    ]);
    // What the emulator stores is the wire name, marker included.
    const stored = emulator.inspect()[0]?.endpoints.find((e) => e.id === echoEndpoint.id);
    expect(stored?.name).toBe("echo -lb");
  });
});

describe("JobClient.request to the echo worker", () => {
  it("GET with a query string and a header: method, path, query and header reach the worker; the API key does not", async () => {
    const answer = await jobs.request(echoEndpoint.id, {
      method: "GET",
      path: "/v1/models",
      query: { q: "a b&c", n: 2, verbose: true },
      headers: { "x-trace-id": "trace-42" },
    });
    const echo = echoOf(answer);
    expect(echo).toMatchObject({ method: "GET", path: "/v1/models", query: { q: "a b&c", n: "2", verbose: "true" }, body: "" });
    expect(echo.headers["x-trace-id"]).toBe("trace-42");
    expect(echo.headers["authorization"]).toBeUndefined();
    expect(answer.text).not.toContain(emulator.apiKey);
  });

  it("POST with a JSON body: sent as JSON (content-type set), parsed by the worker, `json` parsed back", async () => {
    const payload = { prompt: "hello", max_tokens: 16, stop: ["\n"], nested: { ok: true, n: null } };
    const answer = await jobs.request(echoEndpoint.id, { method: "POST", path: "/v1/generate", body: payload });
    const echo = echoOf(answer);
    expect(echo).toMatchObject({ method: "POST", path: "/v1/generate", body: payload });
    expect(echo.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.text)).toEqual(answer.json);
  });

  it("PUT with a text body: sent as is, echoed as text", async () => {
    const answer = await jobs.request(echoEndpoint.id, {
      method: "PUT",
      path: "/files/notes.txt",
      headers: { "content-type": "text/plain" },
      body: "line one\nline two: {not json}",
    });
    expect(echoOf(answer)).toMatchObject({ method: "PUT", path: "/files/notes.txt", body: "line one\nline two: {not json}" });
  });

  it("a string body that is JSON text is sent unchanged (not encoded twice)", async () => {
    const answer = await jobs.request(echoEndpoint.id, {
      method: "PATCH",
      path: "/settings",
      headers: { "content-type": "application/json" },
      body: '{"mode":"fast"}',
    });
    expect(echoOf(answer)).toMatchObject({ method: "PATCH", path: "/settings", body: { mode: "fast" } });
  });

  it("DELETE with a query string and no body", async () => {
    const answer = await jobs.request(echoEndpoint.id, { method: "DELETE", path: "/sessions/s-1", query: { force: true } });
    expect(echoOf(answer)).toEqual(
      expect.objectContaining({ method: "DELETE", path: "/sessions/s-1", query: { force: "true" }, body: "" }),
    );
  });

  it("paths the job API would own on a queue endpoint (/health, /requests, /openai/...) belong to the worker", async () => {
    for (const p of ["/health", "/requests", "/openai/v1/chat/completions"]) {
      expect(echoOf(await jobs.request(echoEndpoint.id, { method: "GET", path: p })).path, p).toBe(p);
    }
  });

  it("a path that does not start with / is refused before anything is sent", async () => {
    await expect(jobs.request(echoEndpoint.id, { method: "GET", path: "v1/models" })).rejects.toThrow(/path must start with "\/"/);
  });
});

describe("worker ids and pinning", () => {
  it("every answer names the worker that served it, one of the endpoint's workers", async () => {
    const workers = await healthyWorkers(echoEndpoint.id);
    expect(workers).toHaveLength(2);
    const answer = await jobs.request(echoEndpoint.id, { method: "GET", path: "/whoami" });
    expect(answer.workerId).toMatch(/^[0-9a-z]{13}$/);
    expect(workers).toContain(answer.workerId);
    expect(answer.headers[WORKER_ID_HEADER.toLowerCase()]).toBe(answer.workerId);
  });

  it("requests pinned to either worker are all answered by that worker", async () => {
    const workers = await healthyWorkers(echoEndpoint.id);
    expect(new Set(workers).size).toBe(2);
    for (const workerId of workers) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => jobs.request(echoEndpoint.id, { method: "POST", path: "/chat", body: { turn: i }, workerId })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(answers.map((a) => a.workerId)).toEqual(Array(6).fill(workerId));
      // The pin is for the service: the header does not reach the worker.
      for (const a of answers) expect((a.json as Echo).headers[WORKER_ID_HEADER.toLowerCase()]).toBeUndefined();
    }
  });

  it("a pin from an earlier answer keeps a conversation on one worker", async () => {
    const first = await jobs.request(echoEndpoint.id, { method: "POST", path: "/session", body: { start: true } });
    expect(first.workerId).toBeDefined();
    for (let turn = 0; turn < 4; turn++) {
      const next = await jobs.request(echoEndpoint.id, { method: "POST", path: "/session", body: { turn }, workerId: first.workerId });
      expect(next.workerId).toBe(first.workerId);
      expect((next.json as Echo).body).toEqual({ turn });
    }
  });

  it("a pin to a worker that does not exist is answered 409 (a response, not an exception)", async () => {
    const answer = await jobs.request(echoEndpoint.id, { method: "GET", path: "/x", workerId: "zzzzzzzzzzzzz" });
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: expect.stringContaining("worker zzzzzzzzzzzzz of endpoint") });
    expect(answer.text).toContain("drop the X-Service-Worker-Id header");
  });
});

describe("a user server module's answers, whatever their status", () => {
  it("500 and 404 come back as responses with the worker's body and headers", async () => {
    const failed = await jobs.request(userEndpoint.id, { method: "POST", path: "/fail/500", body: { prompt: "x" } });
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ error: "the worker answered 500 on purpose", code: 500, method: "POST" });
    expect(failed.headers["x-server"]).toBe("lb-status-server");
    expect(failed.workerId).toMatch(/^[0-9a-z]{13}$/);

    const missing = await jobs.request(userEndpoint.id, { method: "GET", path: "/no/such/route" });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("no route for GET /no/such/route");
    expect(missing.json).toBeUndefined();
    expect(missing.headers["x-server"]).toBe("lb-status-server");
  });

  it("a 503 from the worker is not retried: one request reaches it", async () => {
    const retries: unknown[] = [];
    const client = new JobClient({ apiKey: emulator.apiKey, serverlessUrl: emulator.serverlessUrl, onRetry: (info) => retries.push(info) });
    try {
      const answer = await client.request(userEndpoint.id, { method: "GET", path: "/fail/503" });
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({ code: 503 });
      expect(retries).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("a text answer: `text` holds it and `json` is undefined", async () => {
    const answer = await jobs.request(userEndpoint.id, { method: "GET", path: "/text" });
    expect(answer).toMatchObject({ status: 200, text: "plain answer from the worker" });
    expect(answer.json).toBeUndefined();
  });
});

describe("queue verbs on a load-balancing endpoint", () => {
  it.each(["/run", "/runsync", "/status/job-1", "/status-sync/job-1", "/stream/job-1", "/cancel/job-1", "/retry/job-1", "/purge-queue"])(
    "request to %s answers 404 saying the endpoint has no job queue",
    async (verbPath) => {
      const answer = await jobs.request(echoEndpoint.id, { method: "POST", path: verbPath, body: { input: {} } });
      expect(answer.status).toBe(404);
      const verb = verbPath.split("/")[1];
      expect(answer.json).toEqual({
        error: expect.stringContaining(`is a load-balancing endpoint: it has no job queue, so /${verb} is not available`),
      });
      // The service answered for itself: no worker was involved.
      expect(answer.workerId).toBeUndefined();
    },
  );

  it("JobClient.run and runSync throw a NotFoundError that says why", async () => {
    const run = await jobs.run(echoEndpoint.id, { input: { prompt: "hi" } }).catch((e: unknown) => e);
    expect(run).toBeInstanceOf(NotFoundError);
    const message = (run as NotFoundError).message;
    expect(message).toContain("RunJob failed: 404");
    expect(message).toContain(`endpoint ${echoEndpoint.id} is a load-balancing endpoint: it has no job queue, so /run is not available`);
    expect(message).toContain(`Send requests to /v2/${echoEndpoint.id}/<path>`);
    expect(message).not.toContain(emulator.apiKey);

    const sync = await jobs.runSync(echoEndpoint.id, { input: {} }).catch((e: unknown) => e);
    expect(sync).toBeInstanceOf(NotFoundError);
    expect((sync as Error).message).toContain("so /runsync is not available");
  });

  it("a queue endpoint is not affected: /run there still queues a job", async () => {
    const template = await management.createTemplate({ name: "queue-worker", imageName: "acme/queue-worker:1", isServerless: true });
    const queue = await management.createEndpoint({ templateId: template.id, name: "queue", workersMin: 0, workersMax: 1 });
    expect(queue.type).toBe("QUEUE");
    const done = await jobs.runSync(queue.id, { input: { output: { ok: true } } }, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: "COMPLETED", output: { ok: true } });
  });
});

describe("lifecycle", () => {
  it("renaming keeps the endpoint load-balancing; scaling to 0 and deleting works", async () => {
    const renamed = await management.updateEndpoint(userEndpoint.id, { name: "user-server-v2" });
    expect(renamed).toMatchObject({ name: "user-server-v2", type: "LOAD_BALANCER" });
    expect(emulator.inspect()[0]?.endpoints.find((e) => e.id === userEndpoint.id)?.name).toBe("user-server-v2 -lb");
    // Still proxied after the rename (a release): the worker answers.
    const deadline = Date.now() + 10_000;
    let answer = await jobs.request(userEndpoint.id, { method: "GET", path: "/text", timeoutMs: 10_000 });
    while (answer.status !== 200 && Date.now() < deadline) answer = await jobs.request(userEndpoint.id, { method: "GET", path: "/text" });
    expect(answer.text).toBe("plain answer from the worker");

    await management.updateEndpoint(userEndpoint.id, { workersMin: 0, workersMax: 0 });
    await management.deleteEndpoint(userEndpoint.id);
    await expect(management.getEndpoint(userEndpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    const gone = await jobs.request(userEndpoint.id, { method: "GET", path: "/text" });
    expect(gone.status).toBe(404);
  });
});
