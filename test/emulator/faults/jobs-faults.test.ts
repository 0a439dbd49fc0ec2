/**
 * Fault injection on the job API (`--faults SPEC`, `startEmulator({ faults })`, `setFaults`): job
 * routes are chosen by their operation id or `METHOD /v2/...` path, never by `*`, and answer an
 * injected status as the job API answers errors.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { KEY_A, api, createServerlessTemplate, startTestEmulator, waitFor } from "../../support/managementHelpers";
import type { Json } from "../../support/wireJson";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** An emulator with `faults` and one endpoint of account A (`lb`: a load-balancing one). */
async function start(
  faults: string,
  endpoint: { workersMax?: number; lb?: boolean } = {},
): Promise<{ emu: RunningEmulator; endpoint: string }> {
  const emu = await startTestEmulator({ faults });
  emulator = emu;
  const client = api(emu, KEY_A);
  const template = await createServerlessTemplate(client);
  const created = await client.post("/endpoints", {
    name: endpoint.lb ? "faulty -lb" : "faulty",
    templateId: template.id,
    gpuTypeIds: ["NVIDIA L4"],
    ...(endpoint.workersMax === undefined ? {} : { workersMax: endpoint.workersMax }),
  });
  expect(created.status).toBe(200);
  return { emu, endpoint: created.body.id as string };
}

/** One request to the job API: its answer, or the connection error's code when there was none. */
async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status?: number; headers?: Headers; json?: Json; error?: string }> {
  try {
    const res = await fetch(`${emu.serverlessUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY_A}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text === "" ? undefined : JSON.parse(text) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? String(error) };
  }
}

describe("faults on job API routes", () => {
  test("a status fault on a job route, by operation id: the job API's error body, with Retry-After; the job is not run", async () => {
    const { emu, endpoint } = await start("seed=1; runJob: 503=1@2s");
    const res = await call(emu, "POST", `/${endpoint}/run`, { input: { a: 1 } });
    expect(res.status).toBe(503);
    expect(res.headers?.get("content-type")).toBe("application/json");
    expect(res.headers?.get("retry-after")).toBe("2");
    expect(res.json).toEqual({ error: "injected fault: 503 Service Unavailable on runJob" });
    const requests = await call(emu, "GET", `/${endpoint}/requests`);
    expect(requests.json).toEqual({ requests: [] });
    expect(emu.faultStats()).toMatchObject({ seed: 1, requests: 1, injected: { "503": 1 }, byOperation: { runJob: { "503": 1 } } });
  });

  test("METHOD PATH selectors name job routes with /v2; an operation that answers GET and POST is chosen whole", async () => {
    const { emu, endpoint } = await start("seed=1; GET /v2/*/status/{job_id}: 429=1; POST /v2/{endpoint_id}/run: latency=1@50ms");
    const started = Date.now();
    const run = await call(emu, "POST", `/${endpoint}/run`, { input: { a: 1 } });
    expect(run.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    for (const method of ["GET", "POST"]) {
      const status = await call(emu, method, `/${endpoint}/status/${String(run.json.id)}`);
      expect(status.status).toBe(429);
      expect(status.headers?.get("retry-after")).toBe("1");
      expect(status.json).toEqual({ error: "injected fault: 429 Too Many Requests on getJobStatus" });
    }
    expect(emu.faultStats().byOperation).toEqual({ runJob: { latency: 1 }, getJobStatus: { "429": 2 } });
  });

  test("`*` leaves the job API alone: it covers /v1 and /api/v2 only", async () => {
    const { emu, endpoint } = await start("seed=1");
    emu.setFaults("seed=1; *: 500=1");
    expect((await api(emu, KEY_A).get("/pods")).status).toBe(500);
    expect((await call(emu, "GET", `/${endpoint}/health`)).status).toBe(200);
    expect(emu.faultStats().byOperation).toEqual({ ListPods: { "500": 1 } });
  });

  test("lost: the job is queued, the caller gets no answer; reset: the connection is cut before anything runs", async () => {
    // No worker may run: the job waits in the queue, where a purge that ran would remove it.
    const { emu, endpoint } = await start("seed=1; runJob: lost=1; purgeQueue: reset=1", { workersMax: 0 });
    const lost = await call(emu, "POST", `/${endpoint}/run`, { input: {} });
    expect(lost.status).toBeUndefined();
    expect(lost.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    const requests = await call(emu, "GET", `/${endpoint}/requests`);
    expect(requests.json.requests).toHaveLength(1);
    const reset = await call(emu, "POST", `/${endpoint}/purge-queue`, {});
    expect(reset.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect((await call(emu, "GET", `/${endpoint}/requests`)).json.requests).toHaveLength(1);
    expect(emu.faultStats().injected).toMatchObject({ lost: 1, reset: 1 });
  });

  test("late@D and lost@D hold a job route's answer: the job is queued at once, the answer comes (or the cut) D later", async () => {
    const { emu, endpoint } = await start("seed=1; runJob: late=1@400ms; POST /v2/{endpoint_id}/runsync: lost=1@300ms", { workersMax: 0 });
    const sent = performance.now();
    const late = call(emu, "POST", `/${endpoint}/run`, { input: { n: 1 } });
    // Queued before its answer leaves.
    await waitFor("the job to be queued", async () => {
      const requests = await call(emu, "GET", `/${endpoint}/requests`);
      return (requests.json?.requests as unknown[] | undefined)?.length === 1 ? true : undefined;
    });
    const answered = await late;
    expect(answered.status).toBe(200);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(350);
    const cutAt = performance.now();
    const lost = await call(emu, "POST", `/${endpoint}/runsync`, { input: { n: 2 } });
    expect(lost.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(performance.now() - cutAt).toBeGreaterThanOrEqual(250);
    expect((await call(emu, "GET", `/${endpoint}/requests`)).json?.requests).toHaveLength(2);
    expect(emu.faultStats().byOperation).toMatchObject({ runJob: { late: 1 }, runJobSync: { lost: 1 } });
  });

  test("a worker route is a route too; setFaults switches faults on job routes at run time and keeps the counts", async () => {
    const { emu, endpoint } = await start("seed=1; workerPing: 500=1");
    const ping = await call(emu, "GET", `/${endpoint}/ping/w1`);
    expect(ping.status).toBe(500);
    expect(ping.json).toEqual({ error: "injected fault: 500 Internal Server Error on workerPing" });
    emu.setFaults("seed=2; workerPing: 503=1");
    expect((await call(emu, "GET", `/${endpoint}/ping/w1`)).status).toBe(503);
    emu.setFaults(undefined);
    expect((await call(emu, "GET", `/${endpoint}/ping/w1`)).status).toBe(200);
    expect(emu.faultStats().byOperation).toEqual({ workerPing: { "500": 1, "503": 1 } });
  });

  test("the load-balancing proxy is a route too: the fault answers before any worker is asked", async () => {
    const { emu, endpoint } = await start("seed=1; proxyToWorker: 502=1", { lb: true });
    const res = await call(emu, "DELETE", `/${endpoint}/any/path?x=1`);
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ error: "injected fault: 502 Bad Gateway on proxyToWorker" });
    // The queue operations are not the proxy's: a load-balancing endpoint has none (404 as ever).
    expect((await call(emu, "POST", `/${endpoint}/run`, { input: {} })).status).toBe(404);
  });

  test("a selector that names no job route fails at startup, naming it", async () => {
    await expect(startTestEmulator({ faults: "POST /v2/*/nope: 500=1" })).rejects.toThrow(
      /selector "POST \/v2\/\*\/nope" matches no operation/,
    );
    await expect(startTestEmulator({ faults: "getJobStatuz: 500=1" })).rejects.toThrow(/selector "getJobStatuz" matches no operation/);
  });
});
