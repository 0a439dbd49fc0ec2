// Worker processes the emulator starts itself (--worker IMAGE=COMMAND / the `workers` option): the
// scaler starts the command with the platform's worker environment, the process pulls its jobs,
// it is stopped on scale-down and when the endpoint is deleted, and its log is kept and listed.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { api, createServerlessTemplate, startTestEmulator, waitFor, type Api } from "../../../support/managementHelpers";
import { PYTHON_DIR } from "./workers-harness";
import type { Json } from "../../../support/wireJson";

const logDir = mkdtempSync(join(tmpdir(), "workers-spawn-"));
let emu: RunningEmulator;
let client: Api;

beforeAll(async () => {
  emu = await startTestEmulator({
    workers: { "py/spawned": `python3 ${resolve(PYTHON_DIR, "modes_handler.py")}` },
    externalImages: ["ext/manual"],
    serverless: { workerLogDir: logDir, workerEnvPrefix: "SVC" },
  });
  client = api(emu);
});
afterAll(async () => {
  await emu.close();
  rmSync(logDir, { recursive: true, force: true });
});

async function jobApi(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${emu.serverlessUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

/**
 * Deadline for what waits on a Python process the emulator starts: seconds on a quiet machine, many
 * more when both cores are busy. A deadline, not a speed check: only a process that never comes fails.
 */
const PROCESS_DEADLINE_MS = 45_000;

/** Submits a job and polls it until it has finished (the process takes real time to start). */
async function job(endpointId: string, input: unknown): Promise<Json> {
  const { id } = await jobApi("POST", `/${endpointId}/run`, { input });
  return waitFor(
    `job ${id}`,
    async () => {
      const s = await jobApi("GET", `/${endpointId}/status/${id}`);
      return s.status === "IN_QUEUE" || s.status === "IN_PROGRESS" ? undefined : s;
    },
    PROCESS_DEADLINE_MS,
  );
}

async function endpoint(over: Record<string, unknown>, env: Record<string, string> = {}, imageName = "py/spawned:1"): Promise<string> {
  const tpl = await createServerlessTemplate(client);
  await client.patch(`/templates/${tpl.id}`, { imageName, env: { HANDLER_CONCURRENCY: "1", ...env } });
  const res = await client.post("/endpoints", { templateId: tpl.id, gpuTypeIds: ["NVIDIA L4"], ...over });
  expect(res.status).toBe(200);
  return res.body.id;
}

const logsOf = (endpointId: string) =>
  emu
    .inspect()
    .flatMap((a) => a.workerLogs)
    .filter((l) => l.endpointId === endpointId);

describe("worker processes started by the emulator", () => {
  it("runs the job in the real handler, then stops the idle process; its log is kept and listed", async () => {
    const ep = await endpoint({ workersMin: 0, workersMax: 2, idleTimeout: 1 });
    const done = await job(ep, { mode: "sleep", seconds: 0.1 });
    expect(done).toMatchObject({ status: "COMPLETED", output: { slept: 0.1 } });
    // The handler read its worker id from the environment under the configured prefix.
    expect(done.output.worker).toBe(done.workerId);
    const [log] = logsOf(ep);
    expect(log).toMatchObject({ workerId: done.workerId, path: join(logDir, `${ep}-${done.workerId}.log`) });
    expect(readFileSync(log!.path, "utf8")).toContain("worker started");
    // idleTimeout 1 s: the process is stopped and its exit logged.
    await waitFor("scale-down", async () => (logsOf(ep).every((l) => !l.running) ? true : undefined), PROCESS_DEADLINE_MS);
    await waitFor(
      "exit logged",
      async () => (readFileSync(log!.path, "utf8").includes(`worker ${done.workerId} exited`) ? true : undefined),
      15_000,
    );
    const health = await jobApi("GET", `/${ep}/health`);
    expect(health.workers).toMatchObject({ idle: 0, running: 0, initializing: 0 });
  }, 120_000);

  it("keeps workersMin processes and stops them when the endpoint is deleted", async () => {
    // idleTimeout 3600 s (36 s real): only the deletion can stop the process within the test.
    const ep = await endpoint({ workersMin: 1, workersMax: 1, idleTimeout: 3600 });
    await waitFor("a worker process up", async () => (logsOf(ep).some((l) => l.running) ? true : undefined), PROCESS_DEADLINE_MS);
    const view = await waitFor(
      "the worker to report in",
      async () => {
        const res = await client.get(`/endpoints/${ep}`, { includeWorkers: "true" });
        return res.body.workers?.length === 1 && /idle/i.test(res.body.workers[0].lastStatusChange) ? res.body.workers[0] : undefined;
      },
      PROCESS_DEADLINE_MS,
    );
    expect(view.id).toBe(logsOf(ep)[0]?.workerId);
    expect((await client.patch(`/endpoints/${ep}`, { workersMin: 0 })).status).toBe(200);
    expect(logsOf(ep).filter((l) => l.running)).toHaveLength(1);
    expect((await client.del(`/endpoints/${ep}`)).status).toBeLessThan(300);
    await waitFor("process stopped", async () => (logsOf(ep).every((l) => !l.running) ? true : undefined), PROCESS_DEADLINE_MS);
  }, 120_000);
});

describe("scaling worker processes", () => {
  it("starts more processes as jobs queue (up to workersMax) and counts them in /health", async () => {
    const ep = await endpoint({ workersMin: 0, workersMax: 3, idleTimeout: 1, scalerType: "REQUEST_COUNT", scalerValue: 1 });
    // Each job holds its process for 5 s of real time, so that the three processes overlap even when
    // a busy machine starts them seconds apart.
    const ids = await Promise.all(
      [0, 1, 2, 3].map(async () => (await jobApi("POST", `/${ep}/run`, { input: { mode: "sleep", seconds: 5 } })).id),
    );
    const busy = await waitFor(
      "3 processes running jobs",
      async () => {
        const h = await jobApi("GET", `/${ep}/health`);
        return h.workers.running === 3 ? h : undefined;
      },
      PROCESS_DEADLINE_MS,
    );
    // Three jobs run; the fourth waits, unless a busy machine started the third process so late
    // that the first had already finished its job and taken the fourth.
    expect(busy.jobs.inProgress).toBe(3);
    expect(busy.jobs.inQueue + busy.jobs.completed).toBe(1);
    expect(logsOf(ep).filter((l) => l.running)).toHaveLength(3);
    for (const id of ids) {
      await waitFor(
        `job ${id}`,
        async () => ((await jobApi("GET", `/${ep}/status/${id}`)).status === "COMPLETED" ? true : undefined),
        PROCESS_DEADLINE_MS,
      );
    }
  }, 180_000);
});

describe("stopPod", () => {
  it("a worker that asks to be recycled is stopped after its job and replaced for the next", async () => {
    // idleTimeout 3600 s: only stopPod can stop the first process within the test.
    const ep = await endpoint({ workersMin: 0, workersMax: 1, idleTimeout: 3600 }, { HANDLER_REFRESH: "1" });
    const first = await job(ep, { mode: "echo" });
    expect(first.status).toBe("COMPLETED");
    await waitFor(
      "the first process stopped",
      async () => (logsOf(ep).find((l) => l.workerId === first.workerId)?.running === false ? true : undefined),
      PROCESS_DEADLINE_MS,
    );
    const second = await job(ep, { mode: "echo" });
    expect(second.status).toBe("COMPLETED");
    expect(second.workerId).not.toBe(first.workerId);
  }, 120_000);
});

describe("externalImages", () => {
  it("jobs of an external image wait for a worker started elsewhere, which takes them with a bare key", async () => {
    const ep = await endpoint({ workersMin: 1, workersMax: 1 }, {}, "ext/manual:2");
    const { id } = await jobApi("POST", `/${ep}/run`, { input: { n: 1 } });
    await new Promise((r) => setTimeout(r, 300)); // 30 s of service time: no simulated worker runs it
    expect(await jobApi("GET", `/${ep}/status/${id}`)).toMatchObject({ status: "IN_QUEUE" });
    const take = await fetch(`${emu.serverlessUrl}/${ep}/job-take/mine?gpu=x&job_in_progress=0`, {
      headers: { authorization: emu.apiKey },
    });
    expect(await take.json()).toEqual({ id, input: { n: 1 } });
    expect(logsOf(ep)).toEqual([]);
  });
});
