/**
 * Runs a Pulumi program through the real engine (automation API, inline program) on a hermetic
 * backend: a temporary `file://` state directory, a passphrase secrets provider, its own PULUMI_HOME,
 * no update checks and no plugin downloads. Every line the engine prints is kept, so tests can
 * assert on messages and scan them for secrets.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import * as repoAutomation from "@pulumi/pulumi/automation";
import type { ConfigMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { inject } from "vitest";
import { enginePath } from "../../scripts/lib/pulumiCli";

const repoRoot = path.resolve(__dirname, "..", "..");

export interface EngineStackOptions {
  program: PulumiFn;
  /** Stack config, e.g. `{"gpucloud:apiKey": {value: key, secret: true}}`. */
  config?: ConfigMap;
  /** Extra environment for the CLI and the provider processes it starts. */
  env?: Record<string, string>;
  projectName?: string;
  stackName?: string;
  /**
   * Runs the engine in this existing project directory instead of a fresh one that links this
   * checkout's node_modules (e.g. a project with the package installed from `npm pack`). The
   * directory is the caller's: it is used as is and `dispose()` leaves it alone.
   */
  workDir?: string;
  /**
   * The automation API to drive the engine with; default: this checkout's `@pulumi/pulumi`. A
   * program whose resources come from another copy of `@pulumi/pulumi` (a project with its own
   * node_modules, see `workDir`) must be run by that copy's automation API: the engine connection
   * the runtime opens only accepts that copy's protocol objects.
   */
  automation?: AutomationModule;
  /**
   * More Pulumi.yaml settings, e.g. `plugins` pointing the engine at the provider plugin
   * (test/support/pluginProgram.ts). The automation API's ProjectSettings type lacks some that
   * Pulumi.yaml takes (`plugins`, `packages`): they pass through to the file as given.
   */
  projectSettings?: Record<string, unknown>;
}

/** The parts of `@pulumi/pulumi/automation` the harness uses. */
export type AutomationModule = Pick<typeof repoAutomation, "LocalWorkspace" | "PulumiCommand">;

export interface EngineStack {
  stack: Stack;
  /** The project directory the engine runs in (the provider process's cwd). */
  workDir: string;
  /** Everything the engine printed so far, across all operations. */
  output(): string;
  /** The exported deployment (checkpoint) as parsed JSON. */
  exportState(): Promise<ExportedState>;
  /**
   * The stack's checkpoint file exactly as the file backend stored it. Unlike `exportState()`
   * (which the automation API exports with secrets decrypted), secrets here are ciphertext, so
   * this is what a secret-in-state check must read.
   */
  rawStateFile(): string;
  /** Removes the stack's temporary directories. */
  dispose(): Promise<void>;
}

export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface ExportedState {
  raw: string;
  resources: ExportedResource[];
}

export const PASSPHRASE = "engine-test-passphrase";

export async function createEngineStack(options: EngineStackOptions): Promise<EngineStack> {
  const cli = inject("pulumiCli");
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-engine-"));
  const workDir = options.workDir ?? path.join(base, "project");
  const stateDir = path.join(base, "state");
  const homeDir = path.join(base, "home");
  for (const dir of [workDir, stateDir, homeDir]) fs.mkdirSync(dir, { recursive: true });
  if (options.workDir === undefined) {
    // The provider process resolves `pulumi-gpucloud/provider` from its cwd (the project dir), as it
    // would from a user's project: give the temp project this checkout's node_modules.
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");
  }

  const envVars: Record<string, string> = {
    PATH: enginePath(cli),
    PULUMI_HOME: homeDir,
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...options.env,
  };
  const { LocalWorkspace, PulumiCommand } = options.automation ?? repoAutomation;
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cli.binDir) });
  const projectName = options.projectName ?? "engine-test";
  const stackName = options.stackName ?? "test";
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName, stackName, program: options.program },
    {
      workDir,
      pulumiHome: homeDir,
      envVars,
      pulumiCommand,
      projectSettings: { name: projectName, runtime: "nodejs", backend: { url: `file://${stateDir}` }, ...options.projectSettings },
    },
  );
  if (options.config) await stack.setAllConfig(options.config);

  const lines: string[] = [];
  const record = (chunk: string): void => {
    lines.push(chunk);
  };
  return {
    stack: wrapOutput(stack, record),
    workDir,
    output: () => lines.join(""),
    async exportState() {
      const deployment = await stack.exportStack();
      const raw = JSON.stringify(deployment);
      const resources = (deployment.deployment as { resources?: ExportedResource[] } | undefined)?.resources ?? [];
      return { raw, resources };
    },
    rawStateFile() {
      return readRawStateFile(stateDir, projectName, stackName);
    },
    async dispose() {
      await fs.promises.rm(base, { recursive: true, force: true });
    },
  };
}

/**
 * Makes up/preview/refresh/destroy record the engine's output by default, while letting a test
 * pass its own options too.
 */
function wrapOutput(stack: Stack, record: (chunk: string) => void): Stack {
  type AnyOpts = { onOutput?: (out: string) => void; onError?: (out: string) => void } | undefined;
  const withOutput = (opts: AnyOpts): NonNullable<AnyOpts> => ({
    ...opts,
    onOutput: (out: string) => {
      record(out);
      opts?.onOutput?.(out);
    },
    onError: (out: string) => {
      record(out);
      opts?.onError?.(out);
    },
  });
  for (const op of ["up", "preview", "refresh", "destroy"] as const) {
    const original = stack[op].bind(stack) as (opts?: AnyOpts) => Promise<unknown>;
    (stack as unknown as Record<string, (opts?: AnyOpts) => Promise<unknown>>)[op] = (opts?: AnyOpts) => original(withOutput(opts));
  }
  return stack;
}

/**
 * The file backend keeps a stack's checkpoint at `<state>/.pulumi/stacks/<project>/<stack>.json`
 * (optionally gzipped, `.json.gz`); older layouts have no project directory.
 */
function readRawStateFile(stateDir: string, projectName: string, stackName: string): string {
  const stacksDir = path.join(stateDir, ".pulumi", "stacks");
  const candidates = [path.join(stacksDir, projectName, `${stackName}.json`), path.join(stacksDir, `${stackName}.json`)];
  for (const file of candidates) {
    if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
    if (fs.existsSync(`${file}.gz`)) return zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString("utf8");
  }
  throw new Error(`no checkpoint file for stack ${projectName}/${stackName} under ${stacksDir}`);
}

/** Resources of a state that are not the stack or a provider: the ones a program declared. */
export function declaredResources(state: ExportedState): ExportedResource[] {
  return state.resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
}
