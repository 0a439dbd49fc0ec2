/**
 * The ready policy pack (policy-pack/) on a Python program through the provider plugin: the
 * resources arrive as `gpucloud:index:Template` and `gpucloud:index:Pod`, and the pack holds them to
 * the same rules with the same messages as a TypeScript program's (policy-pack-typescript.test.ts).
 * The Python program (policy_pack_python_program.py beside this file) previews the stack twice on
 * the emulator (v2): with a policy config it meets (passes), and with one it breaks (a mandatory
 * GPU type rule fails the preview with its message; an advisory digest rule and an advisory cost
 * rule, on the package's estimate the plugin's check records, warn). Nothing is created. The
 * engine finds the pack's `pulumi-analyzer-policy-nodejs` plugin on PATH, beside the CLI
 * (scripts/ensure-pulumi.sh puts it there), as on a machine without the Node.js language host.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, inject, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { hermeticEngineEnv } from "../support/hermeticEnv";
import { PLUGIN_DIR } from "../support/pluginProgram";
import { runPythonProgram } from "../support/pythonProgram";
import { ensurePythonSdkEnv } from "../support/pythonSdkEnv";
import { accountOf, emulatorConfig, marker } from "./provider-support";

const PROGRAM = path.join(__dirname, "policy_pack_python_program.py");
const POLICY_PACK = path.resolve(__dirname, "..", "..", "policy-pack");

interface Preview {
  result: "succeeded" | "failed";
  changes?: Record<string, number>;
  output: string;
}

describe("the policy pack on a Python program through the provider plugin", { timeout: 600_000 }, () => {
  it("passes a compliant config; a mandatory violation fails the preview with its message and an advisory one warns; nothing is created", async ({
    expect,
  }) => {
    const python = await ensurePythonSdkEnv();
    const tag = marker();
    const apiKey = `policy-python-${tag}`;
    const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-policy-python-"));
    const dirs = { workDir: path.join(base, "project"), stateDir: path.join(base, "state"), homeDir: path.join(base, "home") };
    for (const dir of Object.values(dirs)) fs.mkdirSync(dir);
    const cli = inject("pulumiCli");
    expect(fs.existsSync(path.join(cli.binDir, "pulumi-analyzer-policy-nodejs"))).toBe(true);
    const env = hermeticEngineEnv(cli, dirs);
    const engineLog = path.join(base, "engine-output.log");
    const compliantConfig = path.join(base, "compliant.json");
    const violatingConfig = path.join(base, "violating.json");
    fs.writeFileSync(
      compliantConfig,
      JSON.stringify({ "gpucloud-placement": { allowedGpuTypeIds: ["NVIDIA L4"], allowedCloudTypes: ["SECURE"] } }),
    );
    fs.writeFileSync(
      violatingConfig,
      JSON.stringify({
        "gpucloud-placement": { allowedGpuTypeIds: ["NVIDIA A40"] },
        "gpucloud-images": { enforcementLevel: "advisory", requireDigest: true },
        // The plugin's check records the package's estimate too: a figure, not "cost unknown".
        "gpucloud-cost-resource": { maxHourlyUsd: 0.01 },
        "gpucloud-cost-stack": { maxHourlyUsd: 0.01 },
      }),
    );
    const settingsFile = path.join(base, "settings.json");
    const config = Object.fromEntries(
      Object.entries(emulatorConfig(emulator, apiKey, "v2")).map(([key, c]) => [key, { value: c.value, secret: c.secret ?? false }]),
    );
    fs.writeFileSync(
      settingsFile,
      JSON.stringify({
        workDir: dirs.workDir,
        projectName: "policy-python",
        stackName: "test",
        cliRoot: path.dirname(cli.binDir),
        env,
        pluginDir: PLUGIN_DIR,
        config,
        tag,
        engineLog,
        policyPack: POLICY_PACK,
        compliantConfig,
        violatingConfig,
      }),
    );
    let keep = false;
    const run = runPythonProgram(python.python, [PROGRAM, settingsFile], { ...process.env, ...env });
    try {
      const { compliant, violating } = await run.report<{ compliant: Preview; violating: Preview }>("previewed");
      await run.finished();
      expect(compliant.result, compliant.output).toBe("succeeded");
      expect(compliant.changes).toMatchObject({ create: 3 }); // the stack, the template and the pod
      expect(compliant.output).toMatch(/Policies:\s+✅ gpucloud@v0\.2\.0/);
      expect(compliant.output).not.toMatch(/\[mandatory\]|\[advisory\]/);
      expect(compliant.output).toContain("using pulumi-analyzer-policy-nodejs from $PATH");

      expect(violating.result, violating.output).toBe("failed");
      expect(violating.output).toMatch(/\[mandatory\]\s+gpucloud-placement\s+\(gpucloud:index:Pod: trainer\)/);
      expect(violating.output).toContain(
        'Pod "trainer": gpuTypeIds ["NVIDIA L4"] names "NVIDIA L4", not an allowed GPU type (allowed: "NVIDIA A40"); use only "NVIDIA A40", or ask the platform team to allow "NVIDIA L4"',
      );
      expect(violating.output).toMatch(/\[advisory\]\s+gpucloud-images\s+\(gpucloud:index:Template: worker\)/);
      expect(violating.output).toContain('Template "worker": imageName "ghcr.io/acme/worker:1" is not pinned by digest (requireDigest)');

      expect(violating.output).toMatch(/\[advisory\]\s+gpucloud-cost-resource\s+\(gpucloud:index:Pod: trainer\)/);
      expect(violating.output).toMatch(
        /Pod "trainer": estimated always-on cost [\d.]+ USD\/hour is more than maxHourlyUsd \(0\.01 USD\/hour\)/,
      );

      // The stack policy reads the resources' planned outputs: the plugin's carry the estimate too.
      expect(violating.output).toMatch(
        /stack: estimated always-on cost [\d.]+ USD\/hour \(dearest: Pod "trainer" [\d.]+\) is more than maxHourlyUsd/,
      );

      const records = accountOf(emulator, apiKey);
      expect([records.pods, records.endpoints, records.templates]).toEqual([[], [], []]);
    } catch (error) {
      keep = true;
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- the program's output:\n${run.output()}`, {
        cause: error,
      });
    } finally {
      run.stop();
      await emulator.close();
      if (keep) console.log(`[policy python] kept ${base}`);
      else fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
