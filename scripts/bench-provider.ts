/**
 * Benchmark of the provider through the real engine (prints figures; not a test).
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/bench-provider.js [--count 100] [--runs 5] [--api v1|v2]
 *
 * `--api` picks the management API the provider speaks (default v2, today's API; v1 the earlier one).
 *
 * Against an in-process emulator (timeScale 0.01), on a temporary file backend:
 *   1. `pulumi up` creating a template and `count` endpoints, against the floor: the same number of
 *      no-op dynamic resources (a trivial in-file provider whose diff reports no changes).
 *   2. `pulumi preview` of that stack unchanged, side by side with the floor. Previews alternate
 *      between the two stacks; the median of `runs` of each is reported, and the ratio.
 *   3. `pulumi refresh` and, at the end, `pulumi destroy`.
 *   4. Where the provider's share of a preview goes: loading its code into the provider process
 *      (which has @pulumi/pulumi loaded already), and `count` checks and diffs of an endpoint.
 *   5. Management API calls per resource for up, preview, refresh and destroy, and the 429s seen,
 *      counted by a small proxy between the provider and the emulator.
 * It ends with the goals (GOALS below), each met or MISSED.
 *
 * The machine may be shared: previews are timed `runs` times each, alternating, and both the
 * median and the best run are reported (the best is the least disturbed by other load).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { dispatch } from "../provider/dispatch";
import { Endpoint, Template } from "../sdk";
import { countingProxy, type ProxiedCall } from "./lib/countingProxy";
import { enginePath, ensurePulumiCli, type PulumiCli } from "./lib/pulumiCli";
import { repoRoot } from "./lib/repoRoot";

const API_KEY = "bench-provider-key";

/** The goals (issue 13): times against the floor, management API calls per resource, 429s. */
const GOALS = {
  upRatio: 1.3,
  previewRatio: 1.15,
  previewCallsPerResource: 0,
  refreshCallsPerResource: 1.2,
  tooManyRequests: 0,
} as const;

// ---------------------------------------------------------------- the floor: a no-op dynamic resource

interface NoopInputs {
  name: string;
  templateId: string;
  workersMin: number;
  workersMax: number;
  gpuTypeIds: string[];
}

/** Everything a dynamic provider must do, and nothing more: create echoes, diff says "no changes". */
const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: NoopInputs) {
    return { id: `noop-${inputs.name}`, outs: inputs };
  },
  async diff() {
    return { changes: false };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: NoopInputs) {
    super(noopProvider, name, { ...args }, {}, "bench", "Noop");
  }
}

// ---------------------------------------------------------------- harness

interface BenchStack {
  stack: Stack;
  timed(op: "up" | "preview" | "refresh" | "destroy", expectNoChanges?: boolean): Promise<number>;
}

async function openStack(cli: PulumiCli, base: string, name: string, program: PulumiFn, config: Record<string, { value: string; secret?: boolean }>): Promise<BenchStack> {
  const workDir = path.join(base, name, "project");
  const stateDir = path.join(base, name, "state");
  const homeDir = path.join(base, name, "home");
  for (const dir of [workDir, stateDir, homeDir]) fs.mkdirSync(dir, { recursive: true });
  // The provider process resolves pulumi-gpucloud from its cwd, as from a user's project.
  fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(workDir, "node_modules"), "dir");
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: `bench-${name}`, stackName: "bench", program },
    {
      workDir,
      pulumiHome: homeDir,
      pulumiCommand: await PulumiCommand.get({ root: path.dirname(cli.binDir) }),
      envVars: {
        PATH: enginePath(cli),
        PULUMI_HOME: homeDir,
        PULUMI_BACKEND_URL: `file://${stateDir}`,
        PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
      projectSettings: { name: `bench-${name}`, runtime: "nodejs", backend: { url: `file://${stateDir}` } },
    },
  );
  await stack.setAllConfig(config);
  const log: string[] = [];
  const onOutput = (out: string): void => void log.push(out);
  return {
    stack,
    async timed(op, expectNoChanges = false) {
      log.length = 0;
      const start = performance.now();
      try {
        if (op === "up") await stack.up({ onOutput });
        else if (op === "preview") await stack.preview({ onOutput, expectNoChanges });
        else if (op === "refresh") await stack.refresh({ onOutput });
        else await stack.destroy({ onOutput });
      } catch (error) {
        process.stderr.write(log.join(""));
        throw error;
      }
      return performance.now() - start;
    },
  };
}

/** Management API calls of one operation, and the 429 answers among them. */
interface CallCount {
  calls: number;
  tooMany: number;
}

function countOf(calls: readonly ProxiedCall[]): CallCount {
  return { calls: calls.length, tooMany: calls.filter((c) => c.status === 429).length };
}

/** `POST /serverless: 100, GET /catalog/gpus: 1`: calls per route, ids folded into `{id}`, most first. */
function routesOf(calls: readonly ProxiedCall[], apiPath: string): string {
  const byRoute = new Map<string, number>();
  for (const call of calls) {
    const route = `${call.method} ${call.path.split("?")[0]!.slice(apiPath.length).replace(/\/(?=[a-z0-9]*[0-9])[a-z0-9]{10,}(?=\/|$)/g, "/{id}")}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return [...byRoute].sort((a, b) => b[1] - a[1]).map(([route, n]) => `${route}: ${n}`).join(", ");
}

/** Milliseconds to load the provider code in a fresh Node that already has @pulumi/pulumi (as the provider host does). */
function providerLoadMs(): number {
  const script =
    "require('@pulumi/pulumi'); const t = performance.now(); require('pulumi-gpucloud/provider'); " +
    "process.stdout.write(String(performance.now() - t));";
  const samples = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ["-e", script], { cwd: repoRoot(), encoding: "utf8" })));
  return Math.min(...samples);
}

/** Milliseconds for `count` checks and `count` diffs of an unchanged endpoint, through the same dispatch a shim uses. */
async function checkAndDiffMs(count: number): Promise<{ check: number; diff: number }> {
  const shim = { k: "endpoint" };
  const news = { __provider: "shim", templateId: "tpl", name: "ep", gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 3 };
  const olds = { ...news, endpointId: "ep-id", version: 0, createdAt: "2025-01-01T00:00:00.000Z" };
  let best = { check: Infinity, diff: Infinity };
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) await dispatch(shim, "check", [olds, news]);
    const t1 = performance.now();
    for (let i = 0; i < count; i++) await dispatch(shim, "diff", ["ep-id", olds, news]);
    const t2 = performance.now();
    best = { check: Math.min(best.check, t1 - t0), diff: Math.min(best.diff, t2 - t1) };
  }
  return best;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { count: { type: "string", default: "100" }, runs: { type: "string", default: "5" }, api: { type: "string", default: "v2" } },
    strict: true,
  });
  const count = Number(values.count);
  const runs = Number(values.runs);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1) throw new Error("--count and --runs must be positive integers");
  const api = values.api;
  if (api !== "v1" && api !== "v2") throw new Error(`--api must be v1 or v2 (got ${JSON.stringify(api)})`);

  const cli = ensurePulumiCli();
  const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [API_KEY] });
  const proxy = await countingProxy(emulator.apiUrl);
  const apiPath = new URL(api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl).pathname;
  const resources = count + 1;
  const callsOf = (seen: CallCount): string => `${(seen.calls / resources).toFixed(2)} calls per resource, ${seen.tooMany} 429s`;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-bench-provider-"));
  console.log(`Pulumi CLI ${cli.version}, Node ${process.version}, ${os.cpus().length} CPUs; ${count} endpoints (+1 template) per stack, ${runs} previews each; management API ${api}\n`);

  try {
    const config = {
      "gpucloud:apiUrl": { value: `${proxy.url}${apiPath}` },
      "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
      "gpucloud:apiKey": { value: API_KEY, secret: true },
    };
    const endpoints = await openStack(cli, base, "endpoints", async () => {
      const template = new Template("worker", { name: "bench-worker", imageName: "ghcr.io/acme/worker:1", isServerless: true });
      for (let i = 0; i < count; i++) {
        new Endpoint(`ep-${i}`, { templateId: template.id, gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 3 });
      }
    }, config);
    const floor = await openStack(cli, base, "floor", async () => {
      for (let i = 0; i < count; i++) {
        new Noop(`noop-${i}`, { name: `noop-${i}`, templateId: "tpl", workersMin: 0, workersMax: 3, gpuTypeIds: ["NVIDIA L4"] });
      }
    }, {});

    proxy.take();
    const upEndpoints = await endpoints.timed("up");
    const upCallList = proxy.take();
    const upCalls = countOf(upCallList);
    const created = emulator.inspect().reduce((n, a) => n + a.endpoints.length, 0);
    if (created !== count) throw new Error(`expected ${count} endpoints in the emulator after up, found ${created}`);
    const upFloor = await floor.timed("up");
    const upRatio = upEndpoints / upFloor;
    console.log(`pulumi up, ${count} endpoints (+1 template) created on the emulator: ${seconds(upEndpoints)}`);
    console.log(`pulumi up, ${count} no-op dynamic resources (floor):                 ${seconds(upFloor)}; ratio ${upRatio.toFixed(2)}x`);
    console.log(`  management API during up: ${callsOf(upCalls)} (${routesOf(upCallList, apiPath)})`);
    const stateBytes = async (s: BenchStack) => JSON.stringify(await s.stack.exportStack()).length / resources;
    console.log(`  state per resource: ${(await stateBytes(endpoints)).toFixed(0)} B (floor ${(await stateBytes(floor)).toFixed(0)} B)\n`);

    // One untimed preview each warms the file cache and the CLI binary.
    await endpoints.timed("preview", true);
    await floor.timed("preview", true);
    const endpointTimes: number[] = [];
    const floorTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      endpointTimes.push(await endpoints.timed("preview", true));
      floorTimes.push(await floor.timed("preview", true));
    }
    // Every preview's calls (the floor makes none): each one runs in a new provider process.
    const previewCalls = countOf(proxy.take());
    const previewCallsEach: CallCount = { calls: previewCalls.calls / (runs + 1), tooMany: previewCalls.tooMany };
    const e = median(endpointTimes);
    const f = median(floorTimes);
    const eBest = Math.min(...endpointTimes);
    const fBest = Math.min(...floorTimes);
    const previewRatio = e / f;
    console.log(`pulumi preview, ${count} unchanged endpoints: median ${seconds(e)}, best ${seconds(eBest)}  (runs: ${endpointTimes.map(seconds).join(", ")})`);
    console.log(`pulumi preview, ${count} no-op resources:     median ${seconds(f)}, best ${seconds(fBest)}  (runs: ${floorTimes.map(seconds).join(", ")})`);
    console.log(`ratio: median ${previewRatio.toFixed(2)}x, best ${(eBest / fBest).toFixed(2)}x the floor`);
    console.log(`  management API during a preview: ${callsOf(previewCallsEach)} (${previewCalls.calls} calls in ${runs + 1} previews)`);
    const refreshEndpoints = await endpoints.timed("refresh");
    const refreshCalls = countOf(proxy.take());
    const refreshFloor = await floor.timed("refresh");
    console.log(`pulumi refresh: ${seconds(refreshEndpoints)} (floor ${seconds(refreshFloor)}, ${(refreshEndpoints / refreshFloor).toFixed(2)}x); management API: ${callsOf(refreshCalls)}\n`);

    const load = providerLoadMs();
    const perResource = await checkAndDiffMs(count);
    console.log("the provider's own share of a preview:");
    console.log(`  loading pulumi-gpucloud/provider into the provider process: ${load.toFixed(0)} ms (once per process)`);
    console.log(`  ${count} endpoint checks: ${perResource.check.toFixed(1)} ms; ${count} diffs: ${perResource.diff.toFixed(1)} ms`);
    console.log(`  preview difference to the floor: median ${((e - f) / 1000).toFixed(2)} s, best ${((eBest - fBest) / 1000).toFixed(2)} s\n`);

    proxy.take();
    const destroyEndpoints = await endpoints.timed("destroy");
    const destroyCalls = countOf(proxy.take());
    await floor.timed("destroy");
    const left = emulator.inspect().reduce((n, a) => n + a.endpoints.length + a.templates.length, 0);
    console.log(`pulumi destroy, ${count} endpoints (+1 template): ${seconds(destroyEndpoints)}; left in the emulator: ${left}; management API: ${callsOf(destroyCalls)}\n`);

    const perResourceOf = (seen: CallCount): string => (seen.calls / resources).toFixed(2);
    const tooMany = upCalls.tooMany + refreshCalls.tooMany + destroyCalls.tooMany;
    const verdict = (met: boolean): string => (met ? "met" : "MISSED");
    console.log(`goals (management API ${api}, ${resources} resources):`);
    console.log(`  up:      ${upRatio.toFixed(2)}x the floor (goal: at most ${GOALS.upRatio}x) -> ${verdict(upRatio <= GOALS.upRatio)}`);
    console.log(`  preview: ${previewRatio.toFixed(2)}x the floor, median (goal: at most ${GOALS.previewRatio}x) -> ${verdict(previewRatio <= GOALS.previewRatio)}`);
    console.log(`  preview of unchanged resources: ${perResourceOf(previewCallsEach)} calls per resource (goal: ${GOALS.previewCallsPerResource}) -> ${verdict(previewCalls.calls === 0)}`);
    console.log(`  refresh: ${perResourceOf(refreshCalls)} calls per resource (goal: at most ${GOALS.refreshCallsPerResource}) -> ${verdict(refreshCalls.calls / resources <= GOALS.refreshCallsPerResource)}`);
    console.log(`  429s in up, refresh and destroy: ${tooMany} (goal: ${GOALS.tooManyRequests}) -> ${verdict(tooMany === GOALS.tooManyRequests)}`);
    console.log(`  calls per resource: up ${perResourceOf(upCalls)}, preview ${perResourceOf(previewCallsEach)}, refresh ${perResourceOf(refreshCalls)}, destroy ${perResourceOf(destroyCalls)}`);
  } finally {
    await proxy.close();
    await emulator.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`bench-provider failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
