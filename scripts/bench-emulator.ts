/**
 * Benchmark of the emulator's management API (prints figures; not a test).
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/bench-emulator.js [requestsPerPhase] [rounds]
 *
 * Servers run in child processes so that the load generator (undici Pool, 64 connections,
 * loopback) does not share an event loop with them. Phases:
 *   - floor: a bare node:http server answering a fixed JSON body (the same bytes as GET pod)
 *   - GET /v1/pods/{id}, and GET /api/v2/pods/{id} (the same pod)
 *   - context for the creates: the bare server reading a POST body and answering the bytes of an endpoint
 *   - POST /v1/endpoints, and POST /api/v2/serverless (the same endpoint in v2 terms)
 * then, in a fresh emulator, RSS and heap after storing 100,000 network volumes (via HTTP).
 *
 * The machine may be shared and has few cores, so one pass of each phase is noisy: every phase runs
 * once per round, over many short rounds (after one round not counted), v1 and v2 back to back in
 * an order that alternates between rounds (v1 then v2, then v2 then v1), so that a slow stretch of
 * the machine falls on both. Each figure is the median over the rounds; v2 is compared to v1 by the
 * median of the per-round ratios (each from two phases that ran a second or two apart). Every
 * figure is also given as a ratio to the floor of the same run, since absolute numbers depend on
 * the machine. "server" µs/req is the server process's CPU time (user + system) per request: it
 * does not count time the server waited for a core, so it is the steadier measure of its cost when
 * the machine is busy. "client" is the same for the load generator, which shares the cores.
 *
 * Creates accumulate (each endpoint also lives on the job side), so v1 and v2 creates each go to an
 * emulator of their own: in every round both hold the same number of endpoints. The v2 rate limit
 * stays on (with quotas no phase reaches), so its cost is in the v2 figures.
 * Goals: >= 50% of the floor's throughput; v2 GET within 10% of v1; < 300 MB with 100,000 resources.
 * The v2 create has no throughput goal (there was one: within 10% of v1): the emulator serves
 * hundreds to thousands of creates a second, while the service lets one account make 60 management
 * requests a minute (its rate limit's example policy, the emulator's default), so no client can
 * tell a faster emulator create from a slower one. It is still measured, so that a regression by
 * an order of magnitude shows. (Each v2 create sums workers.max over the account's endpoints for
 * the worker quota, so its cost grows with the tens of thousands of endpoints this bench piles up.)
 */
import { type ChildProcess, fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { startEmulator } from "../emulator";
import { median } from "./lib/stats";

const CONNECTIONS = 64;
const API_KEY = "bench-key";

type ChildMessage = { kind: "ready"; origin: string } | { kind: "memory"; rss: number; heapUsed: number } | { kind: "cpu"; micros: number };

// ---------------------------------------------------------------- children (servers)

function answerQueries(): void {
  process.on("message", (message) => {
    if (message === "memory") {
      globalThis.gc?.();
      const usage = process.memoryUsage();
      process.send?.({ kind: "memory", rss: usage.rss, heapUsed: usage.heapUsed } satisfies ChildMessage);
    } else if (message === "cpu") {
      const usage = process.cpuUsage();
      process.send?.({ kind: "cpu", micros: usage.user + usage.system } satisfies ChildMessage);
    }
  });
}

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
    answerQueries();
    process.send?.({ kind: "ready", origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies ChildMessage);
  });
}

async function serveEmulator(): Promise<void> {
  const unreachable = 1_000_000_000;
  // Thousands of creates: the account's rate limit and worker quota are lifted (they would refuse
  // the creates long before the server's own throughput is measured).
  const emu = await startEmulator({
    port: 0,
    apiKeys: [API_KEY],
    bootDelayMs: 0,
    rateLimit: { perMinute: unreachable, perHour: unreachable, perDay: unreachable },
    serverlessWorkerQuota: unreachable,
  });
  answerQueries();
  process.send?.({ kind: "ready", origin: emu.apiUrl.replace(/\/v1$/, "") } satisfies ChildMessage);
}

// ---------------------------------------------------------------- parent (load)

interface Server {
  child: ChildProcess;
  origin: string;
}

function spawn(role: string, ...args: string[]): Promise<Server> {
  const child = fork(__filename, [role, ...args], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${role} server exited early (${String(code)})`)));
    child.on("message", (message: ChildMessage) => {
      if (message.kind === "ready") resolve({ child, origin: message.origin });
    });
  });
}

/** Asks a server child one question and waits for the answer of that kind. */
function ask<K extends "memory" | "cpu">(child: ChildProcess, kind: K): Promise<Extract<ChildMessage, { kind: K }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.kind !== kind) return;
      child.off("message", onMessage);
      resolve(message as Extract<ChildMessage, { kind: K }>);
    };
    child.on("message", onMessage);
    child.send(kind);
  });
}

interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: string;
  expect: number;
}

async function load(pool: Pool, total: number, next: () => RequestSpec): Promise<{ seconds: number; latencies: Float64Array }> {
  const latencies = new Float64Array(total);
  let issued = 0;
  const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < total) {
        const i = issued++;
        const spec = next();
        const t0 = performance.now();
        const res = await pool.request({
          method: spec.method,
          path: spec.path,
          headers,
          ...(spec.body === undefined ? {} : { body: spec.body }),
        });
        await res.body.arrayBuffer();
        latencies[i] = performance.now() - t0;
        if (res.statusCode !== spec.expect) throw new Error(`${spec.method} ${spec.path}: HTTP ${res.statusCode}`);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies };
}

/** One round of one phase. */
interface Sample {
  perSecond: number;
  p50: number;
  p99: number;
  /** Server CPU (user + system) per request, µs. */
  cpuMicros: number;
  /** The load generator's CPU per request, µs (it shares the machine's cores with the server). */
  clientMicros: number;
}

/** A phase: one kind of request to one server, run once per round on a pool kept across rounds. */
class Phase {
  readonly samples: Sample[] = [];
  private readonly pool: Pool;

  constructor(
    readonly name: string,
    /** Short name for the per-round lines. */
    readonly label: string,
    private readonly server: Server,
    readonly requests: number,
    private readonly next: () => RequestSpec,
  ) {
    this.pool = new Pool(server.origin, { connections: CONNECTIONS, pipelining: 1 });
  }

  /** One round's load, not recorded: JIT, connections, and the servers' first garbage collections. */
  async warmUp(): Promise<void> {
    await load(this.pool, this.requests, this.next);
  }

  async run(): Promise<Sample> {
    const cpuBefore = await ask(this.server.child, "cpu");
    const clientBefore = process.cpuUsage();
    const { seconds, latencies } = await load(this.pool, this.requests, this.next);
    const client = process.cpuUsage(clientBefore);
    const cpuAfter = await ask(this.server.child, "cpu");
    latencies.sort();
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    const sample = {
      perSecond: this.requests / seconds,
      p50: at(0.5),
      p99: at(0.99),
      cpuMicros: (cpuAfter.micros - cpuBefore.micros) / this.requests,
      clientMicros: (client.user + client.system) / this.requests,
    };
    this.samples.push(sample);
    return sample;
  }

  median(field: keyof Sample): number {
    return median(this.samples.map((s) => s[field]));
  }

  close(): Promise<void> {
    return this.pool.close();
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
const pct = (ratio: number) => `${(100 * ratio).toFixed(0)}%`;
const goal = (ok: boolean) => (ok ? "met" : "NOT met");

/** A template for v1 creates; the v1 and v2 create bodies of the same endpoint. */
async function createBodies(origin: string): Promise<{ v1: string; v2: string }> {
  const template = await call(origin, "POST", "/v1/templates", { name: "bench-worker", imageName: "example/worker:1", isServerless: true });
  const templateId = (JSON.parse(template.text) as { id: string }).id;
  return {
    v1: JSON.stringify({ templateId, name: "bench endpoint", gpuTypeIds: ["NVIDIA L4"], workersMax: 2 }),
    // ADA_24 minus the RTX 4090 is the L4 alone.
    v2: JSON.stringify({
      name: "bench endpoint",
      type: "QUEUE",
      image: "example/worker:1",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] },
      workers: { max: 2 },
    }),
  };
}

/** v2 against v1: the ratio of each round, and their median. */
function versus(v2: Phase, v1: Phase): { perRound: number[]; median: number } {
  const perRound = v2.samples.map((s, i) => s.perSecond / (v1.samples[i]?.perSecond ?? Number.NaN));
  return { perRound, median: median(perRound) };
}

async function main(): Promise<void> {
  // Creates as many as reads: a phase of creates must be long enough to take its share of the
  // garbage collections that the endpoints it stores bring on.
  const perPhase = Number(process.argv[2] ?? 10_000);
  const rounds = Number(process.argv[3] ?? 9);
  console.log(
    `bench-emulator: ${rounds} rounds of ${perPhase} requests per phase, ${CONNECTIONS} connections, node ${process.version}\n` +
      "(each round runs every phase once, v1 and v2 back to back in alternating order, after one round not counted;\n" +
      " figures are medians over the rounds)\n",
  );

  const reads = await spawn("emulator");
  const pod = await call(reads.origin, "POST", "/v1/pods", {
    name: "bench",
    imageName: "example/app:1",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
  });
  const podId = (JSON.parse(pod.text) as { id: string }).id;
  const podBody = (await call(reads.origin, "GET", `/v1/pods/${podId}`)).text;
  const v1Creates = await spawn("emulator");
  const v2Creates = await spawn("emulator");
  const v1Bodies = await createBodies(v1Creates.origin);
  const v2Bodies = await createBodies(v2Creates.origin);
  const sampleEndpoint = (await call(reads.origin, "POST", "/v1/endpoints", JSON.parse((await createBodies(reads.origin)).v1))).text;
  const floor = await spawn("floor", podBody, sampleEndpoint);

  const get = (path: string) => () => ({ method: "GET" as const, path, expect: 200 });
  const post = (path: string, body: string, expect: number) => () => ({ method: "POST" as const, path, body, expect });
  const floorGet = new Phase("floor: bare node:http, same body", "floor", floor, perPhase, get("/"));
  const getV1 = new Phase("GET /v1/pods/{id}", "v1 GET", reads, perPhase, get(`/v1/pods/${podId}`));
  const getV2 = new Phase("GET /api/v2/pods/{id}", "v2 GET", reads, perPhase, get(`/api/v2/pods/${podId}`));
  const floorPost = new Phase("(bare node:http, POST + same bytes)", "floor POST", floor, perPhase, post("/", v1Bodies.v1, 200));
  const postV1 = new Phase("POST /v1/endpoints", "v1 POST", v1Creates, perPhase, post("/v1/endpoints", v1Bodies.v1, 200));
  const postV2 = new Phase("POST /api/v2/serverless", "v2 POST", v2Creates, perPhase, post("/api/v2/serverless", v2Bodies.v2, 201));
  const phases = [floorGet, getV1, getV2, floorPost, postV1, postV2];

  for (const phase of phases) await phase.warmUp();
  for (let round = 0; round < rounds; round++) {
    const pairs = round % 2 === 0 ? [getV1, getV2, postV1, postV2] : [getV2, getV1, postV2, postV1];
    const order = [floorGet, pairs[0], pairs[1], floorPost, pairs[2], pairs[3]] as Phase[];
    const line: string[] = [];
    for (const phase of order) {
      const sample = await phase.run();
      line.push(`${phase.label} ${sample.perSecond.toFixed(0)}`);
    }
    console.log(`round ${round + 1}/${rounds}: ${line.join(", ")} req/s`);
  }
  for (const phase of phases) await phase.close();
  for (const server of [floor, reads, v1Creates, v2Creates]) server.child.kill();

  const floorRate = floorGet.median("perSecond");
  console.log("\nphase                                  req/s  (min-max over rounds)   p50 ms   p99 ms  µs/req: server client  vs floor");
  for (const phase of phases) {
    const rates = phase.samples.map((s) => s.perSecond);
    const spread = `(${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)})`;
    console.log(
      `${phase.name.padEnd(38)}${phase.median("perSecond").toFixed(0).padStart(6)}  ${spread.padEnd(22)}` +
        `${phase.median("p50").toFixed(2).padStart(8)}${phase.median("p99").toFixed(2).padStart(9)}` +
        `${phase.median("cpuMicros").toFixed(0).padStart(16)}${phase.median("clientMicros").toFixed(0).padStart(7)}${pct(phase.median("perSecond") / floorRate).padStart(10)}`,
    );
  }
  const gets = versus(getV2, getV1);
  const posts = versus(postV2, postV1);
  const rounded = (ratios: number[]) => ratios.map(pct).join(" ");
  console.log(
    `\nv2 / v1 per round (throughput): GET pod ${rounded(gets.perRound)}; POST create ${rounded(posts.perRound)}` +
      `\nv2 / v1 server CPU per request (medians): GET pod ${pct(getV2.median("cpuMicros") / getV1.median("cpuMicros"))}, ` +
      `POST create ${pct(postV2.median("cpuMicros") / postV1.median("cpuMicros"))}`,
  );

  // Memory: a fresh emulator, 100,000 network volumes stored through the API.
  const fresh = await spawn("emulator");
  const before = await ask(fresh.child, "memory");
  const count = 100_000;
  const pool = new Pool(fresh.origin, { connections: CONNECTIONS, pipelining: 1 });
  const t0 = performance.now();
  let volume = 0;
  await load(pool, count, () => {
    const i = volume++;
    return {
      method: "POST",
      path: "/v1/networkvolumes",
      body: JSON.stringify({ name: `volume-${i}`, size: 1 + (i % 4000), dataCenterId: "EU-RO-1" }),
      expect: 200,
    };
  });
  const insertSeconds = (performance.now() - t0) / 1000;
  await pool.close();
  const after = await ask(fresh.child, "memory");
  fresh.child.kill();
  console.log(
    `\nmemory with ${count} network volumes (inserted over HTTP in ${insertSeconds.toFixed(1)} s, ${(count / insertSeconds).toFixed(0)}/s):` +
      `\n  empty:  RSS ${mb(before.rss)}, heapUsed ${mb(before.heapUsed)}` +
      `\n  filled: RSS ${mb(after.rss)}, heapUsed ${mb(after.heapUsed)} (${((after.heapUsed - before.heapUsed) / count).toFixed(0)} bytes of heap per volume)`,
  );

  const ofFloor = (phase: Phase) => `${pct(phase.median("perSecond") / floorRate)} of floor`;
  const within = (ratio: number) => `${pct(ratio)} of v1 (median of ${rounds} rounds; within 10%: ${goal(ratio >= 0.9)})`;
  console.log(
    `\ngoals: GET pod ${ofFloor(getV1)} (>= 50%: ${goal(getV1.median("perSecond") >= floorRate / 2)}), ` +
      `POST endpoints ${ofFloor(postV1)} (${pct(postV1.median("perSecond") / floorPost.median("perSecond"))} of a bare POST server), ` +
      `RSS ${mb(after.rss)} with 100,000 resources (< 300 MB: ${goal(after.rss < 300 * 1024 * 1024)})` +
      `\n       v2 GET pod ${ofFloor(getV2)}, ${within(gets.median)}` +
      `\n       v2 POST serverless ${ofFloor(postV2)}, ${pct(posts.median)} of v1 (median of ${rounds} rounds; no goal: ` +
      `${postV2.median("perSecond").toFixed(0)} creates/s, where the service allows one account 60 requests a minute)`,
  );
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
