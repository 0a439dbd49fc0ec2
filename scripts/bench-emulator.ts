/**
 * Benchmark of the emulator's management API (prints figures; not a test).
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/bench-emulator.js [requestsPerPhase]
 *
 * Servers run in child processes so that the load generator (undici Pool, 64 connections,
 * loopback) does not share an event loop with them. Phases:
 *   1. floor: a bare node:http server answering a fixed JSON body (the same bytes as GET pod)
 *   2. GET /v1/pods/{id}, and GET /api/v2/pods/{id} (the same pod)
 *   3. POST /v1/endpoints, and POST /api/v2/serverless (the same endpoint in v2 terms, in an
 *      emulator of its own so that both start from an empty account)
 *   4. context for 3: the bare server reading a POST body and answering the bytes of an endpoint
 * then, in a fresh emulator, RSS and heap after storing 100,000 network volumes (via HTTP).
 * Every figure is also given as a ratio to the floor of the same run, since absolute numbers
 * depend on the machine. The v2 rate limit stays on (with quotas no phase reaches), so its cost
 * is in the v2 figures.
 * Goals: >= 50% of the floor's throughput; v2 within 10% of v1; < 300 MB with 100,000 resources.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { startEmulator } from "../emulator";

const CONNECTIONS = 64;
const API_KEY = "bench-key";

type ChildMessage =
  | { kind: "ready"; origin: string }
  | { kind: "memory"; rss: number; heapUsed: number };

// ---------------------------------------------------------------- children (servers)

async function serveFloor(getBody: string, postBody: string): Promise<void> {
  const answer = (res: import("node:http").ServerResponse, body: string) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    if (req.method !== "POST") return answer(res, getBody);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      answer(res, postBody);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => {
    process.send?.({ kind: "ready", origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies ChildMessage);
  });
}

async function serveEmulator(): Promise<void> {
  const unreachable = 1_000_000_000;
  const emu = await startEmulator({ port: 0, apiKeys: [API_KEY], bootDelayMs: 0, rateLimit: { perMinute: unreachable, perHour: unreachable, perDay: unreachable } });
  process.send?.({ kind: "ready", origin: emu.apiUrl.replace(/\/v1$/, "") } satisfies ChildMessage);
  process.on("message", (message) => {
    if (message === "memory") {
      globalThis.gc?.();
      const usage = process.memoryUsage();
      process.send?.({ kind: "memory", rss: usage.rss, heapUsed: usage.heapUsed } satisfies ChildMessage);
    }
  });
}

// ---------------------------------------------------------------- parent (load)

function spawn(role: string, ...args: string[]): Promise<{ child: ChildProcess; origin: string }> {
  const child = fork(__filename, [role, ...args], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${role} server exited early (${String(code)})`)));
    child.on("message", (message: ChildMessage) => {
      if (message.kind === "ready") resolve({ child, origin: message.origin });
    });
  });
}

function memoryOf(child: ChildProcess): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.kind !== "memory") return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.send("memory");
  });
}

interface PhaseResult {
  name: string;
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: string;
  expect: number;
}

async function load(pool: Pool, total: number, next: (i: number) => RequestSpec): Promise<{ seconds: number; latencies: Float64Array }> {
  const latencies = new Float64Array(total);
  let issued = 0;
  const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < total) {
        const i = issued++;
        const spec = next(i);
        const t0 = performance.now();
        const res = await pool.request({ method: spec.method, path: spec.path, headers, ...(spec.body === undefined ? {} : { body: spec.body }) });
        await res.body.arrayBuffer();
        latencies[i] = performance.now() - t0;
        if (res.statusCode !== spec.expect) throw new Error(`${spec.method} ${spec.path}: HTTP ${res.statusCode}`);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies };
}

async function phase(name: string, origin: string, total: number, next: (i: number) => RequestSpec): Promise<PhaseResult> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  try {
    await load(pool, Math.min(2000, total), next); // warm-up: JIT, connections
    const { seconds, latencies } = await load(pool, total, next);
    latencies.sort();
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return { name, requests: total, seconds, perSecond: total / seconds, p50: at(0.5), p99: at(0.99) };
  } finally {
    await pool.close();
  }
}

async function call(origin: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, text: await res.text() };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const perPhase = Number(process.argv[2] ?? 40_000);
  console.log(`bench-emulator: ${perPhase} requests per phase, ${CONNECTIONS} connections, node ${process.version}\n`);

  const emulator = await spawn("emulator");
  const pod = await call(emulator.origin, "POST", "/v1/pods", { name: "bench", imageName: "example/app:1", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] });
  const podId = (JSON.parse(pod.text) as { id: string }).id;
  const podBody = (await call(emulator.origin, "GET", `/v1/pods/${podId}`)).text;
  const template = await call(emulator.origin, "POST", "/v1/templates", { name: "bench-worker", imageName: "example/worker:1", isServerless: true });
  const templateId = (JSON.parse(template.text) as { id: string }).id;
  const endpointBody = JSON.stringify({ templateId, name: "bench endpoint", gpuTypeIds: ["NVIDIA L4"], workersMax: 2 });

  const v2EndpointBody = JSON.stringify({
    name: "bench endpoint",
    type: "QUEUE",
    image: "example/worker:1",
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] },
    workers: { max: 2 },
  });

  const sampleEndpoint = (await call(emulator.origin, "POST", "/v1/endpoints", JSON.parse(endpointBody))).text;
  const floor = await spawn("floor", podBody, sampleEndpoint);
  // Creates accumulate (each endpoint also lives on the job side), so the v2 create phase gets an
  // emulator of its own: it would otherwise pay for the v1 phase's endpoints, and not the other way.
  const emulatorForV2Creates = await spawn("emulator");
  const half = Math.floor(perPhase / 2);
  const get = (path: string) => () => ({ method: "GET" as const, path, expect: 200 });
  const post = (path: string, body: string, expect: number) => () => ({ method: "POST" as const, path, body, expect });
  const plan: Array<{ name: string; origin: string; total: number; next: (i: number) => RequestSpec }> = [
    { name: "floor: bare node:http, same body", origin: floor.origin, total: perPhase, next: get("/") },
    { name: "GET /v1/pods/{id}", origin: emulator.origin, total: perPhase, next: get(`/v1/pods/${podId}`) },
    { name: "GET /api/v2/pods/{id}", origin: emulator.origin, total: perPhase, next: get(`/api/v2/pods/${podId}`) },
    { name: "POST /v1/endpoints", origin: emulator.origin, total: half, next: post("/v1/endpoints", endpointBody, 200) },
    { name: "POST /api/v2/serverless", origin: emulatorForV2Creates.origin, total: half, next: post("/api/v2/serverless", v2EndpointBody, 201) },
    { name: "(bare node:http, POST + same bytes)", origin: floor.origin, total: half, next: post("/", endpointBody, 200) },
  ];
  const results: PhaseResult[] = [];
  for (const p of plan) results.push(await phase(p.name, p.origin, p.total, p.next));
  for (const server of [floor, emulator, emulatorForV2Creates]) server.child.kill();

  const [floorResult] = results;
  console.log("phase                                 requests   req/s     p50 ms   p99 ms   vs floor");
  for (const r of results) {
    const ratio = floorResult ? `${((100 * r.perSecond) / floorResult.perSecond).toFixed(0)}%` : "";
    console.log(
      `${r.name.padEnd(38)}${String(r.requests).padStart(8)}${r.perSecond.toFixed(0).padStart(8)}${r.p50.toFixed(2).padStart(10)}${r.p99.toFixed(2).padStart(9)}${ratio.padStart(11)}`,
    );
  }

  // Memory: a fresh emulator, 100,000 network volumes stored through the API.
  const fresh = await spawn("emulator");
  const before = await memoryOf(fresh.child);
  const count = 100_000;
  const pool = new Pool(fresh.origin, { connections: CONNECTIONS, pipelining: 1 });
  const t0 = performance.now();
  await load(pool, count, (i) => ({
    method: "POST",
    path: "/v1/networkvolumes",
    body: JSON.stringify({ name: `volume-${i}`, size: 1 + (i % 4000), dataCenterId: "EU-RO-1" }),
    expect: 200,
  }));
  const insertSeconds = (performance.now() - t0) / 1000;
  await pool.close();
  const after = await memoryOf(fresh.child);
  fresh.child.kill();
  console.log(
    `\nmemory with ${count} network volumes (inserted over HTTP in ${insertSeconds.toFixed(1)} s, ${(count / insertSeconds).toFixed(0)}/s):` +
      `\n  empty:  RSS ${mb(before.rss)}, heapUsed ${mb(before.heapUsed)}` +
      `\n  filled: RSS ${mb(after.rss)}, heapUsed ${mb(after.heapUsed)} (${((after.heapUsed - before.heapUsed) / count).toFixed(0)} bytes of heap per volume)`,
  );
  const [, getPod, getPodV2, postEndpoint, postServerless, postFloor] = results;
  if (floorResult && getPod && getPodV2 && postEndpoint && postServerless && postFloor) {
    const goal = (ok: boolean) => (ok ? "met" : "NOT met");
    const ofFloor = (r: PhaseResult) => `${((100 * r.perSecond) / floorResult.perSecond).toFixed(0)}% of floor`;
    const v2VsV1 = (v2: PhaseResult, v1: PhaseResult) => `${((100 * v2.perSecond) / v1.perSecond).toFixed(0)}% of v1 (within 10%: ${goal(v2.perSecond >= 0.9 * v1.perSecond)})`;
    console.log(
      `\ngoals: GET pod ${ofFloor(getPod)} (>= 50%: ${goal(getPod.perSecond >= floorResult.perSecond / 2)}), ` +
        `POST endpoints ${ofFloor(postEndpoint)} ` +
        `(${((100 * postEndpoint.perSecond) / postFloor.perSecond).toFixed(0)}% of a bare POST server), ` +
        `RSS ${mb(after.rss)} with 100,000 resources (< 300 MB: ${goal(after.rss < 300 * 1024 * 1024)})` +
        `\n       v2 GET pod ${ofFloor(getPodV2)}, ${v2VsV1(getPodV2, getPod)}; ` +
        `v2 POST serverless ${ofFloor(postServerless)}, ${v2VsV1(postServerless, postEndpoint)}`,
    );
  }
}

const role = process.argv[2];
if (role === "floor") void serveFloor(process.argv[3] ?? "{}", process.argv[4] ?? "{}");
else if (role === "emulator") void serveEmulator();
else
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
