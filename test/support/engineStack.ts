/**
 * Runs a Pulumi program through the real engine (automation API, inline program) on a hermetic
 * backend: a temporary `file://` state directory, a passphrase secrets provider, its own PULUMI_HOME,
 * no update checks and no plugin downloads. Every line the engine prints is kept, so tests can
 * assert on messages and scan them for secrets.
 *
 * It also keeps the evidence of a failure: every operation's engine output and the program's runs
 * (see programProbe.ts) go to a log file in the stack's temp directory, beside the engine's gRPC
 * log; an operation that fails throws with that operation's program runs and the files' paths added
 * to its message, `lastStep()` gives the same for an assertion on a result (e.g. `plannedChanges`),
 * and `dispose()` keeps the directory (state and logs) when the test that ran the operation failed.
 *
 * The programs all run in this process (side by side under `it.concurrent`): the runs are kept on
 * connections of their own (runtimeConnections.ts), and an up or preview that the engine finished
 * without calling the program fails instead of passing for a plan that deletes every resource
 * (programNeverRan). Under `it.concurrent`, vitest knows one current test, so a failure may keep
 * the directory of the other test of the pair too (or instead): the evidence is in the failing
 * operation's message either way.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import * as repoAutomation from "@pulumi/pulumi/automation";
import type { ConfigMap, PreviewResult, PulumiFn, Stack, UpResult } from "@pulumi/pulumi/automation";
import { inject, onTestFailed } from "vitest";
import { hermeticEngineEnv } from "./hermeticEnv";
import { describeError, earlierRunAt, probeProgram, type ProgramProbe } from "./programProbe";
import { keepRunConnectionsApart } from "./runtimeConnections";

const repoRoot = path.resolve(__dirname, "..", "..");

// Before any run: a failed up must not hand a later run a connection to its dead engine.
keepRunConnectionsApart();

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
  /**
   * For an assertion's message: the last operation's engine output and the program's runs during
   * it, and the path of the log file that keeps every operation's.
   */
  lastStep(): string;
  /** The log file of every operation's engine output and the program's runs. */
  logFile: string;
  /** The exported deployment (checkpoint) as parsed JSON. */
  exportState(): Promise<ExportedState>;
  /**
   * The stack's checkpoint file exactly as the file backend stored it. Unlike `exportState()`
   * (which the automation API exports with secrets decrypted), secrets here are ciphertext, so
   * this is what a secret-in-state check must read.
   */
  rawStateFile(): string;
  /**
   * Removes the stack's temporary directories, unless a test that ran an operation failed (then they
   * are the evidence) or GPUCLOUD_KEEP_ENGINE_DIRS=1 asks to keep them.
   */
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

export { PASSPHRASE } from "./hermeticEnv";

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
    ...hermeticEngineEnv(cli, { stateDir, homeDir }),
    // Every gRPC call between the engine, the program and the providers, one JSON line each (with
    // their arguments, secrets too: the directory is a test's temp dir): whether a preview that
    // planned deletes got the program's registrations, and what its run answered.
    PULUMI_DEBUG_GRPC: path.join(base, GRPC_LOG),
    ...options.env,
  };
  const log = new StepLog(path.join(base, "engine-steps.log"));
  const { LocalWorkspace, PulumiCommand } = options.automation ?? repoAutomation;
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cli.binDir) });
  const projectName = options.projectName ?? "engine-test";
  const stackName = options.stackName ?? "test";
  const probe = probeProgram(options.program, {
    label: `${projectName}/${stackName}`,
    note: (line) => log.note(line),
    listResources: options.automation === undefined,
  });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName, stackName, program: probe.program },
    {
      workDir,
      pulumiHome: homeDir,
      envVars,
      pulumiCommand,
      projectSettings: { name: projectName, runtime: "nodejs", backend: { url: `file://${stateDir}` }, ...options.projectSettings },
    },
  );
  if (options.config) await stack.setAllConfig(options.config);

  watchedLogs.add(log);
  return {
    stack: recordSteps(stack, log, probe),
    workDir,
    output: () => log.output(),
    lastStep: () => log.explainLast(),
    logFile: log.file,
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
      watchedLogs.delete(log);
      if (log.keep || process.env["GPUCLOUD_KEEP_ENGINE_DIRS"] === "1") {
        // The evidence stays (log, state, home); only the link to this checkout's node_modules goes.
        if (options.workDir === undefined) await fs.promises.rm(path.join(workDir, "node_modules"), { force: true });
        return;
      }
      await fs.promises.rm(base, { recursive: true, force: true });
    },
  };
}

/** The operations' engine output and the program's runs, in memory and in a file. */
class StepLog {
  private readonly chunks: string[] = [];
  private readonly steps: Array<{ n: number; op: string; chunks: string[]; notes: string[] }> = [];
  /** Set when a test that ran an operation failed: `dispose()` then keeps the directory. */
  keep = false;

  constructor(readonly file: string) {
    fs.writeFileSync(file, "");
  }

  output(): string {
    return this.chunks.join("");
  }

  begin(op: string): void {
    this.steps.push({ n: this.steps.length + 1, op, chunks: [], notes: [] });
    this.write(`\n===== step ${this.steps.length}: ${op}, started ${new Date().toISOString()} =====\n`);
    try {
      onTestFailed(() => {
        this.keep = true;
      });
    } catch {
      // Not inside a test (a hook): nothing to keep it for.
    }
  }

  end(outcome: string): void {
    this.write(`===== step ${this.steps.length}: ${this.steps.at(-1)?.op ?? "?"} ${outcome}, ${new Date().toISOString()} =====\n`);
  }

  record(chunk: string): void {
    this.chunks.push(chunk);
    this.steps.at(-1)?.chunks.push(chunk);
    this.write(chunk);
  }

  /** A line from the harness (the program's runs, the process's unhandled rejections). */
  note(line: string): void {
    this.steps.at(-1)?.notes.push(line);
    this.write(`[harness ${new Date().toISOString()}] ${line}\n`);
  }

  /** The last operation's program runs (and, unless the message already has it, its engine output) and the log's path. */
  explainLast(withOutput = true): string {
    const step = this.steps.at(-1);
    if (!step) return `(no engine operation yet; log: ${this.file})`;
    const output = step.chunks.join("");
    return [
      `--- engine harness: step ${step.n} (${step.op}); every step's engine output and the program's runs: ${this.file}; ` +
        `the engine's gRPC calls: ${path.join(path.dirname(this.file), GRPC_LOG)} (both kept when the test fails)`,
      ...step.notes.map((line) => `  ${line}`),
      ...(withOutput
        ? [
            `--- engine output of step ${step.n}${output.length > OUTPUT_IN_MESSAGE ? ` (its last ${OUTPUT_IN_MESSAGE} characters)` : ""}:`,
            output.slice(-OUTPUT_IN_MESSAGE),
          ]
        : []),
    ].join("\n");
  }

  private write(text: string): void {
    fs.appendFileSync(this.file, text);
  }
}

/** The engine's gRPC calls, in the stack's temp dir (PULUMI_DEBUG_GRPC). */
const GRPC_LOG = "grpc.log";

/** How much of an operation's engine output an assertion message carries; the log file has all of it. */
const OUTPUT_IN_MESSAGE = 20_000;

/** The logs of the stacks not yet disposed, which note the process's unhandled rejections. */
const watchedLogs = new Set<StepLog>();
process.on("unhandledRejection", (reason) => {
  for (const log of watchedLogs) log.note(`unhandled rejection in the test process: ${describeError(reason)}`);
});

/**
 * Makes up/preview/refresh/destroy record the engine's output by default (while letting a test
 * pass its own options too) and mark each operation in the log; a failure's message gains the
 * program's runs and the log's path. An up or preview that succeeded without calling the program
 * fails (see programNeverRan).
 */
function recordSteps(stack: Stack, log: StepLog, probe: ProgramProbe): Stack {
  type AnyOpts = { onOutput?: (out: string) => void; onError?: (out: string) => void; program?: PulumiFn } | undefined;
  const withOutput = (opts: AnyOpts): NonNullable<AnyOpts> => ({
    ...opts,
    onOutput: (out: string) => {
      log.record(out);
      opts?.onOutput?.(out);
    },
    onError: (out: string) => {
      log.record(out);
      opts?.onError?.(out);
    },
  });
  for (const op of ["up", "preview", "refresh", "destroy"] as const) {
    const original = stack[op].bind(stack) as (opts?: AnyOpts) => Promise<unknown>;
    (stack as unknown as Record<string, (opts?: AnyOpts) => Promise<unknown>>)[op] = async (opts?: AnyOpts) => {
      log.begin(op);
      const runsBefore = probe.runsStarted();
      let result: unknown;
      try {
        result = await original(withOutput(opts));
      } catch (error) {
        log.end(`failed: ${describeError(error)}`);
        // A CommandError (of any copy of the automation API) already has the command's output in its message.
        if (error instanceof Error) error.message += `\n${log.explainLast(!("commandResult" in error))}`;
        throw error;
      }
      log.end(`succeeded${changesNote(result)}`);
      const runsTheProgram = (op === "up" || op === "preview") && opts?.program === undefined;
      if (runsTheProgram && probe.runsStarted() === runsBefore) throw programNeverRan(op, changesNote(result), log);
      return result;
    };
  }
  return stack;
}

/**
 * The language host that runs an inline program in this process reports a run that ended on a gRPC
 * UNAVAILABLE or CANCELLED error as a success. When its first calls to the engine fail so (e.g. on a
 * connection that was already failing, see runtimeConnections.ts) the run ends before the program
 * is called, and the engine takes every resource of the stack for undeclared: a preview plans
 * deleting them and an up deletes them. This names that instead of letting it pass for a plan.
 */
function programNeverRan(op: string, changes: string, log: StepLog): Error {
  return new Error(
    `the engine finished this ${op} as a success${changes}, but the program was never called: the in-process language host ` +
      `ended its run before the program (it reports a run ended by a gRPC UNAVAILABLE or CANCELLED error as a success), so the ` +
      `engine took every resource of the stack for undeclared${op === "up" ? " and deleted them" : ""}. ${addressesOfLastRun(log)}\n` +
      log.explainLast(),
  );
}

/** The addresses the engine gave the last run (its gRPC log has the Run request), and which earlier run of this process had each. */
function addressesOfLastRun(log: StepLog): string {
  const grpcLog = path.join(path.dirname(log.file), GRPC_LOG);
  const runs = fs.existsSync(grpcLog)
    ? fs
        .readFileSync(grpcLog, "utf8")
        .split("\n")
        .filter((line) => line.includes('"/pulumirpc.LanguageRuntime/Run"') && line.includes('"monitorAddress"'))
    : [];
  const last = runs.at(-1);
  if (last === undefined) return "(no Run request in the engine's gRPC log)";
  const request = (JSON.parse(last) as { request?: { monitorAddress?: string; args?: string[] } }).request;
  const addresses = [
    ["resource monitor", request?.monitorAddress],
    ["engine", request?.args?.[0]],
  ] as const;
  return addresses
    .map(
      ([role, address]) => `Its ${role}: ${address ?? "?"}${address && earlierRunAt(address) ? `, earlier ${earlierRunAt(address)}` : ""}.`,
    )
    .join(" ");
}

function changesNote(result: unknown): string {
  const changes = (result as Partial<PreviewResult>).changeSummary ?? (result as Partial<UpResult>).summary?.resourceChanges;
  return changes ? `, changes ${JSON.stringify(changes)}` : "";
}

/** The operations a preview planned or an up carried out, other than "same": `{}` when nothing changes. */
export function plannedChanges(result: PreviewResult | UpResult): Record<string, number> {
  const changes = "changeSummary" in result ? result.changeSummary : (result.summary.resourceChanges ?? {});
  return Object.fromEntries(Object.entries(changes).filter(([op]) => op !== "same"));
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
