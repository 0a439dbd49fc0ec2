/**
 * Benchmark of the emulator's job API (prints figures; not a test).
 *
 * 20,000 jobs through POST /run (built-in handler, delayMs 0) on one endpoint with 50 warm workers,
 * submitted by 64 concurrent clients over 64 keep-alive connections (undici Pool), then polled to
 * completion via GET /status. Beside it, in the same run with the same client and concurrency, a
 * bare node:http server answering a fixed JSON body: the floor. Also: heap per retained finished job.
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/bench-jobs.js [jobs]
 * (re-runs itself with --expose-gc when needed, for the memory figure).
 */
import { spawnSync } from "node:child_process";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { createClock } from "../emulator/clock";
import type { EndpointSpec, ServerlessDeps } from "../emulator/serverless/contract";
import { createServerlessService, type ServerlessOptions } from "../emulator/serverless";

const JOBS = Number(process.argv[2] ?? 20_000);
const CLIENTS = 64;
const WARMUP = 2_000;
const KEY = "bench-key";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}
const fullGc = (): void => {
  for (let i = 0; i < 3; i++) gc?.();
};

const spec: EndpointSpec = {
  id: "bench",
  accountId: "acct",
  name: "bench",
  templateId: "tpl",
  imageName: "bench/echo",
  env: {},
  computeType: "GPU",
  gpuTypeIds: ["NVIDIA A40"],
  gpuCount: 1,
  cpuFlavorIds: [],
  dataCenterIds: ["EU-RO-1"],
  workersMin: 50,
  workersMax: 50,
  idleTimeout: 60,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  executionTimeoutMs: 600_000,
  version: 1,
  type: "QUEUE",
};

// The bench's own traffic must not be throttled: raise the job-traffic limits explicitly.
const UNLIMITED = { rate: null, concurrency: null };
const options: ServerlessOptions = {
  limits: { run: UNLIMITED, status: UNLIMITED },
  coldStartMs: 0,
};

interface Stats {
  seconds: number;
  p50: number;
  p99: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function listen(server: http.Server): Promise<string> {
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function request(pool: Pool, method: "GET" | "POST", path: string, body?: string): Promise<{ status: number; json: unknown }> {
  const res = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    ...(body !== undefined ? { body } : {}),
  });
  const json = (await res.body.json()) as unknown;
  return { status: res.statusCode, json };
}

/**
 * Submits `n` jobs with CLIENTS concurrent loops, then polls each to a final state (each client polls
 * its share; a job still running is polled again after the others). Returns ids and timings.
 */
async function runJobs(pool: Pool, n: number, poll: (ms: number) => void): Promise<{ seconds: number; ids: string[] }> {
  const ids: string[] = new Array<string>(n);
  const body = JSON.stringify({ input: { delayMs: 0 } });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < n; i = next++) {
        const r = await request(pool, "POST", "/v2/bench/run", body);
        if (r.status !== 200) throw new Error(`/run answered ${r.status}: ${JSON.stringify(r.json)}`);
        ids[i] = (r.json as { id: string }).id;
      }
    }),
  );
  let cursor = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = cursor++; i < n; i = cursor++) {
        for (;;) {
          const s = performance.now();
          const r = await request(pool, "GET", `/v2/bench/status/${ids[i]}`);
          poll(performance.now() - s);
          if (r.status !== 200) throw new Error(`/status answered ${r.status}: ${JSON.stringify(r.json)}`);
          const st = (r.json as { status: string }).status;
          if (st === "COMPLETED") break;
          if (st !== "IN_QUEUE" && st !== "IN_PROGRESS") throw new Error(`job ended ${st}`);
        }
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, ids };
}

async function benchService(): Promise<{ e2e: Stats; jobsPerSec: number; polls: number; bytesPerJob: number }> {
  const clock = createClock(1);
  const deps: ServerlessDeps = {
    clock,
    resolveAccount: (a) => (a === `Bearer ${KEY}` || a === KEY ? "acct" : undefined),
    getEndpoint: (acct, id) => (id === spec.id && acct === spec.accountId ? spec : undefined),
    place: () => ({ gpuTypeId: "NVIDIA A40", cpuFlavorId: null, dataCenterId: "EU-RO-1", costPerHr: 0.5 }),
    recordWorkerUsage: () => undefined,
  };
  const svc = createServerlessService(deps, options);
  svc.endpointChanged(spec);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    void svc.handle(req, res, path.slice(3));
  });
  const url = await listen(server);
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  // Workers boot (coldStartMs 0) on the next turns of the event loop.
  await new Promise((r) => setTimeout(r, 50));

  await runJobs(pool, WARMUP, () => undefined);
  // Latencies go to a buffer allocated before the baseline, so the delta is the service's alone.
  const lat = new Float64Array(JOBS * 4);
  let polls = 0;
  fullGc();
  const before = process.memoryUsage().heapUsed;

  const { seconds, ids } = await runJobs(pool, JOBS, (ms) => {
    if (polls < lat.length) lat[polls++] = ms;
  });
  // The client's copies of the ids are not the service's memory.
  ids.length = 0;
  fullGc();
  const after = process.memoryUsage().heapUsed;
  const bytesPerJob = (after - before) / JOBS;

  await pool.close();
  await svc.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  const sorted = lat.slice(0, polls).sort();
  return {
    e2e: { seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) },
    jobsPerSec: JOBS / seconds,
    polls,
    bytesPerJob,
  };
}

async function benchFloor(): Promise<{ e2e: Stats; jobsPerSec: number }> {
  const fixedRun = JSON.stringify({ id: "00000000-0000-0000-0000-000000000000", status: "IN_QUEUE" });
  const fixedStatus = JSON.stringify({
    id: "00000000-0000-0000-0000-000000000000",
    status: "COMPLETED",
    delayTime: 1,
    executionTime: 0,
    workerId: "abcdefghijklm",
    output: { delayMs: 0 },
  });
  const server = http.createServer((req, res) => {
    const send = (): void => {
      const body = req.method === "POST" ? fixedRun : fixedStatus;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.method === "POST") {
      req.resume();
      req.on("end", send);
    } else send();
  });
  const url = await listen(server);
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  await runJobs(pool, WARMUP, () => undefined);
  const lat: number[] = [];
  const { seconds } = await runJobs(pool, JOBS, (ms) => lat.push(ms));
  await pool.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  const sorted = Float64Array.from(lat).sort();
  return { e2e: { seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }, jobsPerSec: JOBS / seconds };
}

async function main(): Promise<void> {
  console.log(`bench-jobs: ${JOBS} jobs, ${CLIENTS} clients over ${CLIENTS} keep-alive connections (undici Pool), node ${process.version}`);
  console.log(`endpoint: workersMin=workersMax=50 (warm, coldStartMs 0), built-in handler with delayMs 0, time scale 1`);
  console.log(`limits: /run and /status rate and concurrency limits lifted through options (the bench's own traffic)`);
  const floor = await benchFloor();
  const svc = await benchService();
  const row = (name: string, s: { e2e: Stats; jobsPerSec: number }): string =>
    `${name.padEnd(26)} ${s.jobsPerSec.toFixed(0).padStart(8)} jobs/s   ${s.e2e.seconds.toFixed(2).padStart(6)} s   /status p50 ${s.e2e.p50.toFixed(2)} ms   p99 ${s.e2e.p99.toFixed(2)} ms`;
  console.log(row("floor (bare node:http)", floor));
  console.log(row("job API (emulator)", svc));
  console.log(`status polls: ${svc.polls} for ${JOBS} jobs (${(svc.polls / JOBS).toFixed(2)} per job)`);
  console.log(`service / floor: ${((svc.jobsPerSec / floor.jobsPerSec) * 100).toFixed(0)}%`);
  console.log(`memory per retained finished job: ${svc.bytesPerJob.toFixed(0)} bytes (heapUsed delta after GC / ${JOBS})`);
  console.log(
    `goals: >= 2000 jobs/s: ${svc.jobsPerSec >= 2000 ? "met" : "NOT met"}; < 2048 bytes/job: ${svc.bytesPerJob < 2048 ? "met" : "NOT met"}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
