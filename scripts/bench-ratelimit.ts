/**
 * Benchmark of a large stack at the service's own rate limit (prints figures; not a test).
 *
 *   npm run build && npx node dist/scripts/bench-ratelimit.js [--count 200] [--api v2|v1] [--time-scale 0.2]
 *
 * `up`, `refresh` and `destroy` of `count` resources (templates, network volumes, endpoints, pods:
 * scripts/lib/rateLimitStack.ts) through the real engine, with the package installed from `npm pack`
 * as users install it, against an in-process emulator under its default rate-limit policy, the
 * reference's example: 60 management calls a minute, 3000 an hour, 50000 a day, counted in service
 * time. The time scale makes a service minute last `60 x scale` real seconds; it is not lower by
 * default because the RateLimit headers state their waits in whole (real) seconds: under a minute
 * window of a few real seconds, rounding each wait up to the next second would be what the figures
 * measure.
 *
 * Per operation it prints the management calls (counted by a proxy between the provider and the
 * emulator), calls per resource, the bound (the calls divided by the allowed rate, in service
 * time), the service time they took (the emulator's clock, from the first call's arrival to the last
 * answer; the whole operation's is printed beside it), the ratio of the two, and the 429s. It ends
 * with the goals (at most 1.15x the bound, no 429) met or MISSED. Each operation starts a new provider
 * process, which starts from the windows the previous one left (client/rateLimitMemory.ts; the run
 * keeps that record in its own temporary directory): a 429 on an operation's first call counts as
 * any other.
 *
 * v1 sends no RateLimit headers and the emulator does not limit it (as the live v1 did not): there
 * the bound is what the same calls would take under the v2 policy, for comparison.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type * as repoAutomation from "@pulumi/pulumi/automation";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import type * as sdk from "../sdk";
import { countingProxy } from "./lib/countingProxy";
import { installPackedCopy } from "./lib/packedInstall";
import { fileBackend } from "./lib/fileBackend";
import { CACHE_DIR_ENV } from "../client/rateLimitMemory";
import { ensurePulumiCli } from "./lib/pulumiCli";
import { DEFAULT_POLICY, SERVICE_TIME_GOAL, declareMixedStack, judge, routesOf, type RateLimitedRun } from "./lib/rateLimitStack";

const API_KEY = "bench-ratelimit-key";

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "200" },
      api: { type: "string", default: "v2" },
      "time-scale": { type: "string", default: "0.2" },
    },
    strict: true,
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--count must be a positive integer (got ${JSON.stringify(values.count)})`);
  const api = values.api;
  if (api !== "v1" && api !== "v2") throw new Error(`--api must be v1 or v2 (got ${JSON.stringify(api)})`);
  const timeScale = Number(values["time-scale"]);
  if (!(timeScale > 0 && timeScale <= 1)) throw new Error(`--time-scale must be in (0, 1] (got ${JSON.stringify(values["time-scale"])})`);

  const cli = ensurePulumiCli();
  // No rateLimit option: the emulator applies its default policy, the one measured against. Every
  // endpoint keeps at most one worker and every pod takes one GPU: the defaults of the worker quota
  // (30) and of the GPUs per type and data center (16) would refuse a large stack.
  const emulator = await startEmulator({
    port: 0,
    timeScale,
    apiKeys: [API_KEY],
    serverlessWorkerQuota: Number.MAX_SAFE_INTEGER,
    availability: { defaultGpus: 100_000 },
  });
  const proxy = await countingProxy(emulator.apiUrl, () => emulator.clock.now());
  const apiPath = new URL(api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl).pathname;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-bench-ratelimit-"));
  const policy = DEFAULT_POLICY;
  console.log(
    `Pulumi CLI ${cli.version}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}; ` +
      `${count} resources, management API ${api}; rate limit ${policy.perMinute}/min, ${policy.perHour}/h, ${policy.perDay}/day in service time` +
      `${api === "v1" ? " (v2 only: v1 is not limited)" : ""}; time scale ${timeScale} (a service minute is ${seconds(60_000 * timeScale)})\n`,
  );

  try {
    const { projectDir } = installPackedCopy(path.join(base, "packed"));
    const installed = createRequire(path.join(projectDir, "index.js"));
    const gpucloud = installed("pulumi-gpucloud") as typeof sdk;
    const { LocalWorkspace, PulumiCommand } = installed("@pulumi/pulumi/automation") as typeof repoAutomation;
    const backend = fileBackend(base, cli, "bench-passphrase");
    let mix = { templates: 0, volumes: 0, endpoints: 0, pods: 0 };
    const stack: Stack = await LocalWorkspace.createOrSelectStack(
      {
        projectName: "bench-ratelimit",
        stackName: "bench",
        program: async () => {
          mix = declareMixedStack(gpucloud, count);
        },
      },
      {
        workDir: projectDir,
        pulumiHome: backend.homeDir,
        pulumiCommand: await PulumiCommand.get({ root: path.dirname(cli.binDir) }),
        // The provider processes' record of the windows (client/rateLimitMemory.ts), in the run's own directory.
        envVars: { ...backend.env, [CACHE_DIR_ENV]: path.join(base, "cache") },
        projectSettings: { name: "bench-ratelimit", runtime: "nodejs", backend: { url: `file://${backend.stateDir}` } },
      },
    );
    await stack.setAllConfig({
      "gpucloud:apiUrl": { value: `${proxy.url}${apiPath}` },
      "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
      "gpucloud:apiKey": { value: API_KEY, secret: true },
    });

    const results: Array<{ op: string; run: RateLimitedRun; wholeMs: number }> = [];
    for (const op of ["up", "refresh", "destroy"] as const) {
      const log: string[] = [];
      const onOutput = (out: string): void => void log.push(out);
      proxy.take();
      const start = emulator.clock.now();
      try {
        if (op === "up") await stack.up({ onOutput });
        else if (op === "refresh") await stack.refresh({ onOutput });
        else await stack.destroy({ onOutput });
      } catch (error) {
        process.stderr.write(log.join(""));
        throw error;
      }
      const wholeMs = emulator.clock.now() - start;
      const calls = proxy.take();
      const run = judge(calls, policy);
      results.push({ op, run, wholeMs });
      if (op === "up") {
        console.log(
          `stack: ${mix.templates} templates, ${mix.volumes} network volumes, ${mix.endpoints} endpoints (half with a worker up), ${mix.pods} pods\n`,
        );
        const held = emulator
          .inspect()
          .reduce(
            (n, a) => n + a.templates.length + a.networkVolumes.length + a.endpoints.length + a.pods.filter((p) => !p.endpointId).length,
            0,
          );
        if (held < count) throw new Error(`expected ${count} resources in the emulator after up, found ${held}`);
      }
      console.log(
        `pulumi ${op.padEnd(7)} ${String(run.calls).padStart(5)} calls (${(run.calls / count).toFixed(2)} per resource), bound ${seconds(run.boundMs)}, ` +
          `service time ${seconds(run.serviceMs)} (whole operation ${seconds(wholeMs)}), ratio ${run.ratio.toFixed(2)}, 429s: ${run.tooMany}`,
      );
      console.log(`  ${routesOf(calls, apiPath)}`);
    }
    const left = emulator
      .inspect()
      .reduce((n, a) => n + a.templates.length + a.networkVolumes.length + a.endpoints.length + a.pods.length, 0);
    if (left !== 0) throw new Error(`expected nothing left in the emulator after destroy, found ${left}`);

    const verdict = (met: boolean): string => (met ? "met" : "MISSED");
    console.log(`\ngoals (${count} resources, management API ${api}): service time at most ${SERVICE_TIME_GOAL}x the bound, no 429`);
    for (const { op, run } of results) {
      console.log(
        `  ${op.padEnd(7)} ratio ${run.ratio.toFixed(2)} -> ${verdict(run.ratio <= SERVICE_TIME_GOAL)}; 429s ${run.tooMany} -> ${verdict(run.tooMany === 0)}`,
      );
    }
  } finally {
    await proxy.close();
    await emulator.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`bench-ratelimit failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
