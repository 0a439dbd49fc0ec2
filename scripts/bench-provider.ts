/**
 * Benchmark of the provider through the real engine (prints figures; not a test).
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/bench-provider.js [--count 100] [--runs 5] [--api v1|v2] [--fresh]
 *
 * `--api` picks the management API the provider speaks (default v2, today's API; v1 the earlier one).
 * `--fresh` adds the fresh-process mode: each preview and no-change up of the three stacks runs in
 * a Node process of its own (scripts/bench-provider-op.ts), as a user's `pulumi preview` does.
 *
 * The package is measured as users install it: `npm pack` of this checkout installed into a project
 * outside the repo (scripts/lib/packedInstall.ts; run `npx tsc -p tsconfig.json` first, the pack
 * ships dist/). A program inside this repo serializes each resource's provider shim by value
 * (about 2 KB, twice per resource in state), where an installed copy stores a bare require.
 *
 * Against an in-process emulator (timeScale 0.01), on a temporary file backend, two paths to the
 * same resources, each against the same floor: the package's dynamic resources (the endpoints
 * stack) and the typed classes over the provider plugin (`pulumi-gpucloud/plugin` of the same
 * install, the plugin stack, its Pulumi.yaml naming the installed plugin):
 *   1. `pulumi up` creating a template and `count` endpoints, against the floor: the same number of
 *      no-op dynamic resources (a trivial in-file provider whose diff reports no changes).
 *   2. `pulumi preview` of that stack unchanged, side by side with the floor. Previews alternate
 *      between the stacks; the median of `runs` of each is reported, and the ratio.
 *   3. Where a preview's difference to the floor goes: a third stack of no-op resources that carry
 *      what an endpoint carries (its inputs and outputs as the endpoints stack recorded them, and a
 *      dependency on a first resource, as endpoints depend on their template) is previewed beside
 *      the two: the engine's and the SDK's work for those properties, without this provider.
 *      Also: loading the provider code into the provider process (which has @pulumi/pulumi loaded
 *      already), and `count` checks and diffs of an endpoint.
 *   4. `pulumi up` of the stacks unchanged (no-change up), alternating, medians of `runs`.
 *   5. `pulumi refresh` and, at the end, `pulumi destroy`. State bytes per endpoint on each path,
 *      split into the provider text, the inputs repeated as outputs and the cost estimate.
 *   6. Management API calls per resource for up, preview, refresh and destroy, and the 429s seen,
 *      counted by a small proxy between the provider and the emulator.
 * It ends with the goals (GOALS below), each met or MISSED.
 *
 * The machine may be shared: previews are timed `runs` times each, alternating, and both the
 * median and the best run are reported (the best is the least disturbed by other load).
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import * as repoAutomation from "@pulumi/pulumi/automation";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { dispatch } from "../provider/dispatch";
import {
  benchProgram,
  moduleOf,
  SHAPE_ENV,
  shapeOf,
  stackOf,
  type BenchProgram,
  type EndpointClasses,
  type Shape,
  type StackSpec,
} from "./lib/benchPrograms";
import { carriedPerEndpoint, type CarriedBytes } from "./lib/stateCarried";
import { countingProxy, type ProxiedCall } from "./lib/countingProxy";
import { installPackedCopy } from "./lib/packedInstall";
import { stateBytesPerKind, type KindBytes } from "./lib/stateBytes";
import { enginePath, ensurePulumiCli, type PulumiCli } from "./lib/pulumiCli";
import { repoRoot } from "./lib/repoRoot";
import { median } from "./lib/stats";
import { CACHE_DIR_ENV } from "../client/rateLimitMemory";

const API_KEY = "bench-provider-key";

/**
 * The goals: times against the bare floor and, for the provider's own overhead,
 * against the property-equivalent floor (no-op resources carrying what an endpoint carries);
 * management API calls per resource, 429s.
 */
const GOALS = {
  upRatio: 1.3,
  previewRatio: 1.1,
  pluginPreviewRatio: 1.05,
  upOverShaped: 1.1,
  previewOverShaped: 1.05,
  /**
   * A preview of unchanged resources calls the service only to prove the connection settings: one
   * read per API in use, once per provider process (model/connection.ts), whatever the resources.
   */
  previewCallsPerPreview: 1,
  refreshCallsPerResource: 1.2,
  tooManyRequests: 0,
} as const;

/**
 * State bytes per resource kind before the compact estimate (the estimate carried its price list, read times,
 * currency and notes, in the checked inputs and again in the outputs): scripts/state-bytes.ts run on
 * a build of commit 7f2819c (`--dist`), the last commit before it. Inputs plus outputs,
 * without the provider text; today's figures are measured in the run the same way.
 */
const STATE_BYTES_BEFORE: Record<"v1" | "v2", Record<string, number>> = {
  v1: { template: 172, endpoint: 711, pod: 1154, networkVolume: 650 },
  v2: { template: 188, endpoint: 1556, pod: 1622, networkVolume: 668 },
};

// ---------------------------------------------------------------- harness

interface BenchStack {
  stack: Stack;
  spec: StackSpec;
  timed(op: "up" | "preview" | "refresh" | "destroy", expectNoChanges?: boolean): Promise<number>;
}

/** Where a stack's program runs: a project with this checkout's node_modules, or the packed install's. */
interface ProjectDir {
  workDir: string;
  /** The automation API of the @pulumi/pulumi the program's resources use. */
  automation: Pick<typeof repoAutomation, "LocalWorkspace" | "PulumiCommand">;
  /** The provider plugin the project's Pulumi.yaml names (the plugin stack). */
  pluginDir?: string;
}

function stackSpec(cli: PulumiCli, base: string, name: string, project?: ProjectDir, env: Record<string, string> = {}): StackSpec {
  const stateDir = path.join(base, name, "state");
  const homeDir = path.join(base, name, "home");
  return {
    name,
    workDir: project?.workDir ?? path.join(base, name, "project"),
    stateDir,
    homeDir,
    cliRoot: path.dirname(cli.binDir),
    envVars: {
      PATH: enginePath(cli),
      PULUMI_HOME: homeDir,
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // The rate-limit record (client/rateLimitMemory.ts) in the run's own directory: an emulator on a
      // port an earlier run used must not start from that run's windows.
      [CACHE_DIR_ENV]: path.join(base, "cache"),
      ...env,
    },
    ...(project ? { projectDir: project.workDir } : {}),
    ...(project?.pluginDir ? { pluginDir: project.pluginDir } : {}),
  };
}

async function openStack(
  cli: PulumiCli,
  base: string,
  name: string,
  program: PulumiFn,
  config: Record<string, { value: string; secret?: boolean }>,
  project?: ProjectDir,
  env: Record<string, string> = {},
): Promise<BenchStack> {
  const spec = stackSpec(cli, base, name, project, env);
  for (const dir of [spec.workDir, spec.stateDir, spec.homeDir]) fs.mkdirSync(dir, { recursive: true });
  // The provider process resolves pulumi-gpucloud from its cwd, as from a user's project.
  if (!project) fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(spec.workDir, "node_modules"), "dir");
  const stack = await stackOf(spec, program, project?.automation ?? repoAutomation);
  await stack.setAllConfig(config);
  const log: string[] = [];
  const onOutput = (out: string): void => void log.push(out);
  return {
    stack,
    spec,
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
    const route = `${call.method} ${(call.path.split("?")[0] ?? "")
      .slice(apiPath.length)
      .replace(/\/(?=[a-z0-9]*[0-9])[a-z0-9]{10,}(?=\/|$)/g, "/{id}")}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return [...byRoute]
    .sort((a, b) => b[1] - a[1])
    .map(([route, n]) => `${route}: ${n}`)
    .join(", ");
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

/**
 * Milliseconds of one operation in a Node process of its own (scripts/bench-provider-op.ts), spawn
 * to exit. Waited for without blocking: the emulator the operation talks to runs in this process.
 */
async function freshOpMs(stack: BenchStack, program: BenchProgram, op: "preview" | "up", count: number, shape?: Shape): Promise<number> {
  const script = path.join(repoRoot(), "dist", "scripts", "bench-provider-op.js");
  const start = performance.now();
  const child = spawn(process.execPath, [script, JSON.stringify({ spec: stack.spec, program, op, count, ...(shape ? { shape } : {}) })], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`the fresh-process ${op} of the ${program} stack ended with code ${code}`);
  return performance.now() - start;
}

/**
 * The acceptance's fresh-process mode: each preview and each no-change up starts from a new Node
 * process, as a user's `pulumi preview` does (loading the SDK and the program anew), alternating
 * between the stacks; medians of `runs` of each, and the same ratios as above.
 */
async function freshProcessPhase(runs: number, count: number, stacks: Record<BenchProgram, BenchStack>, shape: Shape): Promise<void> {
  const programs: BenchProgram[] = ["endpoints", "plugin", "floor", "shaped"];
  console.log(
    "fresh-process mode: one operation per Node process (scripts/bench-provider-op.ts; spawn to exit, the program and SDK loaded anew each time)",
  );
  for (const op of ["preview", "up"] as const) {
    const times: Record<BenchProgram, number[]> = { endpoints: [], plugin: [], floor: [], shaped: [] };
    for (let i = 0; i < runs; i++)
      for (const p of programs) times[p].push(await freshOpMs(stacks[p], p, op, count, p === "shaped" ? shape : undefined));
    const m = (p: BenchProgram): number => median(times[p]);
    const bare = m("endpoints") / m("floor");
    const overShaped = m("endpoints") / m("shaped");
    const goalBare = op === "preview" ? GOALS.previewRatio : GOALS.upRatio;
    const goalShaped = op === "preview" ? GOALS.previewOverShaped : GOALS.upOverShaped;
    console.log(
      `  ${op} (unchanged), median of ${runs}: endpoints ${seconds(m("endpoints"))}, bare floor ${seconds(m("floor"))}, property-equivalent floor ${seconds(m("shaped"))}`,
    );
    console.log(
      `    ${bare.toFixed(2)}x the bare floor (goal: at most ${goalBare}x) -> ${bare <= goalBare ? "met" : "MISSED"}; the provider's overhead ${overShaped.toFixed(2)}x the property-equivalent floor (goal: at most ${goalShaped}x) -> ${overShaped <= goalShaped ? "met" : "MISSED"}`,
    );
    const plugin = m("plugin") / m("floor");
    const goalPlugin = op === "preview" ? GOALS.pluginPreviewRatio : GOALS.upRatio;
    console.log(
      `    the plugin path: ${seconds(m("plugin"))}, ${plugin.toFixed(2)}x the bare floor (goal: at most ${goalPlugin}x) -> ${plugin <= goalPlugin ? "met" : "MISSED"}`,
    );
  }
  console.log("");
}

/** State bytes per kind now against the figures recorded before the compact estimate (STATE_BYTES_BEFORE, commit 7f2819c). */
function printStateBytes(api: "v1" | "v2", now: readonly KindBytes[]): void {
  const before = STATE_BYTES_BEFORE[api];
  const rows = now.map((r) => {
    const was = before[r.kind];
    return `${r.kind} ${was ?? "?"} -> ${r.total} B${was ? ` (${(((r.total - was) / was) * 100).toFixed(0)}%)` : ""}`;
  });
  console.log(
    `  state bytes per resource (inputs + outputs, without the provider text), before the compact estimate -> now: ${rows.join("; ")}`,
  );
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "100" },
      runs: { type: "string", default: "5" },
      api: { type: "string", default: "v2" },
      fresh: { type: "boolean", default: false },
    },
    strict: true,
  });
  const count = Number(values.count);
  const runs = Number(values.runs);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1)
    throw new Error("--count and --runs must be positive integers");
  const api = values.api;
  if (api !== "v1" && api !== "v2") throw new Error(`--api must be v1 or v2 (got ${JSON.stringify(api)})`);

  const cli = ensurePulumiCli();
  // `count` endpoints of up to 3 workers each: the worker quota (default 30) would refuse the eleventh.
  const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [API_KEY], serverlessWorkerQuota: Number.MAX_SAFE_INTEGER });
  const proxy = await countingProxy(emulator.apiUrl);
  const apiPath = new URL(api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl).pathname;
  const resources = count + 1;
  const callsOf = (seen: CallCount): string => `${(seen.calls / resources).toFixed(2)} calls per resource, ${seen.tooMany} 429s`;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-bench-provider-"));
  console.log(
    `Pulumi CLI ${cli.version}, Node ${process.version}, ${os.cpus().length} CPUs; ${count} endpoints (+1 template) per stack, ${runs} previews each; management API ${api}\n`,
  );

  try {
    const config = {
      "gpucloud:apiUrl": { value: `${proxy.url}${apiPath}` },
      "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
      "gpucloud:apiKey": { value: API_KEY, secret: true },
    };
    const { projectDir } = installPackedCopy(path.join(base, "packed"));
    const installed = createRequire(path.join(projectDir, "index.js"));
    const packedProject: ProjectDir = {
      workDir: projectDir,
      automation: installed("@pulumi/pulumi/automation") as ProjectDir["automation"],
    };
    const endpointsStack = (which: "endpoints" | "plugin", project: ProjectDir): Promise<BenchStack> =>
      openStack(cli, base, which, benchProgram(which, count, installed(moduleOf(which)) as EndpointClasses), config, project);
    const endpoints = await endpointsStack("endpoints", packedProject);
    // The plugin stack: a project of its own (one Pulumi.yaml per project) on the same install.
    const pluginWorkDir = path.join(base, "plugin-project");
    fs.mkdirSync(pluginWorkDir, { recursive: true });
    fs.symlinkSync(path.join(projectDir, "node_modules"), path.join(pluginWorkDir, "node_modules"), "dir");
    const pluginDir = path.join(projectDir, "node_modules", "pulumi-gpucloud", "plugin");
    const plugin = await endpointsStack("plugin", { ...packedProject, workDir: pluginWorkDir, pluginDir });
    const floor = await openStack(cli, base, "floor", benchProgram("floor", count), {});

    proxy.take();
    const upEndpoints = await endpoints.timed("up");
    const upCallList = proxy.take();
    const upCalls = countOf(upCallList);
    const created = emulator.inspect().reduce((n, a) => n + a.endpoints.length, 0);
    if (created !== count) throw new Error(`expected ${count} endpoints in the emulator after up, found ${created}`);
    const upPlugin = await plugin.timed("up");
    const upPluginCalls = countOf(proxy.take());
    const upFloor = await floor.timed("up");
    const upRatio = upEndpoints / upFloor;
    console.log(`pulumi up, ${count} endpoints (+1 template) created on the emulator: ${seconds(upEndpoints)}`);
    console.log(
      `pulumi up, the same through the plugin's typed classes:           ${seconds(upPlugin)}; ${(upPlugin / upFloor).toFixed(2)}x the floor`,
    );
    console.log(`pulumi up, ${count} no-op dynamic resources (floor):                 ${seconds(upFloor)}; ratio ${upRatio.toFixed(2)}x`);
    console.log(
      `  management API during up: ${callsOf(upCalls)} (${routesOf(upCallList, apiPath)}); the plugin path: ${callsOf(upPluginCalls)}`,
    );
    const endpointState = await endpoints.stack.exportStack();
    const pluginState = await plugin.stack.exportStack();
    const bytesPerResource = (state: unknown) => (JSON.stringify(state).length / resources).toFixed(0);
    console.log(
      `  state per resource: ${bytesPerResource(endpointState)} B, the plugin path ${bytesPerResource(pluginState)} B (floor ${bytesPerResource(await floor.stack.exportStack())} B)`,
    );
    const carried = (c: CarriedBytes): string =>
      `${c.total} B: provider text ${c.providerText} B, inputs repeated as outputs ${c.inputsRepeated} B, cost estimate ${c.costEstimate} B`;
    console.log(`  per endpoint (inputs + outputs): dynamic ${carried(carriedPerEndpoint(endpointState))}`);
    console.log(`                                   plugin  ${carried(carriedPerEndpoint(pluginState))}`);

    printStateBytes(api, await stateBytesPerKind(path.join(repoRoot(), "dist"), api));

    const shape = shapeOf(endpointState);
    const shaped = await openStack(cli, base, "shaped", benchProgram("shaped", count, undefined, shape), {}, undefined, {
      [SHAPE_ENV]: JSON.stringify(shape.outputs),
    });
    const upShaped = await shaped.timed("up");
    console.log(
      `pulumi up, ${count} no-op resources carrying an endpoint's properties (+1): ${seconds(upShaped)}; ${(upShaped / upFloor).toFixed(2)}x the floor`,
    );
    const upOverShaped = upEndpoints / upShaped;
    console.log(`  the provider's overhead in up: ${upOverShaped.toFixed(2)}x the property-equivalent floor\n`);

    // One untimed preview each warms the file cache and the CLI binary.
    // Every preview's calls, per path (the floors make none): each one runs in a new provider process.
    const dynamicPreviewCalls: ProxiedCall[] = [];
    let pluginPreviewCalls = 0;
    await endpoints.timed("preview", true);
    dynamicPreviewCalls.push(...proxy.take());
    await plugin.timed("preview", true);
    proxy.take();
    await floor.timed("preview", true);
    await shaped.timed("preview", true);
    const endpointTimes: number[] = [];
    const pluginTimes: number[] = [];
    const floorTimes: number[] = [];
    const shapedTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      endpointTimes.push(await endpoints.timed("preview", true));
      dynamicPreviewCalls.push(...proxy.take());
      pluginTimes.push(await plugin.timed("preview", true));
      pluginPreviewCalls += proxy.take().length;
      floorTimes.push(await floor.timed("preview", true));
      shapedTimes.push(await shaped.timed("preview", true));
    }
    const previewCalls = countOf([...dynamicPreviewCalls, ...proxy.take()]);
    const previewCallsEach: CallCount = { calls: previewCalls.calls / (runs + 1), tooMany: previewCalls.tooMany };
    const e = median(endpointTimes);
    const f = median(floorTimes);
    const eBest = Math.min(...endpointTimes);
    const fBest = Math.min(...floorTimes);
    const previewRatio = e / f;
    console.log(
      `pulumi preview, ${count} unchanged endpoints: median ${seconds(e)}, best ${seconds(eBest)}  (runs: ${endpointTimes.map(seconds).join(", ")})`,
    );
    console.log(
      `pulumi preview, ${count} no-op resources:     median ${seconds(f)}, best ${seconds(fBest)}  (runs: ${floorTimes.map(seconds).join(", ")})`,
    );
    console.log(`ratio: median ${previewRatio.toFixed(2)}x, best ${(eBest / fBest).toFixed(2)}x the floor`);
    console.log(`  management API during a preview: ${callsOf(previewCallsEach)} (${previewCalls.calls} calls in ${runs + 1} previews)`);
    const shapedMedian = median(shapedTimes);
    console.log(
      `pulumi preview, ${count} no-op resources carrying an endpoint's properties: median ${seconds(shapedMedian)}, ${(shapedMedian / f).toFixed(2)}x the floor (runs: ${shapedTimes.map(seconds).join(", ")})`,
    );
    const previewOverShaped = e / shapedMedian;
    console.log(`  the provider's overhead in preview: ${previewOverShaped.toFixed(2)}x the property-equivalent floor (median)`);
    const p = median(pluginTimes);
    const pluginPreviewRatio = p / f;
    console.log(
      `pulumi preview, the same through the plugin's typed classes: median ${seconds(p)}, ${pluginPreviewRatio.toFixed(2)}x the floor (runs: ${pluginTimes.map(seconds).join(", ")}); management API: ${(pluginPreviewCalls / runs / resources).toFixed(2)} calls per resource`,
    );

    // No-change up, alternating, medians.
    const noChange: Record<"endpoints" | "plugin" | "floor", number[]> = { endpoints: [], plugin: [], floor: [] };
    proxy.take();
    for (let i = 0; i < runs; i++)
      for (const [name, stack] of [
        ["endpoints", endpoints],
        ["plugin", plugin],
        ["floor", floor],
      ] as const)
        noChange[name].push(await stack.timed("up"));
    const noChangeCalls = countOf(proxy.take());
    const nm = (name: keyof typeof noChange): number => median(noChange[name]);
    console.log(
      `pulumi up, unchanged, median of ${runs}: dynamic ${seconds(nm("endpoints"))} (${(nm("endpoints") / nm("floor")).toFixed(2)}x the floor), plugin ${seconds(nm("plugin"))} (${(nm("plugin") / nm("floor")).toFixed(2)}x), floor ${seconds(nm("floor"))}; management API: ${(noChangeCalls.calls / (2 * runs * resources)).toFixed(2)} calls per resource`,
    );
    const refreshEndpoints = await endpoints.timed("refresh");
    const refreshCalls = countOf(proxy.take());
    await plugin.timed("refresh");
    const refreshPluginCalls = countOf(proxy.take());
    console.log(`pulumi refresh through the plugin: management API ${callsOf(refreshPluginCalls)}`);
    const refreshFloor = await floor.timed("refresh");
    console.log(
      `pulumi refresh: ${seconds(refreshEndpoints)} (floor ${seconds(refreshFloor)}, ${(refreshEndpoints / refreshFloor).toFixed(2)}x); management API: ${callsOf(refreshCalls)}\n`,
    );

    const load = providerLoadMs();
    const perResource = await checkAndDiffMs(count);
    console.log("the provider's own share of a preview:");
    console.log(`  loading pulumi-gpucloud/provider into the provider process: ${load.toFixed(0)} ms (once per process)`);
    console.log(`  ${count} endpoint checks: ${perResource.check.toFixed(1)} ms; ${count} diffs: ${perResource.diff.toFixed(1)} ms`);
    console.log(
      `  preview difference to the floor: median ${((e - f) / 1000).toFixed(2)} s, best ${((eBest - fBest) / 1000).toFixed(2)} s;`,
    );
    console.log(
      `    of which the properties an endpoint carries (no-op resources with the same): ${((shapedMedian - f) / 1000).toFixed(2)} s; the rest, this provider: ${((e - shapedMedian) / 1000).toFixed(2)} s\n`,
    );

    if (values.fresh) await freshProcessPhase(runs, count, { endpoints, plugin, floor, shaped }, shape);

    proxy.take();
    const destroyEndpoints = await endpoints.timed("destroy");
    const destroyCalls = countOf(proxy.take());
    const destroyPlugin = await plugin.timed("destroy");
    const destroyPluginCalls = countOf(proxy.take());
    console.log(`pulumi destroy through the plugin: ${seconds(destroyPlugin)}; management API: ${callsOf(destroyPluginCalls)}`);
    await floor.timed("destroy");
    await shaped.timed("destroy");
    const left = emulator.inspect().reduce((n, a) => n + a.endpoints.length + a.templates.length, 0);
    console.log(
      `pulumi destroy, ${count} endpoints (+1 template): ${seconds(destroyEndpoints)}; left in the emulator: ${left}; management API: ${callsOf(destroyCalls)}\n`,
    );

    const perResourceOf = (seen: CallCount): string => (seen.calls / resources).toFixed(2);
    const tooMany = upCalls.tooMany + refreshCalls.tooMany + destroyCalls.tooMany;
    const verdict = (met: boolean): string => (met ? "met" : "MISSED");
    console.log(`goals (management API ${api}, ${resources} resources):`);
    console.log(`  up:      ${upRatio.toFixed(2)}x the floor (goal: at most ${GOALS.upRatio}x) -> ${verdict(upRatio <= GOALS.upRatio)}`);
    console.log(
      `  up, the provider's overhead: ${upOverShaped.toFixed(2)}x the property-equivalent floor (goal: at most ${GOALS.upOverShaped}x) -> ${verdict(upOverShaped <= GOALS.upOverShaped)}`,
    );
    console.log(
      `  preview, the provider's overhead: ${previewOverShaped.toFixed(2)}x the property-equivalent floor (goal: at most ${GOALS.previewOverShaped}x) -> ${verdict(previewOverShaped <= GOALS.previewOverShaped)}`,
    );
    if (
      upRatio > GOALS.upRatio ||
      previewRatio > GOALS.previewRatio ||
      upOverShaped > GOALS.upOverShaped ||
      previewOverShaped > GOALS.previewOverShaped
    ) {
      console.log(
        "  where a missed ratio goes (preview, median): the engine's work on what each resource carries (property-equivalent floor minus bare floor)",
      );
      console.log(
        `    ${((shapedMedian - f) / 1000).toFixed(2)} s; this provider (checks, diffs, loading its code: see "the provider's own share" above) ${((e - shapedMedian) / 1000).toFixed(2)} s`,
      );
    }
    console.log(
      `  preview: ${previewRatio.toFixed(2)}x the floor, median (goal: at most ${GOALS.previewRatio}x) -> ${verdict(previewRatio <= GOALS.previewRatio)}`,
    );
    console.log(
      `  preview through the plugin: ${pluginPreviewRatio.toFixed(2)}x the floor, median (goal: at most ${GOALS.pluginPreviewRatio}x) -> ${verdict(pluginPreviewRatio <= GOALS.pluginPreviewRatio)}`,
    );
    console.log(
      `  preview of unchanged resources: ${previewCallsEach.calls} calls per preview, the connection check (goal: at most ${GOALS.previewCallsPerPreview}, whatever the resources) -> ${verdict(previewCallsEach.calls <= GOALS.previewCallsPerPreview)}`,
    );
    console.log(
      `  refresh: ${perResourceOf(refreshCalls)} calls per resource (goal: at most ${GOALS.refreshCallsPerResource}) -> ${verdict(refreshCalls.calls / resources <= GOALS.refreshCallsPerResource)}`,
    );
    console.log(
      `  429s in up, refresh and destroy: ${tooMany} (goal: ${GOALS.tooManyRequests}) -> ${verdict(tooMany === GOALS.tooManyRequests)}`,
    );
    console.log(
      `  calls per resource: up ${perResourceOf(upCalls)}, preview ${perResourceOf(previewCallsEach)}, refresh ${perResourceOf(refreshCalls)}, destroy ${perResourceOf(destroyCalls)}`,
    );
    console.log(
      `  calls per resource through the plugin: up ${perResourceOf(upPluginCalls)}, preview ${(pluginPreviewCalls / runs / resources).toFixed(2)}, refresh ${perResourceOf(refreshPluginCalls)}, destroy ${perResourceOf(destroyPluginCalls)}`,
    );
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
