/**
 * Benchmark: jobs per second end to end through real worker processes (our Python worker loop,
 * 4 processes started by the emulator, a handler that returns at once) against the simulated
 * workers (4, built-in handler), in the same run, with the same clients. Prints figures; not a test.
 *
 * Each of CLIENTS clients sends /runsync jobs one after the other over keep-alive connections;
 * the figure is finished jobs per second of wall time, after a warm-up.
 *
 *   npm run bench:workers [-- jobs]      (default 2000 jobs per kind)
 */
import * as path from "node:path";
import { Pool } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { repoRoot } from "./lib/repoRoot";

const JOBS = Number(process.argv[2] ?? 2000);
const CLIENTS = 16;
const WORKERS = 4;
const WARMUP = 200;
const KEY = "bench-workers-key";
const PY_IMAGE = "bench/python-worker";
const HANDLER = path.join(repoRoot(), "workers/python/modes_handler.py");
const UNLIMITED = { rate: null, concurrency: null };

async function v1(emu: RunningEmulator, method: string, p: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${emu.apiUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

async function endpoint(emu: RunningEmulator, imageName: string): Promise<string> {
  const tpl = await v1(emu, "POST", "/templates", { name: `bench-${imageName.replace(/\W/g, "-")}`, imageName, isServerless: true });
  const ep = await v1(emu, "POST", "/endpoints", {
    templateId: tpl.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: WORKERS,
    workersMax: WORKERS,
    idleTimeout: 3600,
  });
  return ep.id;
}

async function waitReady(pool: Pool, endpointId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await pool.request({ path: `/v2/${endpointId}/health`, method: "GET", headers: { authorization: KEY } });
    const health = (await res.body.json()) as { workers: { ready: number } };
    if (health.workers.ready >= WORKERS) return;
    if (Date.now() > deadline) throw new Error(`endpoint ${endpointId}: ${health.workers.ready} of ${WORKERS} workers ready after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `jobs` runsync jobs with CLIENTS clients; returns jobs per second. */
async function run(pool: Pool, endpointId: string, jobs: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (next < jobs) {
      next++;
      const res = await pool.request({
        path: `/v2/${endpointId}/runsync`,
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: '{"input":{"mode":"echo"}}',
      });
      const body = (await res.body.json()) as { status?: string };
      if (body.status !== "COMPLETED") throw new Error(`job on ${endpointId} ended ${JSON.stringify(body)}`);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return jobs / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const emu = await startEmulator({
    apiKeys: [KEY],
    workers: { [PY_IMAGE]: `python3 ${HANDLER}` },
    serverless: { coldStartMs: 0, limits: { runsync: UNLIMITED, status: UNLIMITED } },
  });
  const pool = new Pool(new URL(emu.serverlessUrl).origin, { connections: CLIENTS + 4 });
  try {
    const simulated = await endpoint(emu, "bench/echo");
    const external = await endpoint(emu, PY_IMAGE);
    await waitReady(pool, simulated);
    await waitReady(pool, external);
    const figures: Record<string, number> = {};
    for (const [name, id] of [
      ["simulated workers", simulated],
      ["worker-loop processes", external],
    ] as const) {
      await run(pool, id, WARMUP);
      figures[name] = await run(pool, id, JOBS);
    }
    const sim = figures["simulated workers"] ?? 0;
    const ext = figures["worker-loop processes"] ?? 0;
    console.log(`${JOBS} /runsync jobs per kind, ${CLIENTS} clients, ${WORKERS} workers each, handler returns at once`);
    for (const [name, rate] of Object.entries(figures)) console.log(`  ${name.padEnd(22)} ${rate.toFixed(0).padStart(6)} jobs/s`);
    console.log(`  ratio external/simulated: ${(ext / sim).toFixed(3)} (${(sim / ext).toFixed(1)}x slower)`);
  } finally {
    await pool.close();
    await emu.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
