// JobClient (sdk/jobClient.ts) and runQueueCase (provider/smoke/runCase.ts) against a real HTTP
// server on port 0 that plays the job API's wire format: `{serverlessUrl}/<endpointId>/<action>[/<id>]`,
// HTTP 200 JSON for successes, `{"error": "..."}` bodies for failures, long polls held server-side.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../../client/config";
import { RateLimitError } from "../../client/errors";
import { JobApiClient } from "../../client/jobs";
import { failureMessage } from "../../provider/smoke/report";
import { runQueueCase } from "../../provider/smoke/runCase";
import { JobClient, JobRequestError, JobWaitTimeoutError } from "../../sdk/jobClient";

const KEY = "test-key-5e1f";
const EP = "ep-abc";

// ---- a scripted job API ------------------------------------------------------------------------

interface Seen {
  method: string;
  /** Path without the query, e.g. "/v2/ep-abc/status-sync/job-1". */
  path: string;
  /** Path + query as received. */
  url: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Arrival time (ms, performance.now()). */
  at: number;
}

interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (a long poll). */
  delayMs?: number;
}

/** Answers one request; `n` counts the calls to this route so far, from 0. */
type Route = (req: Seen, n: number) => Reply;

interface JobApi {
  /** "http://127.0.0.1:<port>/v2" */
  url: string;
  requests: Seen[];
  /** "METHOD /path?query" of every request, in order. */
  lines(): string[];
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  while (cleanups.length > 0) await cleanups.pop()!();
});

/**
 * Routes are keyed "METHOD action", where action is the segment after the endpoint id
 * ("POST run", "GET status-sync", ...). An unscripted route answers 404 like the service.
 */
async function startJobApi(routes: Record<string, Route>): Promise<JobApi> {
  const requests: Seen[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const parsed = new URL(req.url ?? "/", "http://x");
      const seen: Seen = {
        method: req.method ?? "",
        path: parsed.pathname,
        url: req.url ?? "",
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      requests.push(seen);
      const action = parsed.pathname.split("/")[3] ?? "";
      const key = `${seen.method} ${action}`;
      const route = routes[key];
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      const reply: Reply = route ? route(seen, n) : { status: 404, body: { error: `no route ${key}` } };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const api: JobApi = {
    url: `http://127.0.0.1:${port}/v2`,
    requests,
    lines: () => requests.map((r) => `${r.method} ${r.url}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  cleanups.push(api.close);
  return api;
}

function jobClient(api: JobApi, options: ConstructorParameters<typeof JobClient>[0] = {}): JobClient {
  const client = new JobClient({ apiKey: KEY, serverlessUrl: api.url, ...options });
  cleanups.push(() => client.close());
  return client;
}

function apiClient(api: JobApi): JobApiClient {
  const client = new JobApiClient({ baseUrl: api.url, apiKey: KEY, maxRetries: 0, sleep: async () => undefined });
  cleanups.push(() => client.close());
  return client;
}

/** Runs fn and returns what it threw or rejected with (synchronous throws included). */
async function failureOf(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}

const completed = (id: string, output: unknown) => ({ id, status: "COMPLETED", output, delayTime: 12, executionTime: 340, workerId: "w-1" });

// ---- JobClient -----------------------------------------------------------------------------------

describe("JobClient.runSync", () => {
  it("a job that finishes inside the /runsync window takes one request and returns the full record", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("job-1", { text: "hi there" }) }) });
    const client = jobClient(api);
    const record = await client.runSync(EP, { input: { prompt: "hi" }, policy: { ttl: 60_000 } }, { waitMs: 5_000 });
    expect(record).toEqual({ id: "job-1", status: "COMPLETED", output: { text: "hi there" }, delayTime: 12, executionTime: 340, workerId: "w-1" });
    expect(api.lines()).toEqual([`POST /v2/${EP}/runsync?wait=5000`]);
    const req = api.requests[0]!;
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ input: { prompt: "hi" }, policy: { ttl: 60_000 } });
  });

  it("a FAILED job is returned as a record (it is final), not thrown", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: { id: "job-f", status: "FAILED", error: "handler raised ValueError" } }) });
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
        n === 0 ? { body: { id: "sync-42", status: "IN_PROGRESS", output: { progress: 0.5 } }, delayMs: 100 } : { body: completed("sync-42", { text: "done" }), delayMs: 50 },
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
      "GET status-sync": (_req, n) => (n < 2 ? { body: { id: "sync-7", status: "IN_PROGRESS" }, delayMs: 60 } : { body: completed("sync-7", "ok") }),
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
    expect(e.message).toBe("job sync-9 did not finish within 300 ms (last status IN_PROGRESS); it keeps running: call status(), or cancel() it");
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
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
      "GET stream": (_req, n) => (n < pages.length ? { body: { id: "job-s", ...pages[n] }, delayMs: n === 1 ? 80 : 0 } : { status: 500, body: { error: "read after the end" } }),
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
        n === 0 ? { status: 429, body: { error: "too many requests" }, headers: { "retry-after": "0" } } : { body: { id: "job-r", status: "IN_QUEUE" } },
    });
    const record = await jobClient(api).run(EP, { input: { n: 1 } });
    expect(record).toEqual({ id: "job-r", status: "IN_QUEUE" });
    expect(api.lines()).toEqual([`POST /v2/${EP}/run`, `POST /v2/${EP}/run`]);
    expect(api.requests[1]!.body).toBe(api.requests[0]!.body);
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ input: { n: 1 } });
  });

  it("Retry-After: 1 is honoured: the retry arrives about a second later", async () => {
    const api = await startJobApi({
      "POST run": (_req, n) => (n === 0 ? { status: 429, body: { error: "slow down" }, headers: { "retry-after": "1" } } : { body: { id: "job-2", status: "IN_QUEUE" } }),
    });
    await jobClient(api).run(EP, { input: {} });
    expect(api.requests).toHaveLength(2);
    const gap = api.requests[1]!.at - api.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(2_500);
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
    cleanups.push(() => client.close());
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
    cleanups.push(() => client.close());
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
    expect(() => new JobClient({ apiKey: KEY, serverlessUrl: "http://127.0.0.1:9/v1" })).toThrow(/must end in \/v2 .*It ends in \/v1: that is the management API's URL/);
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

// ---- runQueueCase ----------------------------------------------------------------------------------

describe("runQueueCase", () => {
  it("a passing case: one /runsync carrying input and policy, and a passed result", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("job-ok", { text: "hello world", tokens: 2 }) }) });
    const result = await runQueueCase(apiClient(api), EP, {
      name: "greets",
      input: { prompt: "hello" },
      policy: { executionTimeout: 30_000 },
      expect: { outputSubset: { text: "hello world" }, outputPredicates: [{ path: "tokens", op: "gte", value: 1 }] },
      timeoutSeconds: 20,
    });
    expect(result).toEqual({
      name: "greets",
      jobId: "job-ok",
      status: "COMPLETED",
      output: { text: "hello world", tokens: 2 },
      delayTime: 12,
      executionTime: 340,
      passed: true,
      problems: [],
    });
    expect(api.lines()).toEqual([`POST /v2/${EP}/runsync?wait=20000`]);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ input: { prompt: "hello" }, policy: { executionTimeout: 30_000 } });
  });

  it("without timeoutSeconds the /runsync wait is the 300 s default", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("j", null) }) });
    const result = await runQueueCase(apiClient(api), EP, { name: "n", input: {} });
    expect(result.passed).toBe(true);
    expect(api.requests[0]!.query.get("wait")).toBe("300000");
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ input: {} });
  });

  it("a failing case: FAILED with an error gives passed=false, the error, and a report naming job, status and error", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "job-bad", status: "FAILED", error: "CUDA error: out of memory", delayTime: 5, executionTime: 80 } }),
    });
    const result = await runQueueCase(apiClient(api), EP, { name: "oom", input: { size: "xl" }, expect: { outputSubset: { ok: true } }, timeoutSeconds: 5 });
    expect(result.passed).toBe(false);
    expect(result.status).toBe("FAILED");
    expect(result.jobId).toBe("job-bad");
    expect(result.error).toBe("CUDA error: out of memory");
    expect(result).not.toHaveProperty("output");
    expect(result.problems).toEqual(["status is FAILED, expected COMPLETED", "output is undefined, expected an object"]);
    const message = failureMessage(EP, [result])!;
    expect(message).toContain(`smoke tests failed on endpoint ${EP}: 1 of 1 case(s) failed`);
    expect(message).toContain('case "oom": job job-bad ended FAILED');
    expect(message).toContain('error: "CUDA error: out of memory"');
    expect(api.requests.filter((r) => r.path.includes("/cancel/"))).toEqual([]);
  });

  it("a case that expects the failure passes", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: { id: "job-e", status: "FAILED", error: "ValueError: prompt is empty" } }) });
    const result = await runQueueCase(apiClient(api), EP, { name: "rejects-empty", input: { prompt: "" }, expect: { status: "FAILED", errorContains: "prompt is empty" } });
    expect(result.passed).toBe(true);
    expect(result.problems).toEqual([]);
  });

  it("a job that outlives /runsync is followed on /status-sync until it finishes", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-5", status: "IN_QUEUE" } }),
      "GET status-sync": (_req, n) => (n === 0 ? { body: { id: "sync-5", status: "IN_PROGRESS" }, delayMs: 80 } : { body: completed("sync-5", "fine") }),
    });
    const result = await runQueueCase(apiClient(api), EP, { name: "later", input: {}, expect: { output: "fine" }, timeoutSeconds: 30 });
    expect(result.passed).toBe(true);
    expect(result.jobId).toBe("sync-5");
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v2/${EP}/runsync`,
      `GET /v2/${EP}/status-sync/sync-5`,
      `GET /v2/${EP}/status-sync/sync-5`,
    ]);
    for (const r of api.requests) {
      const wait = Number(r.query.get("wait"));
      expect(wait).toBeGreaterThanOrEqual(1_000);
      expect(wait).toBeLessThanOrEqual(30_000);
    }
  });

  it("a case that runs past timeoutSeconds is cancelled (POST /cancel/<id>) and fails with the reason", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-slow", status: "IN_QUEUE" } }),
      "GET status-sync": () => ({ body: { id: "sync-slow", status: "IN_PROGRESS" }, delayMs: 120 }),
      "POST cancel": () => ({ body: { id: "sync-slow", status: "CANCELLED" } }),
    });
    const started = performance.now();
    const result = await runQueueCase(apiClient(api), EP, { name: "slow", input: {}, timeoutSeconds: 0.3 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result.passed).toBe(false);
    expect(result.jobId).toBe("sync-slow");
    expect(result.status).toBe("IN_PROGRESS");
    expect(result.problems).toEqual(["did not finish within timeoutSeconds=0.3 (last status IN_PROGRESS); the job was cancelled"]);
    const cancels = api.requests.filter((r) => r.method === "POST" && r.path === `/v2/${EP}/cancel/sync-slow`);
    expect(cancels).toHaveLength(1);
    expect(api.requests.at(-1)!.path).toBe(`/v2/${EP}/cancel/sync-slow`);
    expect(failureMessage(EP, [result])).toContain('case "slow": job sync-slow ended IN_PROGRESS; did not finish within timeoutSeconds=0.3');
  });

  it("a failed cancel does not change the verdict", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-c", status: "IN_PROGRESS" } }),
      "GET status-sync": () => ({ body: { id: "sync-c", status: "IN_PROGRESS" }, delayMs: 100 }),
      "POST cancel": () => ({ status: 500, body: { error: "internal" } }),
    });
    const result = await runQueueCase(apiClient(api), EP, { name: "c", input: {}, timeoutSeconds: 0.15 });
    expect(result.passed).toBe(false);
    expect(result.problems[0]).toMatch(/^did not finish within timeoutSeconds=0\.15/);
    expect(api.requests.some((r) => r.path === `/v2/${EP}/cancel/sync-c`)).toBe(true);
  });

  it("the deadline comes from the injected clock: an expired case is cancelled without another poll", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-t", status: "IN_QUEUE" } }),
      "POST cancel": () => ({ body: { id: "sync-t", status: "CANCELLED" } }),
    });
    let clock = 1_000_000;
    const now = () => {
      const t = clock;
      clock += 11_000; // every reading of the clock is past the case's whole 10 s budget
      return t;
    };
    const result = await runQueueCase(apiClient(api), EP, { name: "t", input: {}, timeoutSeconds: 10 }, now);
    expect(result.passed).toBe(false);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /v2/${EP}/runsync`, `POST /v2/${EP}/cancel/sync-t`]);
  });
});
