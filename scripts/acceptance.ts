/**
 * Acceptance against the live service, opt in: the engine suite's lifecycle (up, a no-change
 * preview, an in-place update, refresh, destroy) on a real account, for a maintainer to run
 * before a release. In this repository's tests it runs against the emulator
 * (test/engine/acceptance.test.ts).
 *
 *   GPUCLOUD_ACCEPTANCE=1 GPUCLOUD_API_URL=https://.../v2 GPUCLOUD_SERVERLESS_URL=https://.../v2 \
 *   GPUCLOUD_API_KEY=... [GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR=1] npm run acceptance
 *
 * - Cheapest resources only: one pod on the catalog's cheapest secure GPU, one queue endpoint with
 *   no always-on worker and at most one worker on the cheapest serverless GPU, a 10 GB network
 *   volume, a template and a registry credential (both free).
 * - A spend ceiling checked before anything is made: the pod's rate plus the endpoint's ceiling,
 *   estimated with the package's own cost code from the service's catalog, must not exceed
 *   GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR (default 1.00); otherwise it refuses to start (exit 3).
 * - Unique names: every resource's name starts with the run id (`acc-<time>-<random>-`).
 * - Everything is deleted at the end even on failure: `destroy` of the stack, then a sweep that
 *   lists every kind and deletes whatever carries the run id (what a crashed create can leave).
 *
 * Exit status: 0 passed; 1 a step failed (cleanup still ran); 2 bad settings; 3 over the ceiling;
 * 4 cleanup left something behind (named in the output: delete it by hand).
 * GPUCLOUD_ACCEPTANCE_INJECT_FAILURE=1 is for the runner's own test: it plants an orphan volume
 * named with the run id (as a run killed mid-create leaves) and makes the update step fail.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { apiVersionOf } from "../client/config";
import { ManagementClientV2 } from "../client/managementV2";
import { estimateEndpoint, estimatePod } from "../model/cost/estimate";
import { priceSheetOf } from "../model/cost/priceSheet";
import * as gpucloud from "../sdk";
import { fileBackend } from "./lib/fileBackend";
import { ensurePulumiCli } from "./lib/pulumiCli";
import { repoRoot } from "./lib/repoRoot";

export const DEFAULT_MAX_USD_PER_HOUR = 1;

class SettingsError extends Error {}

interface Settings {
  apiUrl: string;
  serverlessUrl: string;
  apiKey: string;
  maxUsdPerHour: number;
  injectFailure: boolean;
}

function settingsFrom(env: NodeJS.ProcessEnv): Settings {
  if (env["GPUCLOUD_ACCEPTANCE"] !== "1") {
    throw new SettingsError(
      "GPUCLOUD_ACCEPTANCE is not 1: acceptance runs make real resources on the account the key belongs to and cost money; set GPUCLOUD_ACCEPTANCE=1 to run them",
    );
  }
  const need = (name: string): string => {
    const value = env[name];
    if (!value)
      throw new SettingsError(
        `${name} is not set: acceptance needs GPUCLOUD_API_URL (the v2 management API), GPUCLOUD_SERVERLESS_URL and GPUCLOUD_API_KEY`,
      );
    return value;
  };
  const apiUrl = need("GPUCLOUD_API_URL");
  if (apiVersionOf(apiUrl) !== "v2")
    throw new SettingsError(
      `GPUCLOUD_API_URL ${apiUrl} is not the v2 API (ending in /v2): the spend ceiling is checked against the v2 catalog's prices`,
    );
  const ceilingText = env["GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR"];
  const maxUsdPerHour = ceilingText === undefined || ceilingText === "" ? DEFAULT_MAX_USD_PER_HOUR : Number(ceilingText);
  if (!Number.isFinite(maxUsdPerHour) || maxUsdPerHour < 0) {
    throw new SettingsError(
      `GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR must be a number of USD per hour >= 0, got ${JSON.stringify(ceilingText)}`,
    );
  }
  return {
    apiUrl,
    serverlessUrl: need("GPUCLOUD_SERVERLESS_URL"),
    apiKey: need("GPUCLOUD_API_KEY"),
    maxUsdPerHour,
    injectFailure: env["GPUCLOUD_ACCEPTANCE_INJECT_FAILURE"] === "1",
  };
}

function say(message: string): void {
  process.stdout.write(`[acceptance] ${message}\n`);
}

/** The cheapest choices and what they cost at most per hour, from the service's catalog. */
interface Plan {
  podGpu: string;
  endpointGpu: string;
  podPerHour: number;
  endpointCeilingPerHour: number;
  totalPerHour: number;
}

async function planCheapest(client: ManagementClientV2): Promise<Plan> {
  const [gpus, cpus] = await Promise.all([client.gpuTypes(), client.cpuTypes()]);
  const lookup = priceSheetOf({ gpus, cpus }, new Date());
  if (!("sheet" in lookup)) throw new Error(`no spend estimate possible, so no run: ${lookup.unavailable}`);
  const rows = [...lookup.sheet.gpus.entries()];
  const cheapest = (price: (p: (typeof rows)[number][1]) => number | undefined): string => {
    const priced = rows.filter(([, p]) => price(p) !== undefined).sort((a, b) => (price(a[1]) ?? 0) - (price(b[1]) ?? 0));
    const first = priced[0];
    if (!first) throw new Error("the catalog prices no GPU type");
    return first[0];
  };
  const podGpu = cheapest((p) => p.secure);
  const endpointGpu = cheapest((p) => p.serverless);
  const prices = { catalog: lookup };
  const pod = estimatePod({ gpuTypeIds: [podGpu], gpuCount: 1 }, prices);
  const endpoint = estimateEndpoint({ gpuTypeIds: [endpointGpu], gpuCount: 1, workersMin: 0, workersMax: 1 }, prices);
  if (pod.perHour === undefined || endpoint.ceilingPerHour === undefined) {
    throw new Error(
      `no spend estimate possible, so no run: pod ${pod.reason ?? pod.status}, endpoint ${endpoint.reason ?? endpoint.status}`,
    );
  }
  return {
    podGpu,
    endpointGpu,
    podPerHour: pod.perHour,
    endpointCeilingPerHour: endpoint.ceilingPerHour,
    totalPerHour: Math.round((pod.perHour + endpoint.ceilingPerHour) * 1e6) / 1e6,
  };
}

/** What the program declares; the update step changes `step`. */
interface Declared {
  runId: string;
  plan: Plan;
  templateEnvStep: string;
  /** Only with injectFailure, in the update step: a value the provider refuses at preview. */
  badWorkersMax: boolean;
}

function acceptanceProgram(d: Declared): Record<string, unknown> {
  const registry = new gpucloud.RegistryAuth("registry", {
    name: `${d.runId}registry`,
    username: "acceptance",
    password: pulumi.secret(`acceptance-${d.runId}`),
  });
  const volume = new gpucloud.NetworkVolume("volume", { name: `${d.runId}volume`, size: 10, dataCenterId: "EU-RO-1" });
  const template = new gpucloud.Template("template", {
    name: `${d.runId}template`,
    imageName: "example/echo-worker:1.0",
    isServerless: true,
    env: { ACCEPTANCE_STEP: d.templateEnvStep },
  });
  const endpoint = new gpucloud.Endpoint("endpoint", {
    name: `${d.runId}endpoint`,
    templateId: template.id,
    gpuTypeIds: [d.plan.endpointGpu],
    workersMin: 0,
    workersMax: d.badWorkersMax ? -1 : 1,
  });
  const pod = new gpucloud.Pod("pod", {
    name: `${d.runId}pod`,
    imageName: "example/pytorch:2.4",
    gpuTypeIds: [d.plan.podGpu],
    gpuCount: 1,
    containerRegistryAuthId: registry.id,
  });
  return { podId: pod.id, endpointId: endpoint.id, volumeId: volume.id };
}

/** Every change other than `same` in a summary. */
function changes(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, n] of Object.entries(summary ?? {})) if (kind !== "same" && n) out[kind] = n;
  return out;
}

function expectChanges(step: string, summary: Record<string, number | undefined> | undefined, allowed: readonly string[]): void {
  const found = changes(summary);
  const wrong = Object.keys(found).filter((k) => !allowed.includes(k));
  if (wrong.length > 0 || (allowed.length > 0 && Object.keys(found).length === 0)) {
    throw new Error(`${step}: expected ${allowed.length ? allowed.join("/") : "no changes"}, got ${JSON.stringify(found)}`);
  }
  say(`${step}: ${JSON.stringify(found)} as expected`);
}

/** Deletes whatever carries the run id; returns what could not be deleted. */
async function sweep(client: ManagementClientV2, runId: string): Promise<string[]> {
  const left: string[] = [];
  // Endpoints before the templates they run, pods before the volumes and credentials they use.
  for (const [kind, collection] of [
    ["endpoint", client.endpoints],
    ["pod", client.pods],
    ["template", client.templates],
    ["network volume", client.networkVolumes],
    ["registry credential", client.registries],
  ] as const) {
    let items: { id: string; name?: string | undefined }[];
    try {
      items = (await collection.list()) as { id: string; name?: string | undefined }[];
    } catch (error) {
      left.push(`${kind}s could not be listed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const item of items.filter((i) => i.name?.startsWith(runId))) {
      try {
        await collection.delete(item.id);
        say(`cleanup: deleted leftover ${kind} ${item.id} (${item.name ?? ""})`);
      } catch (error) {
        left.push(`${kind} ${item.id} (${item.name ?? ""}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return left;
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let settings: Settings;
  try {
    settings = settingsFrom(env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    say(error.message);
    return 2;
  }
  const client = new ManagementClientV2({ baseUrl: settings.apiUrl, apiKey: settings.apiKey });
  const runId = `acc-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}-`;
  let plan: Plan;
  try {
    plan = await planCheapest(client);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    await client.close();
    return 2;
  }
  say(
    `run ${runId}: pod on ${plan.podGpu} (${plan.podPerHour} USD/h), endpoint on ${plan.endpointGpu} (up to ${plan.endpointCeilingPerHour} USD/h): at most ${plan.totalPerHour} USD/h`,
  );
  if (plan.totalPerHour > settings.maxUsdPerHour) {
    say(
      `refusing to start: the estimate ${plan.totalPerHour} USD/h is above the ceiling GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR=${settings.maxUsdPerHour}; raise it if that spend is intended`,
    );
    await client.close();
    return 3;
  }

  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-acceptance-"));
  const workDir = path.join(base, "project");
  fs.mkdirSync(workDir);
  // The provider process resolves `pulumi-gpucloud/provider` from the project directory.
  fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(workDir, "node_modules"), "dir");
  const backend = fileBackend(base, ensurePulumiCli(), `acceptance-${runId}`);
  const declared: Declared = { runId, plan, templateEnvStep: "1", badWorkersMax: false };
  const print = { onOutput: (out: string) => void process.stdout.write(out) };
  let stack: Stack | undefined;
  let failed = false;
  try {
    stack = await LocalWorkspace.createOrSelectStack(
      { projectName: "gpucloud-acceptance", stackName: "acceptance", program: async () => acceptanceProgram(declared) },
      {
        workDir,
        pulumiHome: backend.env["PULUMI_HOME"] ?? "",
        envVars: backend.env,
        pulumiCommand: await PulumiCommand.get({ root: path.dirname(backend.cli.binDir) }),
        projectSettings: { name: "gpucloud-acceptance", runtime: "nodejs", backend: { url: `file://${backend.stateDir}` } },
      },
    );
    await stack.setAllConfig({
      "gpucloud:apiUrl": { value: settings.apiUrl },
      "gpucloud:serverlessUrl": { value: settings.serverlessUrl },
      "gpucloud:apiKey": { value: settings.apiKey, secret: true },
    });
    if (settings.injectFailure) {
      const orphan = await client.networkVolumes.create({ name: `${runId}orphan`, size: 10, dataCenter: "EU-RO-1" });
      say(`injected failure: planted orphan network volume ${orphan.id}; the update step will fail`);
    }
    say("step up");
    expectChanges("up", (await stack.up(print)).summary.resourceChanges, ["create"]);
    say("step preview (no changes)");
    expectChanges("preview", (await stack.preview({ expectNoChanges: true, ...print })).changeSummary, []);
    say("step update in place");
    declared.templateEnvStep = "2";
    declared.badWorkersMax = settings.injectFailure;
    expectChanges("update", (await stack.up(print)).summary.resourceChanges, ["update"]);
    say("step refresh");
    expectChanges("refresh", (await stack.refresh(print)).summary.resourceChanges, []);
    say("step destroy");
    expectChanges("destroy", (await stack.destroy(print)).summary.resourceChanges, ["delete"]);
  } catch (error) {
    failed = true;
    say(`FAILED: ${error instanceof Error ? error.message.split("\n").slice(0, 20).join("\n") : String(error)}`);
  } finally {
    if (stack) {
      try {
        declared.badWorkersMax = false;
        await stack.destroy(print);
      } catch (error) {
        say(`cleanup: destroy failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); sweeping by the run id`);
      }
    }
  }
  const left = await sweep(client, runId);
  await client.close();
  await fs.promises.rm(base, { recursive: true, force: true });
  if (left.length > 0) {
    say(`cleanup left these behind; delete them by hand:\n  ${left.join("\n  ")}`);
    return 4;
  }
  say(`cleanup: nothing named ${runId}* is left`);
  say(failed ? "acceptance FAILED" : "acceptance passed");
  return failed ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
