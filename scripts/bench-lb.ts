/**
 * Benchmark of load-balancing endpoints in the emulator (prints figures; not a test).
 *
 * Requests/s and latency of GET /v2/<endpoint>/hello?x=1 through the job side's proxy to the
 * built-in echo worker, against the same requests sent straight to a bare node:http server
 * answering a fixed JSON body, in the same run: same undici Pool client, 64 keep-alive
 * connections, 64 concurrent request loops, the same number of requests. Goal: the proxy reaches
 * at least 40% of the direct rate.
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/bench-lb.js [requests]
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { createClock } from "../emulator/clock";
import type { EndpointSpec, ServerlessDeps } from "../emulator/serverless/contract";
import { createServerlessService, type ServerlessOptions } from "../emulator/serverless";

const REQUESTS = Number(process.argv[2] ?? 100_000);
const CLIENTS = 64;
const WARMUP = 5_000;
const WORKERS = 4;
const KEY = "bench-key";

const spec: EndpointSpec = {
  id: "benchlb",
  accountId: "acct",
  name: "bench-lb",
  templateId: "tpl",
  imageName: "bench/echo",
  env: { PORT: "80", PORT_HEALTH: "80" },
  computeType: "GPU",
  gpuTypeIds: ["NVIDIA A40"],
  gpuCount: 1,
  cpuFlavorIds: [],
  dataCenterIds: ["EU-RO-1"],
  workersMin: WORKERS,
  workersMax: WORKERS,
  idleTimeout: 60,
  scalerType: "REQUEST_COUNT",
  scalerValue: 16,
  executionTimeoutMs: 600_000,
  version: 1,
  type: "LOAD_BALANCER",
};

// The bench's own traffic must not be throttled: the lb route's rate and concurrency limits are lifted.
const options: ServerlessOptions = {
  limits: { lb: { rate: null, concurrency: null } },
  coldStartMs: 0,
};

interface Result {
  seconds: number;
  perSec: number;
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

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

/** `n` GETs of `path` over CLIENTS concurrent loops; every answer must be 200 (and carry a worker id when asked). */
async function drive(pool: Pool, path: string, n: number, lat: Float64Array | undefined, needWorkerId: boolean): Promise<Result> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < n; i = next++) {
        const s = performance.now();
        const res = await pool.request({ method: "GET", path, headers: { authorization: `Bearer ${KEY}` } });
        const text = await res.body.text();
        if (lat) lat[i] = performance.now() - s;
        if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
        if (needWorkerId && typeof res.headers["x-service-worker-id"] !== "string") throw new Error("no X-Service-Worker-Id");
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const sorted = lat ? lat.slice(0, n).sort() : new Float64Array();
  return { seconds, perSec: n / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function measure(url: string, path: string, needWorkerId: boolean): Promise<Result> {
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  try {
    await drive(pool, path, WARMUP, undefined, needWorkerId);
    return await drive(pool, path, REQUESTS, new Float64Array(REQUESTS), needWorkerId);
  } finally {
    await pool.close();
  }
}

async function benchDirect(): Promise<Result> {
  const body = JSON.stringify({ method: "GET", path: "/hello", query: { x: "1" }, headers: {}, body: "" });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  const url = await listen(server);
  try {
    return await measure(url, "/hello?x=1", false);
  } finally {
    await close(server);
  }
}

async function benchLb(): Promise<{ result: Result; workersUsed: number }> {
  const deps: ServerlessDeps = {
    clock: createClock(1),
    resolveAccount: (a) => (a === `Bearer ${KEY}` || a === KEY ? "acct" : undefined),
    getEndpoint: (acct, id) => (id === spec.id && acct === spec.accountId ? spec : undefined),
    place: () => ({ gpuTypeId: "NVIDIA A40", cpuFlavorId: null, dataCenterId: "EU-RO-1", costPerHr: 0.5 }),
    recordWorkerUsage: () => undefined,
  };
  const svc = createServerlessService(deps, options);
  svc.endpointChanged(spec);
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    void svc.handle(req, res, (q < 0 ? url : url.slice(0, q)).slice(3));
  });
  const url = await listen(server);
  try {
    // Warm endpoint: wait until every worker passed its first health check.
    const deadline = Date.now() + 10_000;
    while (svc.workers(spec.id).filter((w) => w.status === "idle").length < WORKERS) {
      if (Date.now() > deadline) throw new Error(`workers did not become healthy: ${JSON.stringify(svc.workers(spec.id))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const result = await measure(url, `/v2/${spec.id}/hello?x=1`, true);
    return { result, workersUsed: svc.workers(spec.id).length };
  } finally {
    await svc.close();
    await close(server);
  }
}

async function main(): Promise<void> {
  console.log(`bench-lb: ${REQUESTS} GETs (after ${WARMUP} warm-up) per target, ${CLIENTS} concurrent loops over ${CLIENTS} keep-alive connections (undici Pool), node ${process.version}`);
  console.log(`endpoint: LOAD_BALANCER, built-in echo worker, workersMin=workersMax=${WORKERS} (warm: all healthy before timing), time scale 1`);
  console.log(`limits: the lb route's rate and concurrency limits lifted through options (limits.lb = unlimited) for the bench's own traffic`);
  const direct = await benchDirect();
  const { result: lb, workersUsed } = await benchLb();
  const row = (name: string, r: Result): string =>
    `${name.padEnd(34)} ${r.perSec.toFixed(0).padStart(7)} req/s   ${r.seconds.toFixed(2).padStart(6)} s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;
  console.log(row("direct (bare node:http, fixed JSON)", direct));
  console.log(row("load-balancing endpoint (emulator)", lb));
  const ratio = lb.perSec / direct.perSec;
  console.log(`lb / direct: ${(ratio * 100).toFixed(0)}% (workers: ${workersUsed})`);
  console.log(`goal >= 40% of direct: ${ratio >= 0.4 ? "met" : "NOT met"}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
