// The worker pull protocol over real HTTP, request by request, as a real worker sends it: long-poll
// job-take then 204, batch take, job-done bodies (any content type), job-stream, ping, job-stop,
// bare keys, ids cut at the first '&', and the switch between external and simulated workers.
import { afterEach, describe, expect, it } from "vitest";
import { KEY, spec, startHarness, type Harness } from "../../../support/jobsHarness";
import type { Json } from "../../../support/wireJson";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A worker's request: bare key, JSON labelled as a form, as the service's SDK sends it. */
async function worker(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${(h as Harness).url}/v2${path}`, {
    method,
    headers: { authorization: KEY, "content-type": "application/x-www-form-urlencoded" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

const EXT = "ext/worker:1";

async function external(): Promise<Harness> {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [spec({ id: "ep1", imageName: EXT }), spec({ id: "sim", imageName: "example/echo:1.0" })],
    options: { externalImages: ["ext/worker"], workerPollWaitMs: 30_000 },
  });
  return h;
}

describe("job-take", () => {
  it("holds while the queue is empty, then answers 204 (never 404)", async () => {
    await external();
    const t0 = Date.now();
    const r = await worker("GET", "/ep1/job-take/w1?gpu=A40&job_in_progress=0");
    expect(r.status).toBe(204);
    // 30 s service at 0.01 = 300 ms real.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it("a parked take gets a job submitted later; ids end at the first '&'", async () => {
    const hh = await external();
    const parked = worker("GET", "/ep1/job-take/w1&job_in_progress=0");
    await new Promise((r) => setTimeout(r, 50));
    const sub = await hh.call("POST", "/v2/ep1/run", { input: { a: 1 } });
    const taken = await parked;
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ id: sub.body.id, input: { a: 1 } });
    const st = await hh.call("GET", `/v2/ep1/status/${sub.body.id}`);
    expect(st.body).toMatchObject({ status: "IN_PROGRESS", workerId: "w1" });
  });

  it("batch take hands out up to batch_size jobs as a list", async () => {
    const hh = await external();
    for (let i = 0; i < 3; i++) await hh.call("POST", "/v2/ep1/run", { input: { i } });
    const r = await worker("GET", "/ep1/job-take-batch/w1?gpu=A40&batch_size=2&job_in_progress=0");
    expect(r.status).toBe(200);
    expect(r.body.map((j: { input: { i: number } }) => j.input.i)).toEqual([0, 1]);
    const bad = await worker("GET", "/ep1/job-take-batch/w1?batch_size=zero");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/batch_size must be a whole number.*"zero"/);
  });

  it("accepts a Bearer key too, refuses a wrong key with 401", async () => {
    const hh = await external();
    await hh.call("POST", "/v2/ep1/run", { input: {} });
    const bearer = await hh.call("GET", "/v2/ep1/job-take/w1");
    expect(bearer.status).toBe(200);
    const wrong = await hh.call("GET", "/v2/ep1/job-take/w1", undefined, { auth: "nope" });
    expect(wrong.status).toBe(401);
  });
});

describe("job-done and job-stream", () => {
  it("output, progress, error, stream: each post moves the job as the service does", async () => {
    const hh = await external();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await hh.call("POST", "/v2/ep1/run", { input: { i } })).body.id);
    const [a, b, c] = ids as [string, string, string];
    const taken = await worker("GET", "/ep1/job-take-batch/w1?batch_size=3");
    expect(taken.body).toHaveLength(3);

    expect(
      (await worker("POST", `/ep1/job-done/w1/${a}?gpu=x&isStream=false`, { status: "IN_PROGRESS", output: { pct: 50 } })).status,
    ).toBe(200);
    expect((await hh.call("GET", `/v2/ep1/status/${a}`)).body).toMatchObject({ status: "IN_PROGRESS", output: { pct: 50 } });
    await worker("POST", `/ep1/job-done/w1/${a}&isStream=false`, { output: { done: true } });
    expect((await hh.call("GET", `/v2/ep1/status/${a}`)).body).toMatchObject({
      status: "COMPLETED",
      output: { done: true },
      workerId: "w1",
    });

    await worker("POST", `/ep1/job-done/w1/${b}?isStream=false`, { error: '{"error_type": "ValueError", "error_message": "bad"}' });
    expect((await hh.call("GET", `/v2/ep1/status/${b}`)).body).toMatchObject({ status: "FAILED", error: expect.stringContaining("bad") });

    for (const chunk of ["x", "y", "z"]) await worker("POST", `/ep1/job-stream/w1/${c}?isStream=false`, { output: chunk });
    expect((await hh.call("GET", `/v2/ep1/stream/${c}`)).body.stream).toEqual([{ output: "x" }, { output: "y" }, { output: "z" }]);
    await worker("POST", `/ep1/job-done/w1/${c}?isStream=true`, { output: [] });
    // The stream ended with []: the job's output is the chunks it streamed.
    expect((await hh.call("GET", `/v2/ep1/status/${c}`)).body).toMatchObject({ status: "COMPLETED", output: ["x", "y", "z"] });

    // A post for a job the worker does not hold is answered 200 and changes nothing.
    expect((await worker("POST", `/ep1/job-done/w1/${a}?isStream=false`, { output: "late" })).status).toBe(200);
    expect((await worker("POST", "/ep1/job-done/w1/nope?isStream=false", { output: 1 })).status).toBe(200);
    expect((await hh.call("GET", `/v2/ep1/status/${a}`)).body.output).toEqual({ done: true });
  });

  it("a body that is not JSON is a 400 naming the problem", async () => {
    await external();
    const res = await fetch(`${(h as Harness).url}/v2/ep1/job-done/w1/j1`, {
      method: "POST",
      headers: { authorization: KEY },
      body: "output=1",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/not valid JSON/);
  });
});

describe("job-stop", () => {
  it("a cancelled running job is CANCELLED at once and reaches its worker; late results are ignored", async () => {
    const hh = await external();
    const id = (await hh.call("POST", "/v2/ep1/run", { input: {} })).body.id;
    await worker("GET", "/ep1/job-take/w1");
    const stop = worker("GET", "/ep1/job-stop/w1?gpu=A40");
    const cancel = await hh.call("POST", `/v2/ep1/cancel/${id}`);
    expect(cancel.body).toEqual({ id, status: "CANCELLED" });
    expect(await stop).toEqual({ status: 200, body: { jobsToStop: [id] } });
    await worker("POST", `/ep1/job-done/w1/${id}?isStream=false`, { output: "too late" });
    expect((await hh.call("GET", `/v2/ep1/status/${id}`)).body).toMatchObject({ status: "CANCELLED" });
    expect((await hh.call("GET", `/v2/ep1/status/${id}`)).body.output).toBeUndefined();
  });

  it("an execution timeout gives TIMED_OUT and is handed out on the next job-stop", async () => {
    const hh = await external();
    const id = (await hh.call("POST", "/v2/ep1/run", { input: {}, policy: { executionTimeout: 5000 } })).body.id;
    await worker("GET", "/ep1/job-take/w1");
    await hh.until(async () => (await hh.call("GET", `/v2/ep1/status/${id}`)).body.status === "TIMED_OUT", 15_000, "TIMED_OUT");
    expect(await worker("GET", "/ep1/job-stop/w1")).toEqual({ status: 200, body: { jobsToStop: [id] } });
    expect((await worker("GET", "/ep1/job-stop/w1")).status).toBe(204);
  });
});

describe("job semantics through an external worker", () => {
  it("a job whose TTL passes while a worker holds it is deleted and handed to job-stop", async () => {
    const hh = await external();
    const id = (await hh.call("POST", "/v2/ep1/run", { input: {}, policy: { ttl: 10_000 } })).body.id;
    expect((await worker("GET", "/ep1/job-take/w1")).body.id).toBe(id);
    // 10 s of service time = 100 ms real.
    expect(await worker("GET", "/ep1/job-stop/w1")).toEqual({ status: 200, body: { jobsToStop: [id] } });
    expect((await hh.call("GET", `/v2/ep1/status/${id}`)).status).toBe(404);
    expect((await hh.call("GET", "/v2/ep1/health")).body.jobs.inProgress).toBe(0);
  });

  it("a job a worker failed can be retried, and is taken again", async () => {
    const hh = await external();
    const id = (await hh.call("POST", "/v2/ep1/run", { input: { try: 1 } })).body.id;
    await worker("GET", "/ep1/job-take/w1");
    await worker("POST", `/ep1/job-done/w1/${id}`, { error: "flaky" });
    expect((await hh.call("POST", `/v2/ep1/retry/${id}`)).body).toEqual({ id, status: "IN_QUEUE" });
    expect((await worker("GET", "/ep1/job-take/w2")).body).toEqual({ id, input: { try: 1 } });
    await worker("POST", `/ep1/job-done/w2/${id}`, { output: "ok" });
    expect((await hh.call("GET", `/v2/ep1/status/${id}`)).body).toMatchObject({ status: "COMPLETED", output: "ok", workerId: "w2" });
    expect((await hh.call("GET", "/v2/ep1/health")).body.jobs).toMatchObject({ completed: 1, failed: 0, retried: 1 });
  });
});

describe("external workers and the endpoint", () => {
  it("/health and includeWorkers count external workers (idle, running)", async () => {
    const hh = await external();
    await worker("GET", "/ep1/ping/w1?gpu=A40");
    await worker("GET", "/ep1/ping/w2&job_id=");
    await hh.call("POST", "/v2/ep1/run", { input: {} });
    await worker("GET", "/ep1/job-take/w1");
    const health = (await hh.call("GET", "/v2/ep1/health")).body;
    expect(health.workers).toMatchObject({ idle: 1, running: 1, ready: 2 });
    expect(health.jobs).toMatchObject({ inProgress: 1, inQueue: 0 });
    expect(
      hh.svc
        .workers("ep1")
        .map((w) => [w.id, w.status])
        .sort(),
    ).toEqual([
      ["w1", "running"],
      ["w2", "idle"],
    ]);
  });

  it("a declared image keeps jobs queued for the first worker; simulated workers never run them", async () => {
    const hh = await external();
    const id = (await hh.call("POST", "/v2/ep1/run", { input: {} })).body.id;
    await new Promise((r) => setTimeout(r, 200)); // 20 s of service time: a simulated worker would have run it
    expect((await hh.call("GET", `/v2/ep1/status/${id}`)).body.status).toBe("IN_QUEUE");
    expect(hh.svc.workers("ep1")).toEqual([]);
  });

  it("an endpoint that is not declared switches to external on the first take and back after the window", async () => {
    h = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "sim", workersMin: 1 })], options: { workerPresenceMs: 1000 } });
    const hh = h;
    await hh.until(() => hh.svc.workers("sim").some((w) => w.status === "idle"), 15_000, "simulated worker up");
    const take = worker("GET", "/sim/job-take/w1");
    await hh.until(() => hh.svc.workers("sim").every((w) => w.id === "w1"), 15_000, "simulated worker stopped");
    const id = (await hh.call("POST", "/v2/sim/run", { input: { a: 1 } })).body.id;
    expect((await take).body.id).toBe(id);
    await worker("POST", `/sim/job-done/w1/${id}`, { output: "from w1" });
    expect((await hh.call("GET", `/v2/sim/status/${id}`)).body).toMatchObject({ status: "COMPLETED", output: "from w1", workerId: "w1" });
    // The window (at least 5 s real) passes without a request: simulated workers serve again.
    const next = (await hh.call("POST", "/v2/sim/run", { input: { b: 2 } })).body.id;
    const done = await hh.until(
      async () => {
        const s = (await hh.call("GET", `/v2/sim/status/${next}`)).body;
        return s.status === "COMPLETED" ? s : undefined;
      },
      15_000,
      "simulated worker takes over",
    );
    expect(done.workerId).not.toBe("w1");
  }, 15_000);
});
