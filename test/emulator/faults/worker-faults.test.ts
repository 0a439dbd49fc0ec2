/**
 * Worker faults (emulator/faults/workerFaults.ts): `worker IMAGE: fail=P[@AFTER], crash=P[@AFTER],
 * slow=P@D` in a fault SPEC make the jobs of one endpoint release fail, crash their worker or take
 * longer, so that what watches an endpoint's `/health` and `/requests` sees a degraded version.
 */
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { type FaultSetting, FaultSpecError, formatFaultSpec, parseFaultSpec, toFaultPlan } from "../../../emulator/faults";
import { type Api, KEY_A, api, startTestEmulator, waitFor } from "../../support/managementHelpers";
import type { Json } from "../../support/wireJson";

const GOOD = "example/echo-worker:1.0";
const BAD = "example/echo-worker:2.0-bad";

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emu) => emu.close()));
});

async function start(faults: string): Promise<RunningEmulator> {
  const emu = await startTestEmulator({ faults });
  emulators.push(emu);
  return emu;
}

async function template(client: Api, imageName: string): Promise<string> {
  const res = await client.post("/templates", { name: `tpl-${Math.random().toString(36).slice(2)}`, imageName, isServerless: true });
  if (res.status !== 200) throw new Error(`template create failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A queue-based (or, `lb`, load-balancing) endpoint of account A on a template of `imageName`. */
async function endpoint(
  emu: RunningEmulator,
  imageName: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; client: Api }> {
  const client = api(emu, KEY_A);
  const created = await client.post("/endpoints", {
    name: `ep-${Math.random().toString(36).slice(2)}`,
    templateId: await template(client, imageName),
    gpuTypeIds: ["NVIDIA L4"],
    workersMax: 1,
    // Long enough that the one worker never idles out during a test (worker age matters for @D).
    idleTimeout: 3600,
    ...extra,
  });
  if (created.status !== 200) throw new Error(`endpoint create failed: ${created.status} ${created.text}`);
  return { id: created.body.id as string, client };
}

/** A new release of the endpoint on a template of `imageName` (v1 PATCH templateId). */
async function release(client: Api, id: string, imageName: string): Promise<void> {
  const res = await client.patch(`/endpoints/${id}`, { templateId: await template(client, imageName) });
  expect(res.status, res.text).toBe(200);
}

async function jobApi(emu: RunningEmulator, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${emu.serverlessUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY_A}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : JSON.parse(text) };
}

/** Runs `n` jobs one after the other with /runsync; their final records, in order. */
async function runInTurn(emu: RunningEmulator, id: string, n: number, input: Record<string, unknown> = {}): Promise<Json[]> {
  const out: Json[] = [];
  for (let i = 0; i < n; i++) {
    const res = await jobApi(emu, "POST", `/${id}/runsync`, { input: { i, ...input } });
    expect(res.status).toBe(200);
    out.push(res.json);
  }
  return out;
}

describe("the SPEC of worker faults", () => {
  test("parses worker and worker IMAGE clauses with @DURATION and @Njobs, and writes them back", () => {
    const plan = parseFaultSpec(`seed=4; worker ${BAD}: fail=0.3@20jobs, slow=0.5@2s; worker: crash=0.1@30s`);
    expect(plan.rules).toEqual([
      {
        selector: `worker ${BAD}`,
        faults: [
          { kind: "fail", probability: 0.3, afterJobs: 20 },
          { kind: "slow", probability: 0.5, durationMs: 2000 },
        ],
      },
      { selector: "worker", faults: [{ kind: "crash", probability: 0.1, durationMs: 30_000 }] },
    ]);
    expect(formatFaultSpec(plan)).toBe(`seed=4; worker ${BAD}: fail=0.3@20jobs,slow=0.5@2s; worker: crash=0.1@30s`);
    expect(parseFaultSpec(formatFaultSpec(plan))).toEqual(plan);
  });

  test.each([
    ["*: fail=0.1", /fail is a worker fault; give it to the selector worker \(every serverless worker\) or worker IMAGE/],
    ["runJob: slow=1@1s", /slow is a worker fault/],
    ["worker: error=1", /error is a pod fault; give it to the selector pod/],
    ["worker x: 500=0.1", /a worker selector takes only fail, crash, slow, not 500/],
    ["pod: fail=0.1", /fail is a worker fault/],
    ["worker: slow=0.5", /slow needs @DURATION \(how much longer a job takes, service time\)/],
    ["worker: slow=0.5@3jobs", /only fail and crash take @Njobs, not slow/],
    [
      "worker: fail=0.7, crash=0.5",
      /"worker": the probabilities of fail=0.7, crash=0.5 add up to 1.200; a job ends in at most one of them/,
    ],
    ["worker: fail=1.5", /probability of fail must be a number from 0 to 1/],
    ["worker: fail=1@2jobs, fail=0.1", /names fail twice/],
  ])("refuses %j", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test("a plan object is held to the same rules", () => {
    const plan = (faults: FaultSetting[]) => ({ seed: 0, rules: [{ selector: "worker", faults }] });
    expect(() => toFaultPlan(plan([{ kind: "fail", probability: 0.5, afterJobs: 2, durationMs: 1000 }]))).toThrow(
      /fail takes @DURATION or @Njobs, not both/,
    );
    expect(() => toFaultPlan(plan([{ kind: "slow", probability: 0.5 }]))).toThrow(/slow needs @DURATION/);
    expect(() => toFaultPlan(plan([{ kind: "fail", probability: 0.5, afterJobs: 1.5 }]))).toThrow(FaultSpecError);
    expect(toFaultPlan(plan([{ kind: "fail", probability: 0.5, afterJobs: 2 }])).rules).toHaveLength(1);
  });

  test("a bad SPEC fails the emulator's startup, naming the clause", async () => {
    await expect(startEmulator({ port: 0, faults: `worker ${BAD}: slow=0.2` })).rejects.toThrow(
      new RegExp(`"worker ${BAD.replace(/[.:]/g, "\\$&")}": slow needs @DURATION`),
    );
  });
});

describe("jobs of a degraded version", () => {
  test("fail=P: about P of N jobs FAIL with an injected error; /health, /requests and faultStats() agree", async () => {
    const emu = await start(`seed=7; worker ${BAD}: fail=0.3`);
    const { id } = await endpoint(emu, BAD, { workersMax: 3 });
    const n = 100;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await jobApi(emu, "POST", `/${id}/run`, { input: { i } })).json.id as string);
    const health = await waitFor("every job finished", async () => {
      const h = (await jobApi(emu, "GET", `/${id}/health`)).json;
      return h.jobs.completed + h.jobs.failed === n ? h : undefined;
    });
    const failed = health.jobs.failed as number;
    // 30 expected; the seed makes it exact, the bounds say what is asserted.
    expect(failed).toBeGreaterThanOrEqual(18);
    expect(failed).toBeLessThanOrEqual(42);
    expect(emu.faultStats().injected.fail).toBe(failed);
    expect(emu.faultStats().byOperation[`worker ${BAD}`]).toEqual({ fail: failed });
    const requests = (await jobApi(emu, "GET", `/${id}/requests?limit=100`)).json.requests as { id: string; status: string }[];
    expect(requests).toHaveLength(n);
    expect(requests.filter((r) => r.status === "FAILED")).toHaveLength(failed);
    const one = requests.find((r) => r.status === "FAILED");
    const status = (await jobApi(emu, "GET", `/${id}/status/${one?.id}`)).json;
    expect(status).toMatchObject({ status: "FAILED" });
    expect(status.error).toBe(`injected fault: worker ${BAD}: fail=0.3; the handler's result was discarded`);
  });

  test("fail=1@Njobs: the release is fine for its first N jobs and fails every one after", async () => {
    const emu = await start(`worker ${BAD}: fail=1@5jobs`);
    const { id } = await endpoint(emu, BAD);
    const records = await runInTurn(emu, id, 8);
    expect(records.map((r) => r.status)).toEqual([...Array(5).fill("COMPLETED"), ...Array(3).fill("FAILED")]);
    expect(records[5]?.error).toMatch(/injected fault: worker .*: fail=1 after 5 jobs of this release/);
    expect((await jobApi(emu, "GET", `/${id}/health`)).json.jobs).toMatchObject({ completed: 5, failed: 3 });
  });

  test("fail=1@D: jobs complete until the worker is D (service time) old, then fail", async () => {
    // 200 s of service time is 2 real seconds at the tests' time scale.
    const emu = await start(`worker ${BAD}: fail=1@200s`);
    const { id } = await endpoint(emu, BAD, { workersMin: 1 });
    const [early] = await runInTurn(emu, id, 1);
    expect(early?.status).toBe("COMPLETED");
    const workerId = early?.workerId as string;
    // The worker was created before its first job ended: once 200 s have passed since, it is older.
    const firstDone = emu.clock.now();
    await waitFor("200 s of service time", async () => (emu.clock.now() - firstDone > 201_000 ? true : undefined));
    const [late] = await runInTurn(emu, id, 1);
    expect(late).toMatchObject({ status: "FAILED", workerId });
    expect(late?.error).toMatch(/fail=1 from 200000 ms after the worker started/);
  });

  test("slow=P@D: slowed jobs' executionTime grows by D (service time); the others keep theirs", async () => {
    const emu = await start(`seed=3; worker ${BAD}: slow=0.5@30s`);
    const { id } = await endpoint(emu, BAD, { workersMax: 4 });
    // /run: results are kept 30 service minutes, so every record is still there once the last job ends.
    for (let i = 0; i < 12; i++) expect((await jobApi(emu, "POST", `/${id}/run`, { input: { i, delayMs: 1000 } })).status).toBe(200);
    await waitFor("every job completed", async () =>
      (await jobApi(emu, "GET", `/${id}/health`)).json.jobs.completed === 12 ? true : undefined,
    );
    const records = (await jobApi(emu, "GET", `/${id}/requests?limit=100`)).json.requests as { status: string; executionTime: number }[];
    expect(records).toHaveLength(12);
    const slowed = records.filter((r) => r.executionTime >= 31_000);
    const plain = records.filter((r) => r.executionTime < 31_000);
    expect(slowed.length).toBe(emu.faultStats().injected.slow);
    expect(slowed.length).toBeGreaterThan(0);
    expect(plain.length).toBeGreaterThan(0);
    for (const r of records) expect(r.status).toBe("COMPLETED");
    // The scheduler fires a little late at this time scale: bounds, not equality.
    for (const r of plain) expect(r.executionTime).toBeLessThan(10_000);
    for (const r of slowed) expect(r.executionTime).toBeLessThan(40_000);
  });

  test("crash=1: the job fails and its worker dies (listed unhealthy), then is replaced", async () => {
    const emu = await start(`worker ${BAD}: crash=1`);
    const { id } = await endpoint(emu, BAD);
    const [first, second] = await runInTurn(emu, id, 2);
    expect(first).toMatchObject({ status: "FAILED" });
    expect(first?.error).toBe(`worker crashed while running the job (injected fault: worker ${BAD}: crash=1)`);
    expect(second?.workerId).not.toBe(first?.workerId);
    expect(emu.faultStats().injected.crash).toBe(2);
  });

  test("another image on the same endpoint is unaffected: only the release whose image matches degrades", async () => {
    const emu = await start(`worker example/echo-worker:2.*: fail=1`);
    const { id, client } = await endpoint(emu, GOOD);
    expect((await runInTurn(emu, id, 5)).map((r) => r.status)).toEqual(Array(5).fill("COMPLETED"));
    await release(client, id, BAD);
    expect((await runInTurn(emu, id, 3)).map((r) => r.status)).toEqual(Array(3).fill("FAILED"));
    // Moved back to the good image: a new release, fine again.
    await release(client, id, GOOD);
    expect((await runInTurn(emu, id, 3)).map((r) => r.status)).toEqual(Array(3).fill("COMPLETED"));
    expect((await jobApi(emu, "GET", `/${id}/health`)).json.jobs).toMatchObject({ completed: 8, failed: 3 });
  });

  test("@Njobs counts per endpoint release: a new release of the bad image starts its count again", async () => {
    const emu = await start(`worker ${BAD}: fail=1@2jobs`);
    const { id, client } = await endpoint(emu, BAD);
    expect((await runInTurn(emu, id, 3)).map((r) => r.status)).toEqual(["COMPLETED", "COMPLETED", "FAILED"]);
    await release(client, id, BAD);
    expect((await runInTurn(emu, id, 3)).map((r) => r.status)).toEqual(["COMPLETED", "COMPLETED", "FAILED"]);
  });

  test("a seed replays the same faults for the same jobs; another seed draws others", async () => {
    const outcomes = async (seed: number): Promise<string[]> => {
      const emu = await start(`seed=${seed}; worker ${BAD}: fail=0.5`);
      const { id } = await endpoint(emu, BAD);
      return (await runInTurn(emu, id, 24)).map((r) => String(r.status));
    };
    const first = await outcomes(11);
    expect(await outcomes(11)).toEqual(first);
    expect(await outcomes(12)).not.toEqual(first);
    expect(first).toContain("FAILED");
    expect(first).toContain("COMPLETED");
  });
});

describe("requests to a load-balancing endpoint's degraded version", () => {
  test("fail=1: the worker answers 500 naming the injected fault, without forwarding; slow delays the answer", async () => {
    const emu = await start(`worker ${BAD}: fail=1@1jobs, slow=1@50s`);
    const { id } = await endpoint(emu, BAD, { name: "faulty -lb" });
    const sent = performance.now();
    const first = await fetch(`${emu.serverlessUrl}/${id}/hello`, { headers: { authorization: `Bearer ${KEY_A}` } });
    // 50 s of service time is 0.5 real seconds at the tests' time scale.
    expect(performance.now() - sent).toBeGreaterThanOrEqual(450);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { path: string }).path).toBe("/hello");
    const second = await fetch(`${emu.serverlessUrl}/${id}/hello`, { headers: { authorization: `Bearer ${KEY_A}` } });
    expect(second.status).toBe(500);
    expect(second.headers.get("x-service-worker-id")).toBe(first.headers.get("x-service-worker-id"));
    expect(((await second.json()) as { error: string }).error).toMatch(
      new RegExp(`failed the request: injected fault: worker ${BAD.replace(/[.:]/g, "\\$&")}: fail=1 after 1 jobs of this release$`),
    );
    expect(emu.faultStats().byOperation[`worker ${BAD}`]).toEqual({ slow: 2, fail: 1 });
  });

  test("crash=1: the worker is stopped and the request gets the 502 of a worker that failed while handling it", async () => {
    const emu = await start(`worker ${BAD}: crash=1`);
    const { id } = await endpoint(emu, BAD, { name: "crashing -lb" });
    const res = await fetch(`${emu.serverlessUrl}/${id}/hello`, { headers: { authorization: `Bearer ${KEY_A}` } });
    expect(res.status).toBe(502);
    const workerId = res.headers.get("x-service-worker-id");
    expect(((await res.json()) as { error: string }).error).toBe(
      `worker ${workerId} of endpoint ${id} failed while handling the request (it crashed: injected fault: worker ${BAD}: crash=1); it was not retried`,
    );
    const workers = (await api(emu, KEY_A).get(`/endpoints/${id}`, { includeWorkers: "true" })).body.workers as { id: string }[];
    expect(workers.map((w) => w.id)).not.toContain(workerId);
    expect(emu.faultStats().injected.crash).toBe(1);
  });
});

describe("a --handler module's jobs", () => {
  test("are slowed and failed around the module: it completes, the fault replaces its result", async () => {
    const handler = path.join(__dirname, "fixtures", "versioned-handler.cjs");
    const emu = await startTestEmulator({ faults: `worker ${BAD}: fail=1@2jobs, slow=1@20s`, handlers: { [BAD]: handler } });
    emulators.push(emu);
    const { id } = await endpoint(emu, BAD);
    const records = await runInTurn(emu, id, 3);
    expect(records.map((r) => r.status)).toEqual(["COMPLETED", "COMPLETED", "FAILED"]);
    expect(records[0]?.output).toEqual({ version: "2.0-bad", echoed: { i: 0 } });
    for (const r of records) expect(r.executionTime).toBeGreaterThanOrEqual(20_000);
    expect(emu.faultStats().byOperation[`worker ${BAD}`]).toEqual({ slow: 3, fail: 1 });
  });
});

describe("switching worker faults at run time", () => {
  test("setFaults arms a worker clause for the jobs started after it, and switches it off again", async () => {
    const emu = await start("seed=1");
    const { id } = await endpoint(emu, BAD);
    expect((await runInTurn(emu, id, 1))[0]?.status).toBe("COMPLETED");
    emu.setFaults(`worker ${BAD}: fail=1`);
    expect((await runInTurn(emu, id, 2)).map((r) => r.status)).toEqual(["FAILED", "FAILED"]);
    emu.setFaults(undefined);
    expect((await runInTurn(emu, id, 1))[0]?.status).toBe("COMPLETED");
    expect(emu.faultStats().injected.fail).toBe(2);
  });
});
