/**
 * examples/gitops runs, not just reads: its script (gitops.ts, what the workflow calls) deploys the
 * dev stack against an emulator in another process, passes its converged check, and its nightly
 * drift step fails, naming the field, once a value is changed in the emulator behind the stack's
 * back; a deploy puts the declared value back and the drift check passes again.
 *
 * The script runs as a user runs it (`node gitops.ts <step> dev` in the example's folder, a copy
 * here so that the stack's settings file it writes stays out of the checkout), with the service's
 * URLs and key in the environment.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmulatorChild, type EmulatorChild } from "../../scripts/lib/emulatorCli";
import { fileBackend } from "../../scripts/lib/fileBackend";

const repoRoot = path.resolve(__dirname, "..", "..");
const exampleDir = path.join(repoRoot, "examples", "gitops");
const API_KEY = "gpc_emu_gitops_dev_key";

interface Run {
  code: number;
  out: string;
}

describe("examples/gitops: the flow's script", { timeout: 300_000 }, () => {
  let base: string;
  let projectDir: string;
  let emulator: EmulatorChild;
  let env: Record<string, string>;

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-gitops-"));
    projectDir = path.join(base, "infra");
    fs.mkdirSync(projectDir);
    for (const file of ["Pulumi.yaml", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "program.ts", "gitops.ts", "package.json"]) {
      fs.copyFileSync(path.join(exampleDir, file), path.join(projectDir, file));
    }
    // `npm ci` of the example: its dependencies are this checkout's (pulumi-gpucloud links back to it).
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(projectDir, "node_modules"), "dir");
    emulator = await startEmulatorChild({ apiKeys: [API_KEY], timeScale: 0.01 });
    env = {
      ...fileBackend(path.join(base, "backend"), inject("pulumiCli"), "gitops-test-passphrase").env,
      GPUCLOUD_API_URL: emulator.apiUrlV2,
      GPUCLOUD_SERVERLESS_URL: emulator.serverlessUrl,
      GPUCLOUD_API_KEY: API_KEY,
    };
  });

  afterAll(async () => {
    // The emulator keeps no state file: stopping it removes everything the stack made.
    await emulator?.stop();
    if (base) await fs.promises.rm(base, { recursive: true, force: true });
  });

  function gitops(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ["gitops.ts", ...args],
        { cwd: projectDir, env: { ...env, HOME: base }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, out: `${stdout}${stderr}` });
        },
      );
    });
  }

  async function api(method: string, route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${emulator.apiUrlV2}${route}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  it("refuses an unknown step with its usage", async () => {
    const run = await gitops("apply", "dev");
    expect(run.code).toBe(2);
    expect(run.out).toContain("usage: node gitops.ts <plan|deploy|converged|drift> <stack>");
  });

  it("plans on a pull request, deploys on main and is converged after it", async () => {
    const plan = await gitops("plan", "dev");
    expect(plan.code, plan.out).toBe(0);
    expect(plan.out).toMatch(/\[gitops\] plan for dev: \{[^}]*"create":\d+/);

    const deploy = await gitops("deploy", "dev");
    expect(deploy.code, deploy.out).toBe(0);
    expect(deploy.out).toContain("[gitops] up dev: succeeded");
    expect(deploy.out).toContain("[gitops] converged check of dev: no changes");

    const drift = await gitops("drift", "dev");
    expect(drift.code, drift.out).toBe(0);
    expect(drift.out).toContain("[gitops] drift check of dev: no changes");
  });

  it("the drift step fails, naming the field, after a change behind the stack's back; a deploy puts it back", async () => {
    const list = (await api("GET", "/serverless")) as
      | { endpoints?: { id: string; name: string; workers?: { max?: number } }[] }
      | { id: string; name: string }[];
    const endpoints = Array.isArray(list) ? list : (list.endpoints ?? []);
    const endpoint = endpoints.find((e) => e.name === "inference-dev");
    expect(endpoint, JSON.stringify(list)).toBeDefined();
    // Someone raises the endpoint's worker ceiling in the console.
    await api("PATCH", `/serverless/${endpoint?.id ?? ""}`, { workers: { max: 7 } });

    const drift = await gitops("drift", "dev");
    expect(drift.code, drift.out).toBe(1);
    expect(drift.out).toContain("[gitops] drift check of dev: FAILED");
    const verdict = drift.out.slice(drift.out.indexOf("[gitops] drift check of dev: FAILED"));
    expect(verdict).toMatch(/gpucloud:Endpoint::inference/);
    expect(verdict).toMatch(/workersMax/);
    console.log(`the drift step's verdict:\n${verdict}`);

    // A plain preview compares the program with the state, not with the service: it cannot see
    // drift. That is why the nightly step refreshes first.
    const converged = await gitops("converged", "dev");
    expect(converged.code, converged.out).toBe(0);

    // The next deploy refreshes before it plans, so it puts the declared value back.
    const deploy = await gitops("deploy", "dev");
    expect(deploy.code, deploy.out).toBe(0);
    expect(((await api("GET", `/serverless/${endpoint?.id ?? ""}`)) as { workers?: { max?: number } }).workers?.max).toBe(2);
    const again = await gitops("drift", "dev");
    expect(again.code, again.out).toBe(0);
  });
});
