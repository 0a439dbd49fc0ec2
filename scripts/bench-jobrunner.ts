/**
 * Benchmark of the job-running paths the package adds on top of the job API (prints figures; not a
 * test). Runs against the emulator at timeScale 1, so service times are real milliseconds.
 *
 * 1. Smoke-test overhead: what a JobRunner case costs beyond the job's own execution time. The case
 *    runner (provider/smoke/runCase.ts `runQueueCase`, i.e. /runsync then /status-sync if needed,
 *    plus the verdict) runs N times, one after another, against a warm endpoint (workersMin 1);
 *    overhead = wall time - the job's executionTime as the service reports it. Beside it, a bare
 *    `JobClient.runSync` and a raw undici POST /runsync (no schema, no transport): the floors.
 *    Goal: median overhead < 100 ms.
 * 2. Rate-limit burst: 2,000 `JobClient.run` calls at once against the emulator's default limits
 *    (/run: 1000 per 10 s per endpoint, 200 in flight). The burst must hit 429s and the shared
 *    transport's backoff (honouring Retry-After) must absorb them: every submission succeeds.
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/bench-jobrunner.js [runs=200] [burst=2000]
 */
import { Pool } from "undici";
import { startEmulator, type RunningEmulator } from "../emulator";
import { ManagementClient } from "../client/management";
import { runQueueCase } from "../provider/smoke/runCase";
import { JobClient, type JobRetryInfo } from "../client/jobClient";

const RUNS = Number(process.argv[2] ?? 200);
const BURST = Number(process.argv[3] ?? 2_000);
const WARMUP = 20;
const JOB_DELAY_MS = 50;

interface Summary {
  median: number;
  p95: number;
  min: number;
  max: number;
}

function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

const ms = (v: number): string => `${v.toFixed(1)} ms`;

function row(label: string, s: Summary): string {
  return `  ${label.padEnd(48)} median ${ms(s.median).padStart(9)}   p95 ${ms(s.p95).padStart(9)}   min ${ms(s.min).padStart(9)}   max ${ms(s.max).padStart(9)}`;
}

/** A serverless template and an endpoint with warm workers; resolves once they are ready. */
async function warmEndpoint(emu: RunningEmulator, management: ManagementClient, name: string, workers: number): Promise<string> {
  const template = await management.createTemplate({ name: `${name}-worker`, imageName: "bench/echo:1.0", isServerless: true });
  const endpoint = await management.createEndpoint({
    name,
    templateId: template.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: workers,
    workersMax: workers,
    idleTimeout: 3_600,
  });
  const jobs = new JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const health = await jobs.health(endpoint.id);
      if (health.workers.ready >= workers) return endpoint.id;
      if (Date.now() > deadline) throw new Error(`endpoint ${endpoint.id} has no warm workers: ${JSON.stringify(health.workers)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await jobs.close();
  }
}

/** Runs `fn` WARMUP times unmeasured, then RUNS times one after another; returns per-run figures. */
async function sequential<T>(fn: () => Promise<T>, measure: (result: T, wallMs: number) => number): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await fn();
    out.push(measure(result, performance.now() - started));
  }
  return out;
}

async function benchOverhead(emu: RunningEmulator, endpointId: string): Promise<void> {
  const client = new JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
  const raw = new Pool(new URL(emu.serverlessUrl).origin, { connections: 1 });
  const rawPath = `${new URL(emu.serverlessUrl).pathname}/${endpointId}/runsync?wait=60000`;
  const input = { delayMs: JOB_DELAY_MS };
  try {
    const queueDelays: number[] = [];
    const caseWall: number[] = [];
    const caseOverhead = await sequential(
      () => runQueueCase(client, endpointId, { name: "bench", input, expect: { status: "COMPLETED" }, timeoutSeconds: 60 }),
      (result, wall) => {
        if (!result.passed) throw new Error(`case failed: ${result.problems.join("; ")}`);
        queueDelays.push(result.delayTime ?? NaN);
        caseWall.push(wall);
        return wall - (result.executionTime ?? NaN);
      },
    );
    const clientOverhead = await sequential(
      () => client.runSync(endpointId, { input }, { waitMs: 60_000 }),
      (record, wall) => {
        if (record.status !== "COMPLETED") throw new Error(`job ended ${record.status}`);
        return wall - (record.executionTime ?? NaN);
      },
    );
    const rawOverhead = await sequential(
      async () => {
        const res = await raw.request({
          method: "POST",
          path: rawPath,
          headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ input }),
        });
        return (await res.body.json()) as { status: string; executionTime?: number };
      },
      (record, wall) => {
        if (record.status !== "COMPLETED") throw new Error(`job ended ${record.status}`);
        return wall - (record.executionTime ?? NaN);
      },
    );

    const overhead = summarize(caseOverhead);
    console.log(
      `\n1. JobRunner case overhead beyond the job's execution time (runsync path, job delayMs ${JOB_DELAY_MS}, ${RUNS} runs, warm worker)`,
    );
    console.log(row("runQueueCase: wall time", summarize(caseWall)));
    console.log(row("runQueueCase: wall - executionTime", overhead));
    console.log(row("  of which queue delay (delayTime)", summarize(queueDelays)));
    console.log(row("JobClient.runSync: wall - executionTime", summarize(clientOverhead)));
    console.log(row("raw undici POST /runsync: wall - executionTime", summarize(rawOverhead)));
    console.log(`  goal median < 100 ms: ${overhead.median < 100 ? "met" : "NOT met"} (${ms(overhead.median)})`);
  } finally {
    await Promise.all([client.close(), raw.close()]);
  }
}

async function benchBurst(emu: RunningEmulator, endpointId: string): Promise<void> {
  const retries: JobRetryInfo[] = [];
  const client = new JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl, onRetry: (info) => retries.push(info) });
  try {
    const started = performance.now();
    const settled = await Promise.allSettled(
      Array.from({ length: BURST }, (_, i) => client.run(endpointId, { input: { delayMs: 0, n: i } })),
    );
    const elapsed = performance.now() - started;
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    const ids = new Set(settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.id] : [])));
    const rateLimited = retries.filter((r) => r.error.status === 429);
    const waits = summarize(rateLimited.map((r) => r.delayMs));
    const maxAttempt = retries.reduce((m, r) => Math.max(m, r.attempt), 0);

    // Every accepted job really is on the endpoint: wait for the queue to drain, then count.
    const deadline = Date.now() + 60_000;
    let health = await client.health(endpointId);
    while (health.jobs.inQueue + health.jobs.inProgress > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      health = await client.health(endpointId);
    }

    console.log(`\n2. Burst of ${BURST} JobClient.run calls at once (emulator default limits: /run 1000 per 10 s, 200 in flight)`);
    console.log(`  elapsed                      ${(elapsed / 1000).toFixed(2)} s`);
    console.log(
      `  429 answers retried          ${rateLimited.length} (other retries: ${retries.length - rateLimited.length}; most attempts for one call: ${maxAttempt + 1})`,
    );
    if (rateLimited.length > 0) console.log(row("backoff wait per 429 (Retry-After honoured)", waits));
    console.log(`  failed submissions           ${failed.length}${failed[0] ? ` (first: ${String(failed[0].reason)})` : ""}`);
    console.log(`  distinct job ids             ${ids.size}`);
    console.log(
      `  jobs the endpoint completed  ${health.jobs.completed} (failed ${health.jobs.failed}, still queued ${health.jobs.inQueue + health.jobs.inProgress})`,
    );
    console.log(`  goal 0 failed with 429s seen: ${failed.length === 0 && rateLimited.length > 0 ? "met" : "NOT met"}`);
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const emu = await startEmulator({ timeScale: 1 });
  const management = new ManagementClient({ baseUrl: emu.apiUrl, apiKey: emu.apiKey });
  try {
    console.log(`bench-jobrunner: emulator at ${emu.apiUrl}, timeScale 1, Node ${process.version}`);
    const [smokeEndpoint, burstEndpoint] = await Promise.all([
      warmEndpoint(emu, management, "bench-smoke", 1),
      warmEndpoint(emu, management, "bench-burst", 2),
    ]);
    await benchOverhead(emu, smokeEndpoint);
    await benchBurst(emu, burstEndpoint);
  } finally {
    await management.close();
    await emu.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
