// The requests of the service's own worker SDK and job client, replayed byte for byte as they were
// recorded against the emulator (method, path, query, headers, body): a worker session from take to
// stop, the stop the SDK drops when it arrives before the job has started, and the job client's
// calls. No SDK is needed to run these tests.
import { afterEach, describe, expect, it } from "vitest";
import { createClock } from "../../../../emulator/clock";
import { STREAM_HOLD_REAL_MAX_MS, streamHoldMs } from "../../../../emulator/serverless/external/timing";
import { KEY, spec, startHarness, type Harness } from "../../../support/jobsHarness";
import type { Json } from "../../../support/wireJson";

/** A neutral environment prefix: the SDK names its ping's version parameter after the service. */
const PREFIX = "SVC";
const VERSION_PARAM = `${PREFIX.toLowerCase()}_version=1.12.0`;
const GPU = "gpu=NVIDIA%20L4";

/** job-take and job-stop, from the SDK's aiohttp session: bare key, JSON label, no body. */
const SDK_SESSION = {
  "content-type": "application/json",
  authorization: KEY,
  "user-agent": "Worker-Python-SDK/1.12.0 (Linux 6.18.44; x86_64) Language/Python 3.11.7",
  "accept-encoding": "gzip, deflate",
  accept: "*/*",
};
/** job-done and job-stream: the same session, a JSON body labelled as a form, the last job's id. */
const sdkPost = (jobId: string): Record<string, string> => ({
  ...SDK_SESSION,
  "content-type": "application/x-www-form-urlencoded",
  charset: "utf-8",
  "x-request-id": jobId,
});
/** The heartbeat, sent from a separate process with its own HTTP client. */
const PING = {
  "user-agent": "python-requests/2.34.2",
  "accept-encoding": "gzip, deflate, br, zstd",
  accept: "*/*",
  authorization: KEY,
};
/** The job client (synchronous flavour): Bearer key, a JSON label on every request, bodies or none. */
const CLIENT = { ...PING, "content-type": "application/json", authorization: `Bearer ${KEY}` };
/** The job client's asyncio flavour. */
const ASYNC_CLIENT = {
  "content-type": "application/json",
  authorization: `Bearer ${KEY}`,
  accept: "*/*",
  "accept-encoding": "gzip, deflate, br, zstd",
  "user-agent": "Python/3.11 aiohttp/3.14.5",
};

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  json: Json;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<Harness> {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [spec({ id: "ep1", imageName: "ext/worker:1" })],
    options: { externalImages: ["ext/worker"], workerPollWaitMs: 30_000, workerEnvPrefix: PREFIX },
  });
  return h;
}

async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await fetch(`${(h as Harness).url}/v2/ep1${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get("content-type"), text, json: text === "" ? undefined : JSON.parse(text) };
}

const take = (w: string, inProgress: 0 | 1): Promise<Answer> =>
  send("GET", `/job-take/${w}?${GPU}&job_in_progress=${inProgress}`, SDK_SESSION);
const stop = (w: string): Promise<Answer> => send("GET", `/job-stop/${w}?${GPU}`, SDK_SESSION);
const ping = (w: string, jobIds: string[]): Promise<Answer> =>
  send("GET", `/ping/${w}?${GPU}${jobIds.length > 0 ? `&job_id=${jobIds.join(",")}` : ""}&${VERSION_PARAM}`, PING);
const done = (w: string, jobId: string, body: unknown, isStream = false): Promise<Answer> =>
  send("POST", `/job-done/${w}/${jobId}?${GPU}&isStream=${isStream}`, sdkPost(jobId), JSON.stringify(body));
const submit = async (input: unknown): Promise<string> => (await send("POST", "/run", CLIENT, JSON.stringify({ input }))).json.id as string;
const status = async (id: string): Promise<Json> => (await send("GET", `/status/${id}`, CLIENT)).json;
const workers = async (): Promise<Record<string, number>> => (await send("GET", "/health", CLIENT)).json.workers;

describe("a worker session as the service's worker SDK sends it", () => {
  it("take, progress, result, failure, stream: every answer is one the SDK accepts", async () => {
    await start();
    // Nothing queued: the take is held, then 204 with no body (the SDK asks again at once).
    const idle = await take("w1", 0);
    expect(idle).toMatchObject({ status: 204, text: "" });

    const a = await submit({ a: 1 });
    const got = await take("w1", 0);
    // The SDK reads a job only from a 200 labelled application/json carrying id and input.
    expect(got.status).toBe(200);
    expect(got.contentType).toMatch(/^application\/json/);
    expect(got.json).toEqual({ id: a, input: { a: 1 } });

    expect((await done("w1", a, { status: "IN_PROGRESS", output: { pct: 50 } })).status).toBe(200);
    expect(await status(a)).toMatchObject({ status: "IN_PROGRESS", output: { pct: 50 } });
    expect((await ping("w1", [a])).status).toBe(200);
    expect(await workers()).toMatchObject({ running: 1, idle: 0 });
    expect((await done("w1", a, { output: { echo: { a: 1 }, keys: ["id", "input"] } })).status).toBe(200);
    expect(await status(a)).toMatchObject({ status: "COMPLETED", output: { echo: { a: 1 } }, workerId: "w1" });

    const b = await submit({ mode: "fail" });
    await take("w1", 0);
    const raised = JSON.stringify({
      error_type: "<class 'ValueError'>",
      error_message: "boom from handler",
      error_traceback: "Traceback ...",
      hostname: "unknown",
      worker_id: "w1",
    });
    await done("w1", b, { error: raised });
    expect(await status(b)).toMatchObject({ status: "FAILED", error: raised });

    const c = await submit({ x: 1 });
    await take("w1", 0);
    for (const chunk of ["a", "b", "c"]) {
      const r = await send("POST", `/job-stream/w1/${c}?${GPU}&isStream=false`, sdkPost(c), JSON.stringify({ output: { chunk } }));
      expect(r.status).toBe(200);
    }
    await done("w1", c, { output: [] }, true);
    const streamed = await send("GET", `/stream/${c}`, CLIENT);
    expect(streamed.json).toEqual({ status: "COMPLETED", stream: ["a", "b", "c"].map((chunk) => ({ output: { chunk } })) });
    expect((await ping("w1", [])).status).toBe(200);
    expect(await workers()).toMatchObject({ running: 0, idle: 1 });
  });

  it("a cancel reaches the worker through job-stop as JSON; no job-done is needed", async () => {
    await start();
    const id = await submit({ mode: "sleep" });
    await take("w1", 0);
    const parked = stop("w1");
    await new Promise((r) => setTimeout(r, 30));
    expect((await send("POST", `/cancel/${id}`, CLIENT)).json).toEqual({ id, status: "CANCELLED" });
    const told = await parked;
    expect(told.status).toBe(200);
    expect(told.contentType).toMatch(/^application\/json/);
    expect(told.json).toEqual({ jobsToStop: [id] });
    // The SDK stopped the job: its next ping no longer lists it, and the next job-stop holds, then 204.
    await ping("w1", []);
    expect(await stop("w1")).toMatchObject({ status: 204, text: "" });
    expect(await status(id)).toMatchObject({ status: "CANCELLED" });
  });

  it("a stop the SDK dropped (it came before the job had started) is sent again while pings list the job", async () => {
    await start();
    const id = await submit({ mode: "sleep" });
    await take("w1", 0);
    await send("POST", `/cancel/${id}`, CLIENT);
    expect((await stop("w1")).json).toEqual({ jobsToStop: [id] });
    // The worker's heartbeat still reports the job: it is still running there, so it is told again.
    await ping("w1", [id]);
    expect(await workers()).toMatchObject({ running: 1, idle: 0 });
    const again = await stop("w1");
    expect(again.json).toEqual({ jobsToStop: [id] });
    // Once a ping leaves it out, it is not sent again and the worker is idle.
    await ping("w1", []);
    expect(await workers()).toMatchObject({ running: 0, idle: 1 });
    expect((await stop("w1")).status).toBe(204);
  });

  it("a take with job_in_progress=0 says the stopped job is over", async () => {
    await start();
    const id = await submit({});
    await take("w1", 0);
    await send("POST", `/cancel/${id}`, CLIENT);
    await stop("w1");
    await ping("w1", [id]);
    expect(await workers()).toMatchObject({ running: 1 });
    expect((await take("w1", 0)).status).toBe(204);
    expect(await workers()).toMatchObject({ running: 0, idle: 1 });
  });
});

describe("the service's job client", () => {
  it("run, status, stream, cancel, purge-queue and health, with and without bodies, answer 200 JSON", async () => {
    await start();
    const run = await send("POST", "/run", CLIENT, JSON.stringify({ input: { a: 1 } }));
    expect(run).toMatchObject({ status: 200, json: { status: "IN_QUEUE" } });
    const id = run.json.id as string;
    for (const headers of [CLIENT, ASYNC_CLIENT]) {
      const st = await send("GET", `/status/${id}`, { ...headers, "x-request-id": id });
      expect(st).toMatchObject({ status: 200, json: { id, status: "IN_QUEUE" } });
      expect(st.contentType).toMatch(/^application\/json/);
    }
    // The synchronous client's cancel has no body at all; the asyncio one sends Content-Length: 0.
    const cancelled = await send("POST", `/cancel/${id}`, CLIENT);
    expect(cancelled).toMatchObject({ status: 200, json: { id, status: "CANCELLED" } });
    expect(await send("POST", `/cancel/${id}`, ASYNC_CLIENT, "")).toMatchObject({ status: 200, json: { id, status: "CANCELLED" } });
    expect(await send("GET", `/stream/${id}`, CLIENT)).toMatchObject({ status: 200, json: { status: "CANCELLED", stream: [] } });
    for (const headers of [CLIENT, ASYNC_CLIENT]) {
      expect(await send("POST", "/purge-queue", headers, headers === ASYNC_CLIENT ? "" : undefined)).toMatchObject({
        status: 200,
        json: { removed: 0, status: "completed" },
      });
      expect((await send("GET", "/health", headers)).json).toHaveProperty("workers");
    }
  });

  it("an empty /stream is held under the client's 10 s read timeout at any time scale", () => {
    expect(STREAM_HOLD_REAL_MAX_MS).toBeLessThan(10_000);
    // Real 1: the 10 s default is cut to 8 s. Faster than real: the service-time wait is kept.
    expect(streamHoldMs(createClock(1), 10_000)).toBe(STREAM_HOLD_REAL_MAX_MS);
    expect(streamHoldMs(createClock(0.01), 10_000)).toBe(10_000);
    // Slower than real (x10): 800 service ms are 8 s real.
    expect(createClock(10).scaled(streamHoldMs(createClock(10), 10_000))).toBe(STREAM_HOLD_REAL_MAX_MS);
  });

  it("a /stream held for a chunk that does not come answers within the real-time bound", async () => {
    h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "ep1", imageName: "ext/worker:1" })],
      // 10,000 min of service time would be 100 min real without the bound.
      options: { externalImages: ["ext/worker"], streamWaitMs: 600_000_000 },
    });
    const id = await submit({});
    const t0 = Date.now();
    const r = await send("GET", `/stream/${id}`, CLIENT);
    expect(r.json).toEqual({ status: "IN_QUEUE", stream: [] });
    const held = Date.now() - t0;
    expect(held).toBeGreaterThanOrEqual(STREAM_HOLD_REAL_MAX_MS - 100);
    // Far below the 100 min the unbounded hold would take, with room for a loaded machine.
    expect(held).toBeLessThan(60_000);
  }, 90_000);
});
