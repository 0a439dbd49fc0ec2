/**
 * `npm run demo`: starts the local emulator, previews the demo stack (scripts/demo/program.ts) with
 * the real Pulumi engine on a local file backend, printing its cost estimate, deploys it, and prints
 * the stack's outputs, the smoke-test verdicts, each resource's estimate beside what the emulator
 * bills for it, and a billing summary. `npm run demo -- --destroy` tears everything down again.
 * The provider speaks the management API v2 (today's API); `npm run demo -- --api v1` uses v1.
 * `npm run demo -- --rollout-version 1.1` rolls the gated endpoint ("chat") out to another version.
 *
 * Everything the demo keeps lives in `.demo/` (engine state, emulator state, PULUMI_HOME), so a
 * second run updates the same stack, and `--destroy` leaves the checkout as it was.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { getBilling } from "../sdk/billing";
import { demoProgram } from "./demo/program";
import { plannedCostCollector, printEstimateAgainstBilling, type BilledResource } from "./demo/costCheck";
import { EMULATOR_PRICES_CONFIG } from "./lib/emulatorPrices";
import { enginePath, ensurePulumiCli } from "./lib/pulumiCli";
import { repoRoot } from "./lib/repoRoot";

const STACK = "demo";
const PROJECT = "gpucloud-demo";
const API_KEY = "demo-api-key";
/** The demo's emulator runs 10x faster than real time: boots, cold starts and jobs take a tenth. */
const TIME_SCALE = 0.1;
/** Service time the billed rates are measured over after the up (36 s of real time). */
const BILLING_WINDOW_MS = 6 * 60_000;

interface DemoPaths {
  root: string;
  demoDir: string;
  backendDir: string;
  emulatorState: string;
  /** The emulator's port, kept so that later runs (and destroy) reach the URL recorded in state. */
  emulatorPort: string;
  pulumiHome: string;
}

function paths(): DemoPaths {
  const root = repoRoot();
  const demoDir = path.join(root, ".demo");
  return {
    root,
    demoDir,
    backendDir: path.join(demoDir, "backend"),
    emulatorState: path.join(demoDir, "emulator-state.json"),
    emulatorPort: path.join(demoDir, "emulator-port"),
    pulumiHome: path.join(demoDir, "pulumi-home"),
  };
}

/** The management API the demo's provider speaks: v2 (today's API) unless `--api v1` asks for the earlier one. */
type ApiVersion = "v1" | "v2";

function managementUrl(emulator: RunningEmulator, api: ApiVersion): string {
  return api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl;
}

async function openStack(p: DemoPaths, emulator: RunningEmulator, api: ApiVersion, rolloutVersion?: string): Promise<Stack> {
  const cli = ensurePulumiCli();
  console.log(`Pulumi CLI ${cli.version}; emulator management API at ${managementUrl(emulator, api)} (time scale ${TIME_SCALE})`);
  for (const dir of [p.backendDir, p.pulumiHome]) fs.mkdirSync(dir, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: STACK, projectName: PROJECT, program: async () => demoProgram(rolloutVersion !== undefined ? { rolloutVersion } : {}) },
    {
      // The repo root holds Pulumi.yaml; the provider process resolves pulumi-gpucloud from here.
      workDir: p.root,
      pulumiHome: p.pulumiHome,
      pulumiCommand: await PulumiCommand.get({ root: path.dirname(cli.binDir) }),
      envVars: {
        PATH: enginePath(cli),
        PULUMI_BACKEND_URL: `file://${p.backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: "demo-passphrase",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
    },
  );
  await stack.setAllConfig({
    "gpucloud:apiUrl": { value: managementUrl(emulator, api) },
    "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
    "gpucloud:apiKey": { value: API_KEY, secret: true },
    // The emulator's rates for what the catalog does not price (emulator/README.md), for the estimates.
    "gpucloud:prices": { value: EMULATOR_PRICES_CONFIG },
  });
  return stack;
}

/**
 * Starts the emulator on the port of the previous run. The engine records the provider's
 * configuration (the emulator URL) in the stack's state and `destroy` uses that record, since it
 * does not run the program: the URL must stay the same from the first `up` to the last `destroy`.
 */
async function startDemoEmulator(p: DemoPaths): Promise<RunningEmulator> {
  fs.mkdirSync(p.demoDir, { recursive: true });
  const recorded = fs.existsSync(p.emulatorPort) ? Number(fs.readFileSync(p.emulatorPort, "utf8").trim()) : 0;
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ apiKeys: [API_KEY], statePath: p.emulatorState, timeScale: TIME_SCALE, port: recorded });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(
        `port ${recorded}, recorded in ${p.emulatorPort} for the demo stack, is in use: stop what listens there, or delete .demo/ to start the demo over`,
      );
    }
    throw e;
  }
  fs.writeFileSync(p.emulatorPort, `${emulator.port}\n`);
  return emulator;
}

async function deploy(p: DemoPaths, api: ApiVersion, rolloutVersion: string | undefined): Promise<void> {
  const emulator = await startDemoEmulator(p);
  try {
    const stack = await openStack(p, emulator, api, rolloutVersion);
    console.log("\n$ pulumi preview\n");
    const cost = plannedCostCollector();
    await stack.preview({ onOutput: (out) => process.stdout.write(out), onEvent: cost.onEvent });
    console.log("\n$ pulumi up\n");
    const up = await stack.up({ onOutput: (out) => process.stdout.write(out) });
    const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    printOutputs(outputs);
    const options = { apiKey: API_KEY, apiUrl: managementUrl(emulator, api) };
    await printEstimateAgainstBilling(cost.planned(), pricedResources(outputs), options, emulator.clock, BILLING_WINDOW_MS);
    await printBilling(emulator, api);
    console.log(`\nTear down with: npm run demo -- --destroy`);
  } finally {
    await emulator.close();
  }
}

async function destroy(p: DemoPaths, api: ApiVersion): Promise<void> {
  if (!fs.existsSync(p.backendDir)) {
    console.log("Nothing to destroy: no demo stack in .demo/.");
    return;
  }
  const emulator = await startDemoEmulator(p);
  try {
    const stack = await openStack(p, emulator, api);
    console.log("\n$ pulumi destroy\n");
    await stack.destroy({ onOutput: (out) => process.stdout.write(out) });
    await stack.workspace.removeStack(STACK);
    const left = emulator.inspect().flatMap((a) => [...a.pods, ...a.endpoints, ...a.templates, ...a.networkVolumes, ...a.registryAuths]);
    if (left.length > 0) throw new Error(`destroy left ${left.length} resource(s) in the emulator: ${left.map((r) => r.id).join(", ")}`);
  } finally {
    await emulator.close();
  }
  fs.rmSync(p.demoDir, { recursive: true, force: true });
  fs.rmSync(path.join(p.root, `Pulumi.${STACK}.yaml`), { force: true });
  console.log("\nDemo torn down: the emulator is empty and .demo/ is removed.");
}

function printOutputs(outputs: Record<string, unknown>): void {
  console.log("\nStack outputs:");
  for (const [key, value] of Object.entries(outputs)) {
    if (key === "smokeTests" || key === "chatRollout") continue;
    console.log(`  ${key.padEnd(18)} ${JSON.stringify(value)}`);
  }
  const results = (outputs["smokeTests"] ?? []) as {
    name: string;
    jobId: string;
    status: string;
    passed: boolean;
    delayTime?: number;
    executionTime?: number;
    output?: unknown;
  }[];
  console.log("\nSmoke tests:");
  for (const r of results) {
    console.log(
      `  ${r.passed ? "PASS" : "FAIL"} ${r.name.padEnd(10)} job ${r.jobId} ${r.status} ` +
        `(queued ${r.delayTime ?? "?"} ms, ran ${r.executionTime ?? "?"} ms) output ${JSON.stringify(r.output)}`,
    );
  }
  const steps = (outputs["chatRollout"] ?? []) as { step: string; version: string; outcome: string; detail?: string }[];
  console.log(`\nGated rollout of "chat" (serving version ${JSON.stringify(outputs["chatServingVersion"])}), its last steps:`);
  for (const s of steps) console.log(`  ${s.step.padEnd(10)} ${s.version.padEnd(6)} ${s.outcome}${s.detail ? ` (${s.detail})` : ""}`);
}

/** The demo's priced resources (scripts/demo/program.ts), by their Pulumi names. */
function pricedResources(outputs: Record<string, unknown>): BilledResource[] {
  return [
    { name: "notebook", kind: "pods", id: String(outputs["podId"]) },
    { name: "inference", kind: "endpoints", id: String(outputs["endpointId"]) },
    { name: "chat", kind: "endpoints", id: String(outputs["chatEndpointId"]) },
    { name: "models", kind: "networkvolumes", id: String(outputs["networkVolumeId"]) },
  ];
}

async function printBilling(emulator: RunningEmulator, api: ApiVersion): Promise<void> {
  const options = { apiKey: API_KEY, apiUrl: managementUrl(emulator, api) };
  console.log("\nBilling so far (service time, USD):");
  for (const kind of ["pods", "endpoints", "networkvolumes"] as const) {
    const bill = await getBilling({ kind, bucketSize: "hour" }, options);
    console.log(`  ${kind.padEnd(15)} ${bill.totalAmount.toFixed(6)} over ${bill.records.length} record(s)`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      destroy: { type: "boolean", default: false },
      api: { type: "string", default: "v2" },
      "rollout-version": { type: "string" },
    },
    strict: true,
  });
  const api = values.api;
  if (api !== "v1" && api !== "v2")
    throw new Error(`--api ${JSON.stringify(api)} is not a management API version; use --api v2 (today's API, the default) or --api v1`);
  const p = paths();
  if (values.destroy) await destroy(p, api);
  else await deploy(p, api, values["rollout-version"]);
}

main().catch((e: unknown) => {
  console.error(`\ndemo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
