// JobClient (client/jobClient.ts) against a scripted job API on a real HTTP server: the calls and
// their paths, the runSync wait loop and its bounds, streaming, retries, request validation, and
// where the key and URL come from.

import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../../client/config";
import { BadRequestError, ConnectionError, RateLimitError, ServerError } from "../../client/errors";
import { JobRequestError, JobWaitTimeoutError, JobClient } from "../../client/jobClient";
import { Transport } from "../../client/transport";
import { dropConnection, json, startScriptedServer, type ScriptedServer, type Step } from "../support/scriptedServer";
import { closeAll, closeLater, completed, EP, failureOf, jobClient, KEY, startJobApi } from "../support/scriptedJobApi";

const WIRE_KEY = "jobs-key-SECRET-7";

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeAll();
});

describe("JobClient.runSync", () => {
  it("a job that finishes inside the /runsync window takes one request and returns the full record", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("job-1", { text: "hi there" }) }) });
    const client = jobClient(api);
    const record = await client.runSync(EP, { input: { prompt: "hi" }, policy: { ttl: 60_000 } }, { waitMs: 5_000 });
    expect(record).toEqual({
      id: "job-1",
      status: "COMPLETED",
      output: { text: "hi there" },
      delayTime: 12,
      executionTime: 340,
      workerId: "w-1",
    });
    expect(api.lines()).toEqual([`POST /v2/${EP}/runsync?wait=5000`]);
    const req = api.requests[0]!;
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ input: { prompt: "hi" }, policy: { ttl: 60_000 } });
  });

  it("a FAILED job is returned as a record (it is final), not thrown", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "job-f", status: "FAILED", error: "handler raised ValueError" } }),
    });
    const record = await jobClient(api).runSync(EP, { input: {} }, { waitMs: 2_000 });
    expect(record).toEqual({ id: "job-f", status: "FAILED", error: "handler raised ValueError" });
    expect(api.requests).toHaveLength(1);
  });

  it("the /runsync wait is capped by timeoutMs and by the service's 300000 maximum", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("j", 1) }) });
    const client = jobClient(api);
    await client.runSync(EP, { input: {} }, { timeoutMs: 4_000 });
    await client.runSync(EP, { input: {} }, { waitMs: 400_000, timeoutMs: 3_600_000 });
    await client.runSync(EP, { input: {} }, { timeoutMs: 200 }); // never below the service's 1000 minimum
    expect(api.requests.map((r) => r.query.get("wait"))).toEqual(["4000", "300000", "1000"]);
  });

  // Regression test for a fixed defect.
  it("without options, /runsync waits the documented default of 90000 ms", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("j", 1) }) });
    await jobClient(api).runSync(EP, { input: {} });
    expect(api.requests[0]!.query.get("wait")).toBe("90000");
  });

  it("a job still IN_PROGRESS after /runsync is followed with /status-sync long polls, not /status polling", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-42", status: "IN_PROGRESS" }, delayMs: 30 }),
      "GET status-sync": (_req, n) =>
        n === 0
          ? { body: { id: "sync-42", status: "IN_PROGRESS", output: { progress: 0.5 } }, delayMs: 100 }
          : { body: completed("sync-42", { text: "done" }), delayMs: 50 },
    });
    const record = await jobClient(api).runSync(EP, { input: { prompt: "long" } }, { waitMs: 2_000, timeoutMs: 60_000 });
    expect(record.status).toBe("COMPLETED");
    expect(record.output).toEqual({ text: "done" });
    expect(api.lines()).toEqual([
      `POST /v2/${EP}/runsync?wait=2000`,
      `GET /v2/${EP}/status-sync/sync-42?wait=2000`,
      `GET /v2/${EP}/status-sync/sync-42?wait=2000`,
    ]);
    expect(api.requests.some((r) => r.path.includes("/status/"))).toBe(false);
  });

  it("without waitMs, each /status-sync waits for what is left of timeoutMs (at least 1000)", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-7", status: "IN_QUEUE" } }),
      "GET status-sync": (_req, n) =>
        n < 2 ? { body: { id: "sync-7", status: "IN_PROGRESS" }, delayMs: 60 } : { body: completed("sync-7", "ok") },
    });
    const record = await jobClient(api).runSync(EP, { input: {} }, { timeoutMs: 8_000 });
    expect(record.output).toBe("ok");
    const waits = api.requests.map((r) => Number(r.query.get("wait")));
    expect(waits[0]).toBe(8_000);
    expect(waits).toHaveLength(4);
    for (const wait of waits.slice(1)) {
      expect(wait).toBeGreaterThanOrEqual(1_000);
      expect(wait).toBeLessThanOrEqual(8_000);
    }
    // Time passes, so later polls ask for less.
    expect(waits[3]!).toBeLessThan(waits[1]! + 1);
    expect(api.requests.slice(1).every((r) => r.method === "GET" && r.path === `/v2/${EP}/status-sync/sync-7`)).toBe(true);
  });

  it("throws JobWaitTimeoutError when timeoutMs passes first, and leaves the job running", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-9", status: "IN_QUEUE" } }),
      "GET status-sync": () => ({ body: { id: "sync-9", status: "IN_PROGRESS" }, delayMs: 150 }),
    });
    const started = performance.now();
    const error = await failureOf(() => jobClient(api).runSync(EP, { input: {} }, { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(JobWaitTimeoutError);
    const e = error as JobWaitTimeoutError;
    expect(e.name).toBe("JobWaitTimeoutError");
    expect(e.jobId).toBe("sync-9");
    expect(e.lastStatus).toBe("IN_PROGRESS");
    expect(e.lastRecord).toEqual({ id: "sync-9", status: "IN_PROGRESS" });
    expect(e.message).toBe(
      "job sync-9 did not finish within 300 ms (last status IN_PROGRESS); it keeps running: call status(), or cancel() it",
    );
    // Not before the deadline. (After it: the job never leaves IN_PROGRESS, so returning at all
    // means the client gave up; no wall-clock upper bound, which a loaded machine can exceed.)
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(api.requests.filter((r) => r.path.includes("/cancel/"))).toEqual([]);
    expect(api.requests.filter((r) => r.path.includes("/status-sync/")).length).toBeGreaterThanOrEqual(1);
  });
});

describe("JobClient.stream", () => {
  it("yields every chunk across several reads, in order, and stops at the final status", async () => {
    const pages = [
      { status: "IN_PROGRESS", stream: [{ output: "The" }, { output: " quick" }] },
      { status: "IN_PROGRESS", stream: [] }, // nothing new within the long poll
      { status: "IN_PROGRESS", stream: [{ output: " brown" }] },
      { status: "COMPLETED", stream: [{ output: " fox" }] },
    ];
    const api = await startJobApi({
      "GET stream": (_req, n) =>
        n < pages.length
          ? { body: { id: "job-s", ...pages[n] }, delayMs: n === 1 ? 80 : 0 }
          : { status: 500, body: { error: "read after the end" } },
    });
    const iterator = jobClient(api).stream(EP, "job-s");
    const chunks: unknown[] = [];
    let result = await iterator.next();
    while (!result.done) {
      chunks.push(result.value);
      result = await iterator.next();
    }
    expect(chunks).toEqual(["The", " quick", " brown", " fox"]);
    expect(result.value).toBe("COMPLETED");
    expect(api.lines()).toEqual(Array(4).fill(`GET /v2/${EP}/stream/job-s`));
  });

  it("structured chunks come through as they are; a FAILED status also ends the stream", async () => {
    const api = await startJobApi({
      "GET stream": (_req, n) =>
        n === 0
          ? { body: { status: "IN_PROGRESS", stream: [{ output: { token: 1 } }, { output: { token: 2 } }] } }
          : n === 1
            ? { body: { status: "FAILED", stream: [] } }
            : { status: 500, body: { error: "read after the end" } },
    });
    const seen: unknown[] = [];
    for await (const chunk of jobClient(api).stream(EP, "job-x")) seen.push(chunk);
    expect(seen).toEqual([{ token: 1 }, { token: 2 }]);
    expect(api.requests).toHaveLength(2);
  });

  it("a consumer that stops early makes no further reads", async () => {
    const api = await startJobApi({
      "GET stream": () => ({ body: { status: "IN_PROGRESS", stream: [{ output: "a" }, { output: "b" }, { output: "c" }] } }),
    });
    const seen: unknown[] = [];
    for await (const chunk of jobClient(api).stream(EP, "job-y")) {
      seen.push(chunk);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(["a", "b"]);
    expect(api.requests).toHaveLength(1);
  });
});

describe("JobClient retries", () => {
  it("a 429 with Retry-After: 0 on /run is retried, and the retry succeeds", async () => {
    const api = await startJobApi({
      "POST run": (_req, n) =>
        n === 0
          ? { status: 429, body: { error: "too many requests" }, headers: { "retry-after": "0" } }
          : { body: { id: "job-r", status: "IN_QUEUE" } },
    });
    const record = await jobClient(api).run(EP, { input: { n: 1 } });
    expect(record).toEqual({ id: "job-r", status: "IN_QUEUE" });
    expect(api.lines()).toEqual([`POST /v2/${EP}/run`, `POST /v2/${EP}/run`]);
    expect(api.requests[1]!.body).toBe(api.requests[0]!.body);
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ input: { n: 1 } });
  });

  it("Retry-After: 1 is honoured: the retry arrives about a second later", async () => {
    const api = await startJobApi({
      "POST run": (_req, n) =>
        n === 0
          ? { status: 429, body: { error: "slow down" }, headers: { "retry-after": "1" } }
          : { body: { id: "job-2", status: "IN_QUEUE" } },
    });
    // The waits the client asks for are recorded (and really waited): a busy machine can stretch
    // the gap between the two requests, so only its lower bound is measured.
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    const client = new JobClient(new Transport({ baseUrl: api.url, apiKey: KEY, sleep }));
    closeLater(client);
    await client.run(EP, { input: {} });
    expect(api.requests).toHaveLength(2);
    expect(waits).toEqual([1_000]);
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("with maxRetries 0 the 429 surfaces as a RateLimitError carrying the hint", async () => {
    const api = await startJobApi({
      "POST run": () => ({ status: 429, body: { error: "too many requests" }, headers: { "retry-after": "3" } }),
    });
    const error = await failureOf(() => jobClient(api, { maxRetries: 0 }).run(EP, { input: {} }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
    expect((error as RateLimitError).retryAfterMs).toBe(3_000);
    expect((error as Error).message).toBe("RunJob failed: 429 Too Many Requests: too many requests");
    expect(api.requests).toHaveLength(1);
  });
});

describe("JobClient request validation", () => {
  it("an invalid request is refused before anything reaches the server", async () => {
    const api = await startJobApi({
      "POST run": () => ({ body: { id: "never", status: "IN_QUEUE" } }),
      "POST runsync": () => ({ body: completed("never", 1) }),
    });
    const client = jobClient(api);

    const ttl = await failureOf(() => client.run(EP, { input: {}, policy: { ttl: 9_999 } }));
    expect(ttl).toBeInstanceOf(JobRequestError);
    expect((ttl as JobRequestError).path).toBe("policy.ttl");

    const big = await failureOf(() => client.run(EP, { input: { blob: "x".repeat(10 * 1024 * 1024) } }));
    expect(big).toBeInstanceOf(JobRequestError);
    expect((big as Error).message).toMatch(/over the 10 MB limit of \/run/);

    const unknownKey = await failureOf(() => client.runSync(EP, { input: {}, ...({ webhok: "https://x.example.test" } as object) }));
    expect(unknownKey).toBeInstanceOf(JobRequestError);
    expect((unknownKey as Error).message).toContain("unknown key(s) webhok");

    const hook = await failureOf(() => client.runSync(EP, { input: {}, webhook: "ftp://x.example.test" }));
    expect(hook).toBeInstanceOf(JobRequestError);
    expect((hook as JobRequestError).path).toBe("webhook");

    const noInput = await failureOf(() => client.run(EP, {} as never));
    expect((noInput as JobRequestError).path).toBe("input");

    for (const ttlMs of [9_999, 604_800_001, 1.5e4 + 0.5]) {
      const statusTtl = await failureOf(() => client.status(EP, "j", { ttlMs }));
      expect(statusTtl).toBeInstanceOf(JobRequestError);
      expect((statusTtl as JobRequestError).path).toBe("ttl");
      expect((statusTtl as Error).message).toMatch(/invalid status ttl: .*; use 10000\.\.604800000 ms/);
    }

    expect(api.requests).toEqual([]);
  });

  it("runSync takes a payload over /run's 10 MB limit", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("j-big", "ok") }) });
    const blob = "x".repeat(10 * 1024 * 1024);
    const record = await jobClient(api).runSync(EP, { input: { blob } }, { waitMs: 2_000 });
    expect(record.output).toBe("ok");
    expect(api.requests[0]!.body.length).toBeGreaterThan(10 * 1024 * 1024);
  });

  // Regression test for a fixed defect.
  it("run() reports an invalid request as a rejected promise, not a synchronous throw", async () => {
    const api = await startJobApi({});
    const client = jobClient(api);
    let returned: Promise<unknown> | undefined;
    let thrownSynchronously: unknown;
    try {
      returned = client.run(EP, { input: {}, policy: { ttl: 1 } });
    } catch (e) {
      thrownSynchronously = e;
    }
    expect(thrownSynchronously, "run() threw synchronously").toBeUndefined();
    await expect(returned).rejects.toBeInstanceOf(JobRequestError);
    expect(api.requests).toEqual([]);
  });
});

describe("JobClient credentials and URL", () => {
  it("sends Authorization: Bearer <key> on every call", async () => {
    const api = await startJobApi({
      "POST run": () => ({ body: { id: "j", status: "IN_QUEUE" } }),
      "GET status": () => ({ body: { id: "j", status: "IN_QUEUE" } }),
      "POST cancel": () => ({ body: { id: "j", status: "CANCELLED" } }),
    });
    const client = jobClient(api);
    await client.run(EP, { input: {} });
    await client.status(EP, "j");
    await client.cancel(EP, "j");
    expect(api.requests).toHaveLength(3);
    for (const r of api.requests) {
      expect(r.headers["authorization"]).toBe(`Bearer ${KEY}`);
      expect(r.url).not.toContain(KEY);
    }
  });

  it("reads the key and URL from GPUCLOUD_API_KEY and GPUCLOUD_SERVERLESS_URL when no options are given", async () => {
    const api = await startJobApi({ "GET health": () => ({ body: { jobs: {}, workers: {} } }) });
    vi.stubEnv("GPUCLOUD_API_KEY", "env-key-123");
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", `${api.url}/`);
    const client = new JobClient();
    closeLater(client);
    await client.health(EP);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]!.headers["authorization"]).toBe("Bearer env-key-123");
    expect(api.requests[0]!.path).toBe(`/v2/${EP}/health`);
  });

  it("options win over the environment", async () => {
    const fromOptions = await startJobApi({ "GET health": () => ({ body: { jobs: {}, workers: {} } }) });
    const fromEnv = await startJobApi({ "GET health": () => ({ body: { jobs: {}, workers: {} } }) });
    vi.stubEnv("GPUCLOUD_API_KEY", "env-key");
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", fromEnv.url);
    const client = jobClient(fromOptions, { apiKey: "option-key" });
    await client.health(EP);
    expect(fromEnv.requests).toEqual([]);
    expect(fromOptions.requests).toHaveLength(1);
    expect(fromOptions.requests[0]!.headers["authorization"]).toBe("Bearer option-key");
  });

  it("an option fills in only what it names; the rest still comes from the environment", async () => {
    const api = await startJobApi({ "GET health": () => ({ body: { jobs: {}, workers: {} } }) });
    vi.stubEnv("GPUCLOUD_API_KEY", "env-key-only");
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", undefined);
    const client = new JobClient({ serverlessUrl: api.url });
    closeLater(client);
    await client.health(EP);
    expect(api.requests[0]!.headers["authorization"]).toBe("Bearer env-key-only");
  });

  it("a URL that does not end in /v2 is refused with the value and the fix", () => {
    const error = (() => {
      try {
        new JobClient({ apiKey: KEY, serverlessUrl: "http://127.0.0.1:9/api" });
      } catch (e) {
        return e;
      }
      throw new Error("expected a ConfigError");
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("must end in /v2");
    expect(message).toContain('(got "http://127.0.0.1:9/api")');
    expect(message).toContain('Append /v2, e.g. "http://127.0.0.1:9/api/v2"');
  });

  it("the management API's /v1 URL is refused with a hint that the settings may be swapped", () => {
    expect(() => new JobClient({ apiKey: KEY, serverlessUrl: "http://127.0.0.1:9/v1" })).toThrow(
      /must end in \/v2 .*It ends in \/v1: that is the management API's URL/,
    );
  });

  it("the same check applies to a URL from GPUCLOUD_SERVERLESS_URL", () => {
    vi.stubEnv("GPUCLOUD_API_KEY", "k");
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", "http://127.0.0.1:9/v2/extra");
    expect(() => new JobClient()).toThrow(/GPUCLOUD_SERVERLESS_URL must end in \/v2 \(got "http:\/\/127\.0\.0\.1:9\/v2\/extra"\)/);
  });

  it("no key anywhere: a ConfigError naming GPUCLOUD_API_KEY", () => {
    vi.stubEnv("GPUCLOUD_API_KEY", undefined);
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", undefined);
    expect(() => new JobClient({ serverlessUrl: "http://127.0.0.1:9/v2" })).toThrow(ConfigError);
    expect(() => new JobClient({ serverlessUrl: "http://127.0.0.1:9/v2" })).toThrow(/GPUCLOUD_API_KEY/);
  });

  it("no URL anywhere: a ConfigError naming GPUCLOUD_SERVERLESS_URL", () => {
    vi.stubEnv("GPUCLOUD_SERVERLESS_URL", undefined);
    expect(() => new JobClient({ apiKey: KEY })).toThrow(/GPUCLOUD_SERVERLESS_URL.*The URL ends in \/v2/);
  });
});

describe("JobClient other calls", () => {
  it("status, waitForStatus, cancel, retry, purgeQueue and health use the job API's paths", async () => {
    const api = await startJobApi({
      "GET status": () => ({ body: { id: "j", status: "IN_PROGRESS", output: { progress: 0.2 } } }),
      "GET status-sync": () => ({ body: { id: "j", status: "COMPLETED", output: 1 } }),
      "POST cancel": () => ({ body: { id: "j", status: "CANCELLED" } }),
      "POST retry": () => ({ body: { id: "j", status: "IN_QUEUE" } }),
      "POST purge-queue": () => ({ body: { removed: 4, status: "completed" } }),
      "GET health": () => ({
        body: {
          jobs: { completed: 5, failed: 1, inProgress: 2, inQueue: 3, retried: 0 },
          workers: { idle: 1, initializing: 0, ready: 1, running: 2, throttled: 0, unhealthy: 0 },
        },
      }),
    });
    const client = jobClient(api);
    expect(await client.status(EP, "j", { ttlMs: 60_000 })).toEqual({ id: "j", status: "IN_PROGRESS", output: { progress: 0.2 } });
    expect(await client.waitForStatus(EP, "j", { waitMs: 1_500 })).toEqual({ id: "j", status: "COMPLETED", output: 1 });
    expect(await client.cancel(EP, "j")).toEqual({ id: "j", status: "CANCELLED" });
    expect(await client.retry(EP, "j")).toEqual({ id: "j", status: "IN_QUEUE" });
    expect(await client.purgeQueue(EP)).toEqual({ removed: 4, status: "completed" });
    expect((await client.health(EP)).jobs.inQueue).toBe(3);
    expect(api.lines()).toEqual([
      `GET /v2/${EP}/status/j?ttl=60000`,
      `GET /v2/${EP}/status-sync/j?wait=1500`,
      `POST /v2/${EP}/cancel/j`,
      `POST /v2/${EP}/retry/j`,
      `POST /v2/${EP}/purge-queue`,
      `GET /v2/${EP}/health`,
    ]);
    for (const r of api.requests.filter((x) => x.method === "POST")) expect(r.body).toBe("{}");
  });
});

// ---- retries and wire details, on a server that answers a script of steps in order -------------

describe("JobClient on the wire", () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function setup(steps: Step[] | Step) {
    server = await startScriptedServer(steps);
    const client = new JobClient(new Transport({ baseUrl: `${server.origin}/v2`, apiKey: WIRE_KEY, sleep: async () => undefined }));
    closeLater(client);
    return { server, client };
  }

  it("run posts the validated request, undefined fields left out, with the key as a bearer token", async () => {
    const { server, client } = await setup(json(200, { id: "job-1", status: "IN_QUEUE" }));
    const rec = await client.run("ep1", {
      input: { prompt: "hi" },
      webhook: "http://hook",
      policy: { ttl: 60000, executionTimeout: undefined },
    });
    expect(rec).toEqual({ id: "job-1", status: "IN_QUEUE" });
    const req = server.requests[0]!;
    expect(`${req.method} ${req.url}`).toBe("POST /v2/ep1/run");
    expect(req.headers["authorization"]).toBe(`Bearer ${WIRE_KEY}`);
    expect(JSON.parse(req.body)).toEqual({ input: { prompt: "hi" }, webhook: "http://hook", policy: { ttl: 60000 } });
  });

  it("runSync reads numbers the service sends as strings", async () => {
    const { client } = await setup(
      json(200, { id: "j", status: "COMPLETED", output: { text: "ok" }, delayTime: 12, executionTime: "340", workerId: "w1" }),
    );
    const done = await client.runSync("ep1", { input: {} }, { waitMs: 5000 });
    expect(done).toEqual({ id: "j", status: "COMPLETED", output: { text: "ok" }, delayTime: 12, executionTime: 340, workerId: "w1" });
  });

  it("waitForStatus outside the wait range: the service's 400 message comes through", async () => {
    const { client } = await setup(json(400, { error: "wait is invalid; must be between 1000 and 300000" }));
    const e = await client.waitForStatus("ep1", "j", { waitMs: 5 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as Error).message).toBe("JobStatusSync failed: 400 Bad Request: wait is invalid; must be between 1000 and 300000");
  });

  it("run is not retried on 500 or after a reset (could double-submit), but is on 429", async () => {
    const { server, client } = await setup([
      json(500, { error: "x" }),
      dropConnection,
      json(429, {}),
      json(200, { id: "j", status: "IN_QUEUE" }),
    ]);
    await expect(client.run("ep1", { input: {} })).rejects.toBeInstanceOf(ServerError);
    await expect(client.run("ep1", { input: {} })).rejects.toBeInstanceOf(ConnectionError);
    await expect(client.run("ep1", { input: {} })).resolves.toMatchObject({ id: "j" });
    expect(server.requests).toHaveLength(4);
  });

  it("status, waitForStatus, stream, cancel, retry, purgeQueue, health: paths, bodies and content type", async () => {
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
    expect(await client.status("ep1", "j", { ttlMs: 60000 })).toEqual({ id: "j", status: "FAILED", error: "boom" });
    expect((await client.waitForStatus("ep1", "j", { waitMs: 2000 })).output).toBe(1);
    const chunks: unknown[] = [];
    for await (const chunk of client.stream("ep1", "j")) chunks.push(chunk);
    expect(chunks).toEqual(["a", "b"]);
    expect((await client.cancel("ep1", "j")).status).toBe("CANCELLED");
    expect((await client.retry("ep1", "j")).status).toBe("IN_QUEUE");
    expect(await client.purgeQueue("ep1")).toEqual({ removed: 3, status: "completed" });
    expect((await client.health("ep1")).workers.running).toBe(2);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /v2/ep1/status/j?ttl=60000",
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
    const { server, client } = await setup([
      json(503),
      json(200, { id: "j", status: "CANCELLED" }),
      dropConnection,
      json(200, { id: "j", status: "IN_QUEUE" }),
    ]);
    await client.cancel("ep1", "j");
    await client.status("ep1", "j");
    expect(server.requests).toHaveLength(4);
  });

  it("a blank endpoint or job id is refused before any request, naming the argument", async () => {
    const { server, client } = await setup(json(200, { id: "j", status: "IN_QUEUE" }));
    const blankEndpoint = await failureOf(() => client.run(" ", { input: {} }));
    expect(blankEndpoint).toBeInstanceOf(JobRequestError);
    expect((blankEndpoint as JobRequestError).path).toBe("endpointId");
    const blankJob = await failureOf(() => client.cancel("ep1", ""));
    expect((blankJob as Error).message).toBe('job API: jobId must be a non-empty string (got "")');
    expect(server.requests).toEqual([]);
  });
});
