/**
 * A Pulumi project on disk run with the `pulumi` CLI itself, for what the automation API cannot
 * show: its `up` always passes `--skip-preview`, while a user's `pulumi up` previews first, and a
 * preview that fails stops the update before anything is created. Same hermetic setup as
 * engineStack.ts (temporary file:// backend, passphrase, PULUMI_HOME); the program is a CommonJS
 * `index.js` that requires `pulumi-gpucloud` from this checkout.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inject } from "vitest";
import { enginePath } from "../../scripts/lib/pulumiCli";
import { PASSPHRASE } from "./engineStack";

const repoRoot = path.resolve(__dirname, "..", "..");

export interface CliResult {
  code: number;
  /** stdout and stderr together. */
  output: string;
}

export interface CliProject {
  run(args: readonly string[]): Promise<CliResult>;
  dispose(): Promise<void>;
}

export async function createCliProject(options: { projectName: string; program: string; config: Record<string, { value: string; secret?: boolean }> }): Promise<CliProject> {
  const cli = inject("pulumiCli");
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-cli-"));
  const workDir = path.join(base, "project");
  for (const dir of [workDir, path.join(base, "state"), path.join(base, "home")]) fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), `name: ${options.projectName}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(workDir, "index.js"), options.program);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: enginePath(cli),
    PULUMI_HOME: path.join(base, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(base, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  const run = (args: readonly string[]): Promise<CliResult> =>
    new Promise((resolve) => {
      execFile(path.join(cli.binDir, "pulumi"), [...args, "--non-interactive"], { cwd: workDir, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      });
    });
  const init = await run(["stack", "init", "test"]);
  if (init.code !== 0) throw new Error(`pulumi stack init failed: ${init.output}`);
  for (const [key, { value, secret }] of Object.entries(options.config)) {
    const set = await run(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
    if (set.code !== 0) throw new Error(`pulumi config set ${key} failed: ${set.output}`);
  }
  return { run, dispose: () => fs.promises.rm(base, { recursive: true, force: true }) };
}
