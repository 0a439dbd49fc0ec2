/**
 * The stateful fuzzer of the management API v2 against an emulator in a child process (its own
 * event loop, the loopback between them), printing its figures and every finding; not a test
 * (test/emulator/management/v2/v2-stateful-fuzz.test.ts runs a smaller seeded run).
 *
 *   npm run build && npx node dist/scripts/bench-fuzz-v2.js [--requests 5600] [--seed 20261202]
 *                    [--concurrency 1] [--slow-ms 1000]
 *
 * The fuzzer reads the emulator's own description (`GET /api/v2/openapi.json`) and sends seeded
 * requests, valid and not, linking the ids that creates and lists answer to later reads, changes
 * and deletes (scripts/lib/fuzzV2/). Findings: a 5xx, a status the description does not document
 * for the operation, a request slower than --slow-ms, a request with no answer. The rate limit is
 * off (the stream is far faster than any account may send). Exit code 1 when there is a finding.
 */
import { startEmulatorChild } from "./lib/emulatorCli";
import { type Finding, type FuzzReport, runFuzzV2 } from "./lib/fuzzV2/run";

const API_KEY = "bench-fuzz-v2-key";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${process.argv[at + 1]}`);
  return value;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function print(report: FuzzReport, slowMs: number): void {
  const ops = Object.entries(report.byOperation);
  const reached = ops.filter(([, t]) => t.sent > 0).length;
  const succeeded = ops.filter(([, t]) => t.ok > 0).length;
  const lat = report.latenciesMs;
  const counts = (findings: Finding[]) => {
    const by: Record<string, number> = {};
    for (const f of findings) by[f.kind] = (by[f.kind] ?? 0) + 1;
    return by;
  };
  console.log(
    `seed ${report.seed}: ${report.requests} requests over ${report.operations} operations in ${(report.wallMs / 1000).toFixed(1)} s`,
  );
  console.log(`  ${(report.requests / (report.wallMs / 1000)).toFixed(0)} requests/s`);
  console.log(`  operations reached ${reached}/${ops.length}, answered 2xx at least once ${succeeded}/${ops.length}`);
  console.log(`  linked requests (every path id from an earlier answer): ${report.linked.sent}, of them 2xx: ${report.linked.ok}`);
  console.log(`  by status ${JSON.stringify(report.byStatus)}`);
  console.log(`  by kind ${JSON.stringify(report.byKind)}`);
  console.log(
    `  latency ms: p50 ${percentile(lat, 50).toFixed(2)}, p99 ${percentile(lat, 99).toFixed(2)}, max ${(lat[lat.length - 1] ?? 0).toFixed(1)} (findings above ${slowMs})`,
  );
  console.log(`  findings: ${report.findings.length} ${JSON.stringify(counts(report.findings))}`);
  const never = ops.filter(([, t]) => t.ok === 0).map(([id]) => id);
  if (never.length > 0) console.log(`  never answered 2xx: ${never.join(", ")}`);
  // One line per kind, operation and status, with its first request.
  const seen = new Map<string, { first: Finding; n: number }>();
  for (const f of report.findings) {
    const key = `${f.kind} ${f.operation} ${f.status ?? "-"}`;
    const entry = seen.get(key);
    if (entry) entry.n++;
    else seen.set(key, { first: f, n: 1 });
  }
  for (const [key, { first, n }] of seen) console.log(`  ${key} x${n}: ${first.request} (${first.ms} ms) ${first.detail.slice(0, 200)}`);
}

async function main(): Promise<void> {
  const requests = flag("requests", 5_600);
  const seed = flag("seed", 20_261_202);
  const concurrency = flag("concurrency", 1);
  const slowMs = flag("slow-ms", 1_000);
  const emulator = await startEmulatorChild({ apiKeys: [API_KEY], extraArgs: ["--rate-limit", "off"] });
  try {
    const report = await runFuzzV2({ baseUrl: emulator.apiUrlV2, apiKey: API_KEY, seed, requests, concurrency, slowMs });
    print(report, slowMs);
    process.exitCode = report.findings.length > 0 ? 1 : 0;
  } finally {
    await emulator.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 2;
});
