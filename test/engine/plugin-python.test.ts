/**
 * The generated Python SDK (sdks/python) with the provider plugin, through the real engine: a
 * Python program run inline by Pulumi's Python automation API (plugin_python_program.py beside
 * this file) deploys a template, an endpoint on it and a pod on the emulator, looks the template up,
 * previews with no changes expected, and destroys; on each management API. On v2 the program also
 * calls the reads (get_endpoint_workers, get_endpoint_releases, get_pod_log, get_public_templates,
 * get_pod_billing, get_account_billing) and exports what they returned, each whole number with the
 * Python type it arrived as (`int`: the schema types it integer). The test starts the
 * emulator in this process, makes (or reuses) the Python environment with `pulumi` from PyPI and
 * the SDK (test/support/pythonSdkEnv.ts), and checks what the program reports and what the
 * emulator holds after the up and after the destroy.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, type ExpectStatic, inject, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { hermeticEngineEnv } from "../support/hermeticEnv";
import { PLUGIN_DIR } from "../support/pluginProgram";
import { runPythonProgram } from "../support/pythonProgram";
import { ensurePythonSdkEnv, type PythonSdkEnv } from "../support/pythonSdkEnv";
import { API_VERSIONS, accountOf, emulatorConfig, marker } from "./provider-support";

const PROGRAM = path.join(__dirname, "plugin_python_program.py");

interface Deployed {
  planned: Record<string, number>;
  upResult: string;
  upChanges: Record<string, number>;
  outputs: Record<string, { value: unknown; secret: boolean }>;
  unchanged: Record<string, number>;
  types: string[];
  times: Record<string, number>;
}

interface Destroyed {
  result: string;
  changes: Record<string, number>;
  times: Record<string, number>;
}

/** What the program's reads returned (v2): the stack's own endpoint, pod and account, as the emulator holds them. */
function expectReads(expect: ExpectStatic, reads: unknown, podId: string, apiUrl: string): void {
  expect(reads).toEqual({
    // An endpoint with workersMin 0 has no worker yet; its one release is the version it was created at.
    workerCount: 0,
    releaseCount: 1,
    logUrl: `${apiUrl}/pods/${podId}/logs`,
    logSources: ["system"],
    podBillPodId: podId,
    podBillRecordPodIds: [podId],
    accountBuckets: 1,
    accountPodGpuAmount: expect.any(Number),
    accountPodGpuAmountType: "float",
    publicTemplateIds: expect.arrayContaining(["svcpytorch", "svcworker0"]),
    whole: {
      endpointVersion: 0,
      summaryTotal: 0,
      releaseVersion: 0,
      rolloutTotal: 0,
      percentOnLatest: 0,
      droppedLines: 0,
      recordCount: 1,
      uniquePodCount: 1,
      templateDisk: expect.any(Number),
    },
    wholeTypes: Object.fromEntries(
      [
        "endpointVersion",
        "summaryTotal",
        "releaseVersion",
        "rolloutTotal",
        "percentOnLatest",
        "droppedLines",
        "recordCount",
        "uniquePodCount",
        "templateDisk",
      ].map((name) => [name, "int"]),
    ),
  });
  const { accountPodGpuAmount, whole } = reads as { accountPodGpuAmount: number; whole: { templateDisk: number } };
  expect(accountPodGpuAmount).toBeGreaterThan(0);
  expect(whole.templateDisk).toBeGreaterThan(0);
}

describe("a Python program with the generated SDK and the provider plugin", { timeout: 600_000 }, () => {
  // Made (or found) once for both tests; each awaits it, so that without Python both fail, saying what to install.
  let pythonEnv: Promise<PythonSdkEnv> | undefined;
  const ensurePython = () => {
    pythonEnv ??= (async () => {
      const started = Date.now();
      const env = await ensurePythonSdkEnv();
      console.log(`[plugin python] Python ${env.base}: ${env.did}; ${Math.round((Date.now() - started) / 100) / 10} s`);
      return env;
    })();
    return pythonEnv;
  };

  it.concurrent.for(API_VERSIONS)(
    "on the %s API: a template, an endpoint and a pod deployed, a clean preview, destroyed",
    async (api, { expect }) => {
      const python = await ensurePython();
      const started = Date.now();
      const tag = marker();
      const apiKey = `plugin-python-${api}-${tag}`;
      const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
      const base = fs.mkdtempSync(path.join(os.tmpdir(), `gpucloud-python-${api}-`));
      const dirs = { workDir: path.join(base, "project"), stateDir: path.join(base, "state"), homeDir: path.join(base, "home") };
      for (const dir of Object.values(dirs)) fs.mkdirSync(dir);
      const cli = inject("pulumiCli");
      const env = hermeticEngineEnv(cli, dirs);
      const engineLog = path.join(base, "engine-output.log");
      const settingsFile = path.join(base, "settings.json");
      const config = Object.fromEntries(
        Object.entries(emulatorConfig(emulator, apiKey, api)).map(([key, c]) => [key, { value: c.value, secret: c.secret ?? false }]),
      );
      fs.writeFileSync(
        settingsFile,
        JSON.stringify({
          workDir: dirs.workDir,
          projectName: `plugin-python-${api}`,
          stackName: "test",
          cliRoot: path.dirname(cli.binDir),
          env,
          pluginDir: PLUGIN_DIR,
          api,
          config,
          tag,
          engineLog,
        }),
      );
      let keep = false; // the directory (state, engine output, settings) when the test fails
      const run = runPythonProgram(python.python, [PROGRAM, settingsFile], { ...process.env, ...env });
      const account = () => accountOf(emulator, apiKey);
      const explain = () =>
        `\n--- the engine's output: ${engineLog} (kept when the test fails)\n--- the program's output:\n${run.output()}`;
      try {
        const deployed = await run.report<Deployed>("deployed");
        expect(deployed.planned, explain()).toMatchObject({ create: 4 }); // the stack and the three resources
        expect(deployed.upResult).toBe("succeeded");
        expect(deployed.upChanges).toMatchObject({ create: 4 });
        expect(deployed.types).toEqual([
          "gpucloud:index:Endpoint",
          "gpucloud:index:Pod",
          "gpucloud:index:Template",
          "pulumi:providers:gpucloud",
          "pulumi:pulumi:Stack",
        ]);
        const outputs = deployed.outputs;
        expect(outputs["podImage"]?.value).toBe("ghcr.io/acme/trainer:1");
        expect(outputs["lookedUpImage"]?.value).toBe("ghcr.io/acme/worker:1");
        if (api === "v2") expectReads(expect, outputs["reads"]?.value, String(outputs["podId"]?.value), emulator.apiUrlV2);
        else expect(outputs["reads"]).toBeUndefined();
        // The preview after the up plans nothing.
        expect(Object.keys(deployed.unchanged), explain()).toEqual(["same"]);

        const records = account();
        expect(records.pods.map((p) => [p.id, p.imageName])).toEqual([[outputs["podId"]?.value, "ghcr.io/acme/trainer:1"]]);
        expect(records.endpoints.map((e) => [e.id, e.workersMax])).toEqual([[outputs["endpointId"]?.value, 1]]);
        // (On v2 the service also keeps a template of the endpoint's own, under another name.)
        const declared = records.templates.filter((t) => t.name.includes(tag));
        expect(declared.map((t) => [t.id, t.name, t.isServerless])).toEqual([[outputs["templateId"]?.value, `worker-${tag}`, true]]);
        // The SDK asks for the plugin's own version, and the engine finds the plugin where Pulumi.yaml says.
        const engineOutput = fs.readFileSync(engineLog, "utf8");
        expect(engineOutput).toContain("gpucloud:index:Pod");
        expect(engineOutput.split("\n").filter((line) => /warning:/.test(line))).toEqual([]);

        run.proceed();
        const destroyed = await run.report<Destroyed>("destroyed");
        await run.finished();
        expect(destroyed.result).toBe("succeeded");
        expect(destroyed.changes).toMatchObject({ delete: 4 });
        expect([account().pods, account().endpoints, account().templates]).toEqual([[], [], []]);
        console.log(
          `[plugin python, ${api}] ${JSON.stringify(destroyed.times)} s; whole test ${Math.round((Date.now() - started) / 1000)} s`,
        );
      } catch (error) {
        keep = true;
        throw error;
      } finally {
        run.stop();
        await emulator.close();
        if (keep) console.log(`[plugin python, ${api}] kept ${base}`);
        else fs.rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
