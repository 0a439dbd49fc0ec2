/**
 * Benchmark of what each Pulumi operation pays to start this package (prints figures; not a test).
 *
 *   npm run build && npx node scripts/link-self.js && npx node dist/scripts/bench-startup.js [--runs 9] [--api v2|v1]
 *
 * Every `pulumi preview` or `up` starts two fresh Node processes that load this package: the
 * program's (which loads the SDK) and the provider's (the dynamic provider host, which loads the
 * provider code on the first call of a shim). Each is measured here in fresh Node processes, against
 * a floor measured in the same run, alternating between the three:
 *   - floor: a Node process that loads @pulumi/pulumi alone (both processes do that anyway);
 *   - program: @pulumi/pulumi, then the SDK (dist/sdk/index.js), as `import * as gpucloud` does;
 *   - provider: @pulumi/pulumi, then, as the dynamic provider host serves a preview of an unchanged
 *     endpoint, the endpoint's shim, `configure`, `check` and `diff` through it (the provider code
 *     is loaded by the shim's first call). The endpoint's recorded inputs and outputs come from a
 *     real create against an in-process emulator; its API goes through a counting proxy, so that a
 *     call the provider process makes is seen (a preview of an unchanged endpoint makes none).
 * For each: the modules loaded (this package's, zod's, undici's, the rest), the CPU time the process
 * used (process.cpuUsage: user + system, from its start; steadier than wall time on a loaded
 * machine) and the wall time from its start (performance.now()), medians of `runs` processes each,
 * and each as a ratio to the floor and its difference from it.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { countingProxy } from "./lib/countingProxy";
import { median } from "./lib/stats";
import { repoRoot } from "./lib/repoRoot";

const API_KEY = "bench-startup-key";

type Side = "floor" | "program" | "provider";
const SIDES: readonly Side[] = ["floor", "program", "provider"];

/** What one fresh process reports. */
interface Sample {
  modules: { ours: number; zod: number; undici: number; other: number };
  cpuMs: number;
  wallMs: number;
}

/** An endpoint as the engine holds it after an up: what check and diff are given at the next preview. */
interface RecordedEndpoint {
  config: Record<string, string>;
  /** The program's inputs (check's news, and its olds: unchanged). */
  inputs: Record<string, unknown>;
  /** The inputs check returned at the up (check's olds). */
  checked: Record<string, unknown>;
  id: string;
  /** The outputs create returned (diff's olds). */
  outputs: Record<string, unknown>;
}

/**
 * The code a fresh process runs: loads @pulumi/pulumi, then the side's part, then prints its
 * figures as JSON. Self-contained (`node -e`), so that nothing but what it names is loaded.
 */
function childScript(side: Side, root: string, endpoint: RecordedEndpoint): string {
  const pulumi = require.resolve("@pulumi/pulumi", { paths: [root] });
  const dist = path.join(root, "dist");
  const work =
    side === "program"
      ? `require(${JSON.stringify(path.join(dist, "sdk", "index.js"))});`
      : side === "provider"
        ? // As the dynamic provider host does: the shim from the serialized `require`, configure, then check and diff.
          `const shim = require("pulumi-gpucloud/provider/shims/endpoint");
           const e = ${JSON.stringify(endpoint)};
           await shim.configure({ config: { get: (key) => e.config[key] } });
           const checked = await shim.check(e.checked, e.inputs);
           if (checked.failures && checked.failures.length > 0) throw new Error("check failed: " + JSON.stringify(checked.failures));
           const diff = await shim.diff(e.id, e.outputs, { ...checked.inputs, __provider: e.inputs.__provider });
           if (diff.changes !== false) throw new Error("the unchanged endpoint has a diff: " + JSON.stringify(diff));`
        : "";
  return `(async () => {
    require(${JSON.stringify(pulumi)});
    ${work}
    const cpu = process.cpuUsage();
    const wallMs = performance.now();
    const modules = { ours: 0, zod: 0, undici: 0, other: 0 };
    for (const file of Object.keys(require.cache)) {
      if (file.startsWith(${JSON.stringify(dist + path.sep)})) modules.ours++;
      else if (file.includes("${path.sep}node_modules${path.sep}zod${path.sep}")) modules.zod++;
      else if (file.includes("${path.sep}node_modules${path.sep}undici${path.sep}")) modules.undici++;
      else modules.other++;
    }
    process.stdout.write(JSON.stringify({ modules, cpuMs: (cpu.user + cpu.system) / 1000, wallMs }));
  })().catch((e) => { console.error(e); process.exit(1); });`;
}

function sample(side: Side, root: string, endpoint: RecordedEndpoint): Sample {
  // The repository as the working directory: the shim's `require("pulumi-gpucloud/provider")` finds
  // the checkout through its self link (scripts/link-self.js), as an installed copy would be found.
  const out = execFileSync(process.execPath, ["-e", childScript(side, root, endpoint)], { cwd: root, encoding: "utf8" });
  return JSON.parse(out) as Sample;
}

/** Creates a template and an endpoint through the provider code, in this process, and returns the endpoint as the engine records it. */
async function recordEndpoint(apiUrl: string, serverlessUrl: string, proxiedApiUrl: string): Promise<RecordedEndpoint> {
  const { dispatch } = await import("../provider/dispatch");
  const provider = "require('pulumi-gpucloud/provider/shims/endpoint')";
  await dispatch({ k: "endpoint" }, "configure", [
    { config: { "gpucloud:apiUrl": apiUrl, "gpucloud:apiKey": API_KEY, "gpucloud:serverlessUrl": serverlessUrl } },
  ]);
  const created = async (kind: string, inputs: Record<string, unknown>) => {
    const check = (await dispatch({ k: kind }, "check", [{}, inputs])) as { inputs: Record<string, unknown>; failures?: unknown[] };
    if (check.failures?.length) throw new Error(`bench-startup: ${kind} check failed: ${JSON.stringify(check.failures)}`);
    const { id, outs } = (await dispatch({ k: kind }, "create", [check.inputs])) as { id: string; outs: Record<string, unknown> };
    return { checked: { ...check.inputs, __provider: provider }, id, outputs: { ...outs, __provider: provider } };
  };
  const template = await created("template", { name: "startup-worker", imageName: "example/echo-worker:1.0", isServerless: true });
  const inputs = {
    __provider: provider,
    name: "startup",
    templateId: template.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: 0,
    workersMax: 1,
  };
  const endpoint = await created("endpoint", inputs);
  const { closeClients } = await import("../model/connection");
  await closeClients();
  return {
    config: { "gpucloud:apiUrl": proxiedApiUrl, "gpucloud:apiKey": API_KEY, "gpucloud:serverlessUrl": serverlessUrl },
    inputs,
    ...endpoint,
  };
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

function againstFloor(value: number, floor: number): string {
  return `${(value / floor).toFixed(2)}x (+${Math.round(value - floor)} ms)`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "9" }, api: { type: "string", default: "v2" } } });
  const runs = Number(values.runs);
  const api = values.api === "v1" ? "v1" : "v2";
  const root = repoRoot();
  const emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [API_KEY] });
  const apiUrl = api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl;
  const proxy = await countingProxy(apiUrl);
  try {
    const endpoint = await recordEndpoint(apiUrl, emulator.serverlessUrl, `${proxy.url}${new URL(apiUrl).pathname}`);
    const samples: Record<Side, Sample[]> = { floor: [], program: [], provider: [] };
    // Alternating, so that a change in the machine's load falls on every side alike.
    for (let i = 0; i < runs; i++) for (const side of SIDES) samples[side].push(sample(side, root, endpoint));
    const calls = proxy.take();

    const m = (side: Side, pick: (s: Sample) => number): number => median(samples[side].map(pick));
    const floorCpu = m("floor", (s) => s.cpuMs);
    const floorWall = m("floor", (s) => s.wallMs);
    const floorModules = m("floor", (s) => s.modules.other);
    console.log(`startup cost per operation, management API ${api}, median of ${runs} fresh Node processes each`);
    console.log(`  floor (@pulumi/pulumi alone): ${floorModules} modules, CPU ${ms(floorCpu)}, wall ${ms(floorWall)}`);
    for (const side of ["program", "provider"] as const) {
      const mods = samples[side][0]?.modules ?? { ours: 0, zod: 0, undici: 0, other: 0 };
      const label = side === "program" ? "program (loads the SDK)" : "provider (check + diff of an unchanged endpoint)";
      console.log(`  ${label}:`);
      console.log(
        `    modules: ${mods.ours} of this package, ${mods.zod} of zod, ${mods.undici} of undici, ${mods.other - floorModules} others beyond the floor's`,
      );
      console.log(
        `    CPU ${ms(m(side, (s) => s.cpuMs))}: ${againstFloor(
          m(side, (s) => s.cpuMs),
          floorCpu,
        )} the floor; ` +
          `wall ${ms(m(side, (s) => s.wallMs))}: ${againstFloor(
            m(side, (s) => s.wallMs),
            floorWall,
          )} the floor`,
      );
    }
    console.log(`  management API calls from the provider processes: ${calls.length} (a preview of an unchanged endpoint makes none)`);
  } finally {
    await proxy.close();
    await emulator.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`bench-startup failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
