// Our Python worker loop (workers/python/worker_loop.py) as real processes against the job API over
// real HTTP: every job outcome, progress, streaming, cancel and timeout through job-stop, batch
// concurrency, and a worker killed mid-job.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spec, startHarness, type Harness } from "../../../support/jobsHarness";
import { startPyWorker, stopPyWorkers, type PyWorker } from "./workers-harness";
import type { Json } from "../../../support/wireJson";

let h: Harness | undefined;
let workers: PyWorker[] = [];
const dir = mkdtempSync(join(tmpdir(), "workers-python-"));

afterEach(async () => {
  await stopPyWorkers(workers);
  workers = [];
  await h?.close();
  h = undefined;
});

async function setup(o: { stream?: boolean; concurrency?: number } = {}): Promise<Harness> {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [spec({ id: "py", imageName: "py/worker:1" })],
    // A lost worker stays listed as unhealthy for 10 s real, long enough to be seen.
    options: { externalImages: ["py/worker"], workerLostMs: 1000, unhealthyLingerMs: 1_000_000 },
  });
  workers.push(startPyWorker(h, { endpointId: "py", workerId: "pyw1", ...o }));
  return h;
}

async function finished(hh: Harness, id: string, timeoutMs = 15_000): Promise<Json> {
  return hh.until(
    async () => {
      const s = (await hh.call("GET", `/v2/py/status/${id}`)).body;
      return ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(s.status) ? s : undefined;
    },
    timeoutMs,
    `job ${id} to finish`,
  );
}

const submit = async (hh: Harness, input: unknown, policy?: unknown): Promise<string> =>
  (await hh.call("POST", "/v2/py/run", { input, ...(policy ? { policy } : {}) })).body.id;

describe("the Python worker loop", () => {
  it("completes a job with the handler's output", async () => {
    const hh = await setup();
    const id = await submit(hh, { greeting: "hi" });
    expect(await finished(hh, id)).toMatchObject({ status: "COMPLETED", output: { echo: { greeting: "hi" } }, workerId: "pyw1" });
  });

  it("a raising handler fails the job with the handler's error", async () => {
    const hh = await setup();
    const s = await finished(hh, await submit(hh, { mode: "fail", message: "the model file is missing" }));
    expect(s.status).toBe("FAILED");
    const err = JSON.parse(s.error);
    expect(err).toMatchObject({ error_message: "the model file is missing", worker_id: "pyw1" });
    expect(err.error_type).toContain("ValueError");
  });

  it("a progress update is visible in /status as IN_PROGRESS", async () => {
    const hh = await setup();
    const id = await submit(hh, { mode: "progress", holdS: 1.5 });
    const during = await hh.until(
      async () => {
        const s = (await hh.call("GET", `/v2/py/status/${id}`)).body;
        return s.output !== undefined || s.status === "COMPLETED" ? s : undefined;
      },
      15_000,
      "progress",
    );
    expect(during).toMatchObject({ status: "IN_PROGRESS", output: { pct: 50 } });
    expect(await finished(hh, id)).toMatchObject({ status: "COMPLETED", output: { done: true } });
  });

  it("a generator's chunks come out of /stream in order", async () => {
    const hh = await setup({ stream: true });
    const chunks = ["a", { b: 2 }, 3, "d"];
    const id = await submit(hh, { chunks, gapS: 0.05 });
    const seen: unknown[] = [];
    await hh.until(
      async () => {
        const r = (await hh.call("GET", `/v2/py/stream/${id}`)).body;
        for (const item of r.stream) seen.push(item.output);
        return r.status === "COMPLETED" && seen.length === chunks.length;
      },
      15_000,
      "all chunks",
    );
    expect(seen).toEqual(chunks);
    expect((await finished(hh, id)).output).toEqual(chunks);
  });

  it("cancel of a running job answers CANCELLED at once and stops the handler", async () => {
    const hh = await setup();
    const marker = join(dir, "cancelled");
    const id = await submit(hh, { mode: "until-stopped", marker });
    await hh.until(async () => (await hh.call("GET", `/v2/py/status/${id}`)).body.status === "IN_PROGRESS", 15_000, "running");
    expect((await hh.call("POST", `/v2/py/cancel/${id}`)).body).toEqual({ id, status: "CANCELLED" });
    await hh.until(() => existsSync(marker), 15_000, "the handler to see the stop");
    expect(readFileSync(marker, "utf8")).toBe("stopped");
    // No result was posted for the stopped job.
    expect((await hh.call("GET", `/v2/py/status/${id}`)).body).toMatchObject({ status: "CANCELLED" });
  });

  it("an execution timeout gives TIMED_OUT and reaches the worker", async () => {
    const hh = await setup();
    const marker = join(dir, "timed-out");
    // 5 s of service time = 50 ms real.
    const id = await submit(hh, { mode: "until-stopped", marker }, { executionTimeout: 5000 });
    const s = await finished(hh, id);
    expect(s).toMatchObject({ status: "TIMED_OUT", error: expect.stringContaining("executionTimeout") });
    await hh.until(() => existsSync(marker), 15_000, "the handler to see the timeout");
    expect(readFileSync(marker, "utf8")).toBe("stopped");
  });

  it("batch take runs jobs concurrently", async () => {
    const hh = await setup({ concurrency: 3 });
    const ids = await Promise.all([0, 1, 2].map(() => submit(hh, { mode: "sleep", seconds: 1.5 })));
    await hh.until(async () => (await hh.call("GET", "/v2/py/health")).body.jobs.inProgress === 3, 15_000, "3 jobs in progress at once");
    for (const id of ids) expect(await finished(hh, id)).toMatchObject({ status: "COMPLETED", output: { worker: "pyw1" } });
  });

  it("a worker killed mid-job is noticed: unhealthy, and its job fails", async () => {
    const hh = await setup();
    const id = await submit(hh, { mode: "sleep", seconds: 30 });
    await hh.until(async () => (await hh.call("GET", `/v2/py/status/${id}`)).body.status === "IN_PROGRESS", 15_000, "running");
    (workers[0] as PyWorker).proc.kill("SIGKILL");
    // Lost after 3 s real at the least (3 missed 1 s pings).
    const s = await finished(hh, id, 9000);
    expect(s).toMatchObject({ status: "FAILED", error: expect.stringMatching(/worker pyw1 stopped answering/) });
    expect((await hh.call("GET", "/v2/py/health")).body.workers).toMatchObject({ unhealthy: 1, ready: 0 });
  }, 15_000);
});

process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
