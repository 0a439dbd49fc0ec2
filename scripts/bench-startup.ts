/**
 * Benchmark of what each Pulumi operation pays to start this package (prints figures; not a test).
 *
 *   npm run build && npx node scripts/link-self.js && npx node dist/scripts/bench-startup.js [--runs 9] [--api v2|v1]
 *
 * Every `pulumi preview` or `up` starts two fresh Node processes that load this package: the
 * program's (which loads the SDK) and the provider's: the dynamic provider host, which loads the
 * provider code on the first call of a shim, or, for the typed classes over the plugin, the plugin's
 * own process (scripts/lib/pluginProbe.ts: configure, check and diff of the same endpoint over gRPC,
 * as the engine sends them; it loads no @pulumi/pulumi, so it may cost less than the floor). Each is measured in fresh Node processes
 * (scripts/lib/startupProbe.ts), against a floor measured in the same run, alternating between the
 * three: the floor loads @pulumi/pulumi alone; the program's loads the SDK after it; the provider's
 * serves `configure`, `check` and `diff` of an unchanged endpoint through its shim, as the dynamic
 * provider host does for a preview. The endpoint's recorded inputs and outputs come from a real
 * create against an in-process emulator; the provider processes reach its API through a counting
 * proxy, so that any call they make is seen (a preview of an unchanged endpoint makes one, the
 * connection check).
 *
 * For each: the modules loaded (this package's, zod's, undici's, the rest beyond the floor's), the
 * CPU time the process used (process.cpuUsage, user + system, from its start: steadier than wall
 * time on a loaded machine) and the wall time from its start (performance.now()), medians of `runs`
 * processes each, each as a ratio to the floor and its difference from it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { CACHE_DIR_ENV } from "../client/rateLimitMemory";
import { startEmulator } from "../emulator";
import { countingProxy } from "./lib/countingProxy";
import { repoRoot } from "./lib/repoRoot";
import { probePlugin } from "./lib/pluginProbe";
import { moduleCounts, probeStartup, recordEndpoint, type StartupSample, type StartupSide } from "./lib/startupProbe";
import { median } from "./lib/stats";

const API_KEY = "bench-startup-key";
/** The startup probe's sides, and the plugin's process. */
type Side = StartupSide | "plugin";
const SIDES: readonly Side[] = ["floor", "program", "provider", "plugin"];

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

function againstFloor(value: number, floor: number): string {
  const more = Math.round(value - floor);
  return `${(value / floor).toFixed(2)}x (${more >= 0 ? "+" : ""}${more} ms)`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "9" }, api: { type: "string", default: "v2" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of 1 or more, not ${values.runs}`);
  if (values.api !== "v1" && values.api !== "v2") throw new Error(`--api must be v1 or v2, not ${values.api}`);
  const api = values.api;
  const root = repoRoot();
  // The emulator's rate-limit record (client/rateLimitMemory.ts) in the run's own directory, not the user's cache.
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-bench-startup-"));
  process.env[CACHE_DIR_ENV] = cache;
  const emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [API_KEY] });
  const apiUrl = api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl;
  const proxy = await countingProxy(apiUrl);
  try {
    const endpoint = await recordEndpoint({
      apiUrl,
      apiKey: API_KEY,
      serverlessUrl: emulator.serverlessUrl,
      previewApiUrl: `${proxy.url}${new URL(apiUrl).pathname}`,
    });
    const samples: Record<Side, StartupSample[]> = { floor: [], program: [], provider: [], plugin: [] };
    const probe = (side: Side): Promise<StartupSample> =>
      side === "plugin" ? probePlugin(root, endpoint) : probeStartup(side, root, endpoint);
    // Alternating, so that a change in the machine's load falls on every side alike.
    for (let i = 0; i < runs; i++) for (const side of SIDES) samples[side].push(await probe(side));
    const calls = proxy.take();

    const m = (side: Side, pick: (s: StartupSample) => number): number => median(samples[side].map(pick));
    const floorCpu = m("floor", (s) => s.cpuMs);
    const floorWall = m("floor", (s) => s.wallMs);
    const floorModules = m("floor", (s) => s.modules.length);
    console.log(`startup cost per operation, management API ${api}, median of ${runs} fresh Node processes each`);
    console.log(`  floor (@pulumi/pulumi alone): ${floorModules} modules, CPU ${ms(floorCpu)}, wall ${ms(floorWall)}`);
    const labels = {
      program: "program (loads the SDK)",
      provider: "provider, dynamic host (check + diff of an unchanged endpoint)",
      plugin: "provider plugin's process (configure + check + diff of the same endpoint; no @pulumi/pulumi)",
    } as const;
    for (const side of ["program", "provider", "plugin"] as const) {
      const mods = moduleCounts(samples[side][0] ?? { modules: [], cpuMs: 0, wallMs: 0 }, root);
      console.log(`  ${labels[side]}:`);
      const others = side === "plugin" ? `${mods.other} others` : `${mods.other - floorModules} others beyond the floor's`;
      console.log(`    modules: ${mods.ours} of this package, ${mods.zod} of zod, ${mods.undici} of undici, ${others}`);
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
    console.log(
      `  management API calls from the ${2 * runs} provider processes: ${calls.length} (a preview makes one, the connection check)`,
    );
  } finally {
    await proxy.close();
    await emulator.close();
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`bench-startup failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
