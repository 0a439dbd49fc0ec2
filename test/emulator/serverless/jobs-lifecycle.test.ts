// Job API over real HTTP: auth, 404s, every state transition, retry, runsync, TTL and retention.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spec, startHarness, type Harness } from "../../support/jobsHarness";

let h: Harness;
const E = "/v2/ep1";

beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [
      spec({ id: "ep1", workersMin: 1, workersMax: 2 }),
      // No workers ever: jobs stay queued.
      spec({ id: "stuck", workersMin: 0, workersMax: 0 }),
      spec({ id: "other", accountId: "acct2" }),
      spec({ id: "pub", accountId: "public", workersMin: 1 }),
      spec({ id: "lb", type: "LOAD_BALANCER" }),
    ],
  });
  // workersMin is up before the tests start.
  await h.until(async () => (await h.call("GET", `${E}/health`)).body.workers.idle === 1, 15_000, "warm worker");
});
afterAll(() => h.close());

const status = async (id: string, ep = E) => (await h.call("GET", `${ep}/status/${id}`)).body;
const waitStatus = (id: string, want: string, ep = E) =>
  h.until(
    async () => {
      const b = await status(id, ep);
      return b.status === want ? b : undefined;
    },
    15_000,
    `job ${id} ${want}`,
  );

describe("auth and 404s", () => {
  it("accepts Bearer and bare keys, refuses missing and unknown ones with JSON 401", async () => {
    const bearer = await h.call("GET", `${E}/health`);
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("content-type")).toBe("application/json");
    const bare = await h.call("GET", `${E}/health`, undefined, { auth: "key-one" });
    expect(bare.status).toBe(200);
    const missing = await h.call("GET", `${E}/health`, undefined, { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/missing API key/);
    const wrong = await h.call("GET", `${E}/health`, undefined, { key: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatch(/not valid/);
  });

  it("answers 404 JSON for unknown endpoints, other accounts' endpoints, jobs and operations", async () => {
    const ep = await h.call("GET", "/v2/missing/health");
    expect(ep.status).toBe(404);
    expect(ep.body.error).toContain('"missing"');
    expect((await h.call("GET", "/v2/other/health")).status).toBe(404);
    const job = await h.call("GET", `${E}/status/not-a-job`);
    expect(job.status).toBe(404);
    expect(job.body.error).toContain("not-a-job");
    const op = await h.call("POST", `${E}/frobnicate`, {});
    expect(op.status).toBe(404);
    expect(op.body.error).toMatch(/unknown operation "frobnicate"/);
    const method = await h.call("GET", `${E}/run`);
    expect(method.status).toBe(405);
    expect(method.body.error).toMatch(/POST/);
    const lb = await h.call("POST", "/v2/lb/run", { input: {} });
    expect(lb.status).toBe(404);
    expect(lb.body.error).toMatch(/load-balancing endpoint/);
  });

  it("scopes jobs on a public endpoint to the account that submitted them", async () => {
    const run = await h.call("POST", "/v2/pub/runsync", { input: { output: 7 } });
    expect(run.body).toMatchObject({ status: "COMPLETED", output: 7 });
    expect((await h.call("GET", `/v2/pub/status/${run.body.id}`)).status).toBe(200);
    const other = await h.call("GET", `/v2/pub/status/${run.body.id}`, undefined, { key: "key-two" });
    expect(other.status).toBe(404);
  });
});

describe("state transitions", () => {
  it("IN_QUEUE -> IN_PROGRESS -> COMPLETED with echo output, times and worker id", async () => {
    const run = await h.call("POST", `${E}/run`, { input: { delayMs: 20_000, hello: "world" } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ id: expect.any(String), status: "IN_QUEUE" });
    const id: string = run.body.id;
    const running = await waitStatus(id, "IN_PROGRESS");
    expect(running.workerId).toEqual(expect.any(String));
    const done = await waitStatus(id, "COMPLETED");
    expect(done.output).toEqual({ delayMs: 20_000, hello: "world" });
    expect(done.executionTime).toBeGreaterThanOrEqual(19_000);
    expect(done.delayTime).toBeGreaterThanOrEqual(0);
    expect(done.workerId).toBe(running.workerId);
    expect(done.error).toBeUndefined();
  });

  it("shows IN_QUEUE while no worker can take the job", async () => {
    const run = await h.call("POST", "/v2/stuck/run", { input: {} });
    const b = await status(run.body.id, "/v2/stuck");
    expect(b).toEqual({ id: run.body.id, status: "IN_QUEUE" });
  });

  it("FAILED carries the error; TIMED_OUT when the execution timeout passes", async () => {
    const failed = await h.call("POST", `${E}/runsync`, { input: { error: "boom", delayMs: 100 } });
    expect(failed.body).toMatchObject({ status: "FAILED", error: "boom" });
    expect(failed.body.output).toBeUndefined();
    const slow = await h.call("POST", `${E}/run`, { input: { delayMs: 600_000 }, policy: { executionTimeout: 5000 } });
    const timedOut = await waitStatus(slow.body.id, "TIMED_OUT");
    expect(timedOut.executionTime).toBeGreaterThanOrEqual(4900);
    expect(timedOut.executionTime).toBeLessThan(60_000);
    expect(timedOut.error).toMatch(/executionTimeout of 5000 ms/);
  });

  it("cancels a queued job (removed from the queue) and a running one (output discarded, worker freed)", async () => {
    const queued = await h.call("POST", "/v2/stuck/run", { input: {} });
    const before = (await h.call("GET", "/v2/stuck/health")).body.jobs.inQueue;
    const c1 = await h.call("POST", `/v2/stuck/cancel/${queued.body.id}`, undefined);
    expect(c1.body).toEqual({ id: queued.body.id, status: "CANCELLED" });
    expect((await h.call("GET", "/v2/stuck/health")).body.jobs.inQueue).toBe(before - 1);
    expect((await status(queued.body.id, "/v2/stuck")).status).toBe("CANCELLED");

    const run = await h.call("POST", `${E}/run`, { input: { delayMs: 50_000, progress: ["half"] } });
    await waitStatus(run.body.id, "IN_PROGRESS");
    const c2 = await h.call("POST", `${E}/cancel/${run.body.id}`, {});
    expect(c2.body).toEqual({ id: run.body.id, status: "CANCELLED" });
    await new Promise((r) => setTimeout(r, h.real(60_000)));
    const after = await status(run.body.id);
    expect(after.status).toBe("CANCELLED");
    expect(after.output).toBeUndefined();
    const health = (await h.call("GET", `${E}/health`)).body;
    expect(health.jobs.inProgress).toBe(0);
    expect(health.workers.running).toBe(0);
  });

  it("cancelling a finished job leaves it as it was", async () => {
    const done = await h.call("POST", `${E}/runsync`, { input: { output: 1 } });
    const c = await h.call("POST", `${E}/cancel/${done.body.id}`);
    expect(c.body).toEqual({ id: done.body.id, status: "COMPLETED" });
  });

  it("retries FAILED and TIMED_OUT jobs (same id, output and error cleared) and refuses others", async () => {
    const before = (await h.call("GET", `${E}/health`)).body.jobs.retried;
    const f = await h.call("POST", `${E}/runsync`, { input: { error: "flaky", delayMs: 20_000 } });
    expect(f.body.status).toBe("FAILED");
    const r = await h.call("POST", `${E}/retry/${f.body.id}`, {});
    expect(r.body).toEqual({ id: f.body.id, status: "IN_QUEUE" });
    const again = await status(f.body.id);
    expect(["IN_QUEUE", "IN_PROGRESS"]).toContain(again.status);
    expect(again.error).toBeUndefined();
    expect((await waitStatus(f.body.id, "FAILED")).error).toBe("flaky");

    const t = await h.call("POST", `${E}/run`, { input: { delayMs: 600_000 }, policy: { executionTimeout: 5000 } });
    await waitStatus(t.body.id, "TIMED_OUT");
    expect((await h.call("POST", `${E}/retry/${t.body.id}`)).body.status).toBe("IN_QUEUE");
    expect((await h.call("GET", `${E}/health`)).body.jobs.retried).toBe(before + 2);
    await h.call("POST", `${E}/cancel/${t.body.id}`);

    const ok = await h.call("POST", `${E}/runsync`, { input: {} });
    const refused = await h.call("POST", `${E}/retry/${ok.body.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/is COMPLETED; only FAILED or TIMED_OUT/);
    const q = await h.call("POST", "/v2/stuck/run", { input: {} });
    const refusedQ = await h.call("POST", `/v2/stuck/retry/${q.body.id}`);
    expect(refusedQ.status).toBe(400);
    expect(refusedQ.body.error).toMatch(/IN_QUEUE/);
  });
});

describe("runsync and status-sync", () => {
  it("returns the full record with a sync- id when the job finishes within wait", async () => {
    const r = await h.call("POST", `${E}/runsync?wait=5000`, { input: { output: { answer: 42 } } });
    expect(r.status).toBe(200);
    expect(r.body.id).toMatch(/^sync-/);
    expect(r.body).toMatchObject({ status: "COMPLETED", output: { answer: 42 }, workerId: expect.any(String) });
  });

  it("answers 200 with id and status when the wait passes first; status-sync then long-polls", async () => {
    const t0 = Date.now();
    const r = await h.call("POST", `${E}/runsync?wait=1000`, { input: { delayMs: 30_000, output: "late" } });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(h.real(1000) - 2);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["id", "status"]);
    expect(["IN_QUEUE", "IN_PROGRESS"]).toContain(r.body.status);
    const s = await h.call("GET", `${E}/status-sync/${r.body.id}?wait=300000`);
    expect(s.body).toMatchObject({ id: r.body.id, status: "COMPLETED", output: "late" });
    const viaPost = await h.call("POST", `${E}/status-sync/${r.body.id}?wait=1000`, {});
    expect(viaPost.body.status).toBe("COMPLETED");
  });

  it("refuses a wait outside 1000..300000 with the service's message", async () => {
    for (const w of ["999", "300001", "abc", "-5"]) {
      const r = await h.call("POST", `${E}/runsync?wait=${w}`, { input: {} });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "wait is invalid; must be between 1000 and 300000" });
    }
    const s = await h.call("GET", `${E}/status-sync/x?wait=10`);
    expect(s.status).toBe(400);
  });
});

describe("request validation", () => {
  const bad = async (body: unknown, re: RegExp, path = "run") => {
    const r = await h.call("POST", `${E}/${path}`, body);
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body.error).toMatch(re);
  };

  it("names the field and the value for out-of-range policies", async () => {
    await bad({ input: {}, policy: { ttl: 5000 } }, /policy\.ttl must be an integer between 10000 and 604800000.*got 5000/);
    await bad({ input: {}, policy: { ttl: 8 * 86_400_000 } }, /policy\.ttl.*got 691200000/);
    await bad({ input: {}, policy: { executionTimeout: 1000 } }, /policy\.executionTimeout.*between 5000 and 604800000.*got 1000/);
    await bad({ input: {}, policy: { executionTimeout: 1e12 } }, /policy\.executionTimeout/, "runsync");
    await bad({ input: {}, policy: { lowPriority: "yes" } }, /policy\.lowPriority must be true or false; got "yes"/);
    await bad({ input: {}, policy: { priority: 1 } }, /policy has unknown field "priority"/);
  });

  it("refuses unknown keys, a missing or non-object input, bad webhook, bad s3Config, bad JSON", async () => {
    await bad({ input: {}, extra: 1 }, /unknown field "extra"/);
    await bad({ webhook: "http://x" }, /input is required and must be a JSON object; got nothing/);
    await bad({ input: [1] }, /input is required and must be a JSON object; got \[1\]/);
    await bad({ input: {}, webhook: "ftp://example.com/hook" }, /webhook must be an http\(s\) URL; got "ftp:/);
    await bad({ input: {}, s3Config: { accessId: "a", accessSecret: "b", bucketName: "c" } }, /s3Config\.endpointUrl/);
    await bad([1, 2], /must be a JSON object/);
    const empty = await h.call("POST", `${E}/run`, undefined, { raw: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/"input"/);
    const json = await h.call("POST", `${E}/run`, undefined, { raw: "{nope" });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/not valid JSON/);
  });

  it("accepts a full request with webhook, policy and s3Config (handed to the handler)", async () => {
    const r = await h.call("POST", `${E}/runsync`, {
      input: { output: "fine" },
      policy: { executionTimeout: 5000, lowPriority: false, ttl: 10_000 },
      s3Config: { accessId: "a", accessSecret: "b", bucketName: "c", endpointUrl: "https://s3.example.com" },
    });
    expect(r.body).toMatchObject({ status: "COMPLETED", output: "fine" });
  });
});

describe("expiry", () => {
  it("deletes a job when its TTL passes, even while it runs (404)", async () => {
    const r = await h.call("POST", `${E}/run`, { input: { delayMs: 600_000 }, policy: { ttl: 10_000 } });
    await waitStatus(r.body.id, "IN_PROGRESS");
    const gone = await h.until(
      async () => {
        const s = await h.call("GET", `${E}/status/${r.body.id}`);
        return s.status === 404 ? s : undefined;
      },
      15_000,
      "TTL expiry",
    );
    expect(gone.body.error).toContain(r.body.id);
    const health = (await h.call("GET", `${E}/health`)).body;
    expect(health.jobs.inProgress).toBe(0);
  });

  it("?ttl on /status sets the TTL (validated)", async () => {
    const q = await h.call("POST", "/v2/stuck/run", { input: {} });
    const bad = await h.call("GET", `/v2/stuck/status/${q.body.id}?ttl=5`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/ttl must be an integer between 10000.*got "5"/);
    const set = await h.call("POST", `/v2/stuck/status/${q.body.id}?ttl=10000`);
    expect(set.body.status).toBe("IN_QUEUE");
    await new Promise((r) => setTimeout(r, h.real(12_000)));
    expect((await h.call("GET", `/v2/stuck/status/${q.body.id}`)).status).toBe(404);
  });

  it("drops a runsync result after its retention, after which it cannot be retried", async () => {
    // wait=1000 -> retention clamp(1000, 60 s, 5 min) = 60 s.
    const f = await h.call("POST", `${E}/runsync?wait=1000`, { input: { error: "nope" } });
    expect(f.body.id).toMatch(/^sync-/);
    const s = await h.call("GET", `${E}/status-sync/${f.body.id}?wait=5000`);
    expect(s.body.status).toBe("FAILED");
    // Retention lasts at least 2 s of real time (a 1 s poller must be able to read the result).
    await new Promise((r) => setTimeout(r, Math.max(h.real(62_000), 2_100)));
    const retry = await h.call("POST", `${E}/retry/${f.body.id}`);
    expect(retry.status).toBe(404);
    expect(retry.body.error).toMatch(/retention/);
  });
});

describe("purge, health, requests", () => {
  it("purge-queue removes only waiting jobs", async () => {
    const h2 = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "one", workersMin: 1, workersMax: 1 })] });
    try {
      await h2.until(async () => (await h2.call("GET", "/v2/one/health")).body.workers.idle === 1);
      const a = await h2.call("POST", "/v2/one/run", { input: { delayMs: 600_000 } });
      await h2.until(async () => (await h2.call("GET", `/v2/one/status/${a.body.id}`)).body.status === "IN_PROGRESS");
      const b = await h2.call("POST", "/v2/one/run", { input: {} });
      await h2.call("POST", "/v2/one/run", { input: {}, policy: { lowPriority: true } });
      const health = (await h2.call("GET", "/v2/one/health")).body;
      expect(health.jobs).toMatchObject({ inQueue: 2, inProgress: 1 });
      const p = await h2.call("POST", "/v2/one/purge-queue", undefined, { raw: "{}" });
      expect(p.body).toEqual({ removed: 2, status: "completed" });
      expect((await h2.call("GET", `/v2/one/status/${a.body.id}`)).body.status).toBe("IN_PROGRESS");
      expect((await h2.call("GET", `/v2/one/status/${b.body.id}`)).status).toBe(404);
      expect((await h2.call("GET", "/v2/one/health")).body.jobs).toMatchObject({ inQueue: 0, inProgress: 1 });
    } finally {
      await h2.close();
    }
  });

  it("health counts jobs by state and workers by status", async () => {
    const h3 = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "hc", workersMin: 1, workersMax: 1 })] });
    try {
      await h3.call("POST", "/v2/hc/runsync", { input: {} });
      await h3.call("POST", "/v2/hc/runsync", { input: {} });
      const f = await h3.call("POST", "/v2/hc/runsync", { input: { error: "x" } });
      await h3.call("POST", `/v2/hc/retry/${f.body.id}`);
      await h3.until(async () => (await h3.call("GET", `/v2/hc/status/${f.body.id}`)).body.status === "FAILED");
      await h3.call("POST", "/v2/hc/run", { input: { delayMs: 600_000 } });
      await h3.call("POST", "/v2/hc/run", { input: {} });
      const b = await h3.until(async () => {
        const x = (await h3.call("GET", "/v2/hc/health")).body;
        return x.jobs.inProgress === 1 ? x : undefined;
      });
      expect(b).toEqual({
        jobs: { completed: 2, failed: 1, inProgress: 1, inQueue: 1, retried: 1 },
        workers: { idle: 0, initializing: 0, ready: 1, running: 1, throttled: 0, unhealthy: 0 },
      });
    } finally {
      await h3.close();
    }
  });

  it("/requests lists this account's recent jobs, newest first", async () => {
    const a = await h.call("POST", `${E}/run`, { input: {} });
    const b = await h.call("POST", `${E}/runsync`, { input: {} });
    const r = await h.call("GET", `${E}/requests?limit=2`);
    expect(r.status).toBe(200);
    expect(r.body.requests).toHaveLength(2);
    expect(r.body.requests[0]).toMatchObject({ id: b.body.id, status: "COMPLETED", origin: "runsync", lowPriority: false });
    expect(r.body.requests[0].finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.body.requests[1]).toMatchObject({ id: a.body.id, origin: "run" });
    expect((await h.call("GET", `${E}/requests?limit=0`)).status).toBe(400);
  });
});
