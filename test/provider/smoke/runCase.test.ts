// runQueueCase (provider/smoke/runCase.ts) against a scripted job API on a real HTTP server: the
// request a case sends, its verdict, following a long job, and cancelling one that runs out of time.

import { afterEach, describe, expect, it, vi } from "vitest";
import { failureMessage } from "../../../provider/smoke/report";
import { runQueueCase } from "../../../provider/smoke/runCase";
import { closeAll, completed, EP, quietJobClient, startJobApi } from "../../support/scriptedJobApi";

afterEach(async () => {
  vi.restoreAllMocks();
  await closeAll();
});

describe("runQueueCase", () => {
  it("a passing case: one /runsync carrying input and policy, and a passed result", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("job-ok", { text: "hello world", tokens: 2 }) }) });
    const result = await runQueueCase(quietJobClient(api), EP, {
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
      // The worker that ran the job, as the service names it: a failure shows its log (provider/logNotes.ts).
      workerId: "w-1",
      passed: true,
      problems: [],
    });
    expect(api.lines()).toEqual([`POST /v2/${EP}/runsync?wait=20000`]);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ input: { prompt: "hello" }, policy: { executionTimeout: 30_000 } });
  });

  it("without timeoutSeconds the /runsync wait is the 300 s default", async () => {
    const api = await startJobApi({ "POST runsync": () => ({ body: completed("j", null) }) });
    const result = await runQueueCase(quietJobClient(api), EP, { name: "n", input: {} });
    expect(result.passed).toBe(true);
    expect(api.requests[0]!.query.get("wait")).toBe("300000");
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ input: {} });
  });

  it("a failing case: FAILED with an error gives passed=false, the error, and a report naming job, status and error", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({
        body: { id: "job-bad", status: "FAILED", error: "CUDA error: out of memory", delayTime: 5, executionTime: 80 },
      }),
    });
    const result = await runQueueCase(quietJobClient(api), EP, {
      name: "oom",
      input: { size: "xl" },
      expect: { outputSubset: { ok: true } },
      timeoutSeconds: 5,
    });
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
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "job-e", status: "FAILED", error: "ValueError: prompt is empty" } }),
    });
    const result = await runQueueCase(quietJobClient(api), EP, {
      name: "rejects-empty",
      input: { prompt: "" },
      expect: { status: "FAILED", errorContains: "prompt is empty" },
    });
    expect(result.passed).toBe(true);
    expect(result.problems).toEqual([]);
  });

  it("a job that outlives /runsync is followed on /status-sync until it finishes", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-5", status: "IN_QUEUE" } }),
      "GET status-sync": (_req, n) =>
        n === 0 ? { body: { id: "sync-5", status: "IN_PROGRESS" }, delayMs: 80 } : { body: completed("sync-5", "fine") },
    });
    const result = await runQueueCase(quietJobClient(api), EP, {
      name: "later",
      input: {},
      expect: { output: "fine" },
      timeoutSeconds: 30,
    });
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
      "GET status-sync": () => ({ body: { id: "sync-slow", status: "IN_PROGRESS", output: { progress: 0.4 } }, delayMs: 120 }),
      "POST cancel": () => ({ body: { id: "sync-slow", status: "CANCELLED" } }),
    });
    // The job never leaves IN_PROGRESS: returning at all means the case gave up at its deadline
    // (no wall-clock bound, which a loaded machine can exceed).
    const result = await runQueueCase(quietJobClient(api), EP, { name: "slow", input: {}, timeoutSeconds: 0.3 });
    expect(result.passed).toBe(false);
    expect(result.jobId).toBe("sync-slow");
    expect(result.status).toBe("IN_PROGRESS");
    expect(result.output).toEqual({ progress: 0.4 }); // the partial progress of the last record read
    expect(result.problems).toEqual(["did not finish within timeoutSeconds=0.3 (last status IN_PROGRESS); the job was cancelled"]);
    const cancels = api.requests.filter((r) => r.method === "POST" && r.path === `/v2/${EP}/cancel/sync-slow`);
    expect(cancels).toHaveLength(1);
    expect(api.requests.at(-1)!.path).toBe(`/v2/${EP}/cancel/sync-slow`);
    expect(failureMessage(EP, [result])).toContain(
      'case "slow": job sync-slow ended IN_PROGRESS; did not finish within timeoutSeconds=0.3',
    );
  });

  it("a failed cancel does not change the verdict", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-c", status: "IN_PROGRESS" } }),
      "GET status-sync": () => ({ body: { id: "sync-c", status: "IN_PROGRESS" }, delayMs: 100 }),
      "POST cancel": () => ({ status: 500, body: { error: "internal" } }),
    });
    const result = await runQueueCase(quietJobClient(api), EP, { name: "c", input: {}, timeoutSeconds: 0.15 });
    expect(result.passed).toBe(false);
    expect(result.problems[0]).toMatch(/^did not finish within timeoutSeconds=0\.15/);
    expect(api.requests.some((r) => r.path === `/v2/${EP}/cancel/sync-c`)).toBe(true);
  });

  it("the deadline comes from the clock: an expired case is cancelled without another poll", async () => {
    const api = await startJobApi({
      "POST runsync": () => ({ body: { id: "sync-t", status: "IN_QUEUE" } }),
      "POST cancel": () => ({ body: { id: "sync-t", status: "CANCELLED" } }),
    });
    let clock = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => {
      const t = clock;
      clock += 11_000; // every reading of the clock is past the case's whole 10 s budget
      return t;
    });
    const result = await runQueueCase(quietJobClient(api), EP, { name: "t", input: {}, timeoutSeconds: 10 });
    expect(result.passed).toBe(false);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /v2/${EP}/runsync`, `POST /v2/${EP}/cancel/sync-t`]);
  });
});
