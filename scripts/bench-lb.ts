/**
 * Benchmark of load-balancing endpoints in the emulator (prints figures; not a test).
 *
 * Requests/s and latency of GET /v2/<endpoint>/hello?x=1 through the job side's proxy to the
 * built-in echo worker, against the same requests sent straight to a bare node:http server
 * answering a fixed JSON body, in the same run: same undici Pool client, 64 keep-alive
 * connections, 64 concurrent request loops, the same number of requests. The two alternate in
 * rounds so that other load on the machine weighs on both alike. Goal: the proxy reaches at least
 * 40% of the direct rate.
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/bench-lb.js [requests per target] [rounds]
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { createClock } from "../emulator/clock";
import type { EndpointSpec, ServerlessDeps } from "../emulator/serverless/contract";
import { createServerlessService, type ServerlessOptions } from "../emulator/serverless";

const REQUESTS = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 4);
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

interface Round {
  seconds: number;
  lat: Float64Array;
}

interface Result {
  requests: number;
  seconds: number;
  perSec: number;
  p50: number;
  p99: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summarize(rounds: Round[]): Result {
  const requests = rounds.reduce((n, r) => n + r.lat.length, 0);
  const seconds = rounds.reduce((t, r) => t + r.seconds, 0);
  const all = new Float64Array(requests);
  let at = 0;
  for (const r of rounds) {
    all.set(r.lat, at);
    at += r.lat.length;
  }
  all.sort();
  return { requests, seconds, perSec: requests / seconds, p50: percentile(all, 50), p99: percentile(all, 99) };
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

/** One target: a Pool of CLIENTS keep-alive connections and the path to GET. */
interface Target {
  pool: Pool;
  path: string;
  /** Proxied answers must name their worker. */
  needWorkerId: boolean;
}

/** `n` GETs over CLIENTS concurrent loops; every answer must be 200 (and carry a worker id when asked). */
async function drive(t: Target, n: number): Promise<Round> {
  const lat = new Float64Array(n);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < n; i = next++) {
        const s = performance.now();
        const res = await t.pool.request({ method: "GET", path: t.path, headers: { authorization: `Bearer ${KEY}` } });
        const text = await res.body.text();
        lat[i] = performance.now() - s;
        if (res.statusCode !== 200) throw new Error(`${t.path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
        if (t.needWorkerId && typeof res.headers["x-service-worker-id"] !== "string") throw new Error("no X-Service-Worker-Id");
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, lat };
}

function directServer(): http.Server {
  const body = JSON.stringify({ method: "GET", path: "/hello", query: { x: "1" }, headers: {}, body: "" });
  return http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
}

function emulatorServer(): { server: http.Server; svc: ReturnType<typeof createServerlessService> } {
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
  return { server, svc };
}

async function main(): Promise<void> {
  const perRound = Math.ceil(REQUESTS / ROUNDS);
  console.log(
    `bench-lb: ${perRound * ROUNDS} GETs per target in ${ROUNDS} alternating rounds (after ${WARMUP} warm-up each), ` +
      `${CLIENTS} concurrent loops over ${CLIENTS} keep-alive connections (undici Pool), node ${process.version}`,
  );
  console.log(
    `endpoint: LOAD_BALANCER, built-in echo worker, workersMin=workersMax=${WORKERS} (warm: all healthy before timing), time scale 1`,
  );
  console.log(
    `limits: the lb route's rate and concurrency limits lifted through options (limits.lb = unlimited) for the bench's own traffic`,
  );

  const direct = directServer();
  const { server: emu, svc } = emulatorServer();
  const directUrl = await listen(direct);
  const emuUrl = await listen(emu);
  const targets: Record<"direct" | "lb", Target> = {
    direct: { pool: new Pool(directUrl, { connections: CLIENTS, pipelining: 1 }), path: "/hello?x=1", needWorkerId: false },
    lb: { pool: new Pool(emuUrl, { connections: CLIENTS, pipelining: 1 }), path: `/v2/${spec.id}/hello?x=1`, needWorkerId: true },
  };
  try {
    // Warm endpoint: wait until every worker passed its first health check.
    const deadline = Date.now() + 10_000;
    while (svc.workers(spec.id).filter((w) => w.status === "idle").length < WORKERS) {
      if (Date.now() > deadline) throw new Error(`workers did not become healthy: ${JSON.stringify(svc.workers(spec.id))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await drive(targets.direct, WARMUP);
    await drive(targets.lb, WARMUP);
    // Alternating rounds, so load from elsewhere on the machine hits both targets alike.
    const rounds: Record<"direct" | "lb", Round[]> = { direct: [], lb: [] };
    const ratios: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order: ("direct" | "lb")[] = r % 2 === 0 ? ["direct", "lb"] : ["lb", "direct"];
      for (const k of order) rounds[k].push(await drive(targets[k], perRound));
      const d = rounds.direct[r] as Round;
      const l = rounds.lb[r] as Round;
      ratios.push(d.seconds / l.seconds);
    }
    const d = summarize(rounds.direct);
    const l = summarize(rounds.lb);
    const row = (name: string, x: Result): string =>
      `${name.padEnd(36)} ${x.perSec.toFixed(0).padStart(7)} req/s   ${x.seconds.toFixed(2).padStart(6)} s   p50 ${x.p50.toFixed(2)} ms   p99 ${x.p99.toFixed(2)} ms`;
    console.log(row("direct (bare node:http, fixed JSON)", d));
    console.log(row("load-balancing endpoint (emulator)", l));
    const ratio = l.perSec / d.perSec;
    console.log(`lb / direct: ${(ratio * 100).toFixed(0)}% overall; per round: ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(" ")}`);
    console.log(`workers serving: ${svc.workers(spec.id).length}`);
    console.log(`goal >= 40% of direct: ${ratio >= 0.4 ? "met" : "NOT met"}`);
  } finally {
    await targets.direct.pool.close();
    await targets.lb.pool.close();
    await svc.close();
    await close(emu);
    await close(direct);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
