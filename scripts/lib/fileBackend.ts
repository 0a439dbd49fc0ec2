/**
 * A hermetic Pulumi backend for scripts (the tests have their own in test/support/engineStack.ts,
 * which needs the test runner): a `file://` state directory, a passphrase secrets provider, its
 * own PULUMI_HOME, no update checks and no plugin downloads; stacks driven by the automation API
 * of the project's own `@pulumi/pulumi`, with inline programs.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { enginePath, type PulumiCli } from "./pulumiCli";

/** The parts of `@pulumi/pulumi/automation` used here. */
export type AutomationModule = Pick<typeof automation, "LocalWorkspace" | "PulumiCommand">;

export interface FileBackend {
  /** `<base>/state`, the `file://` backend's directory. */
  stateDir: string;
  /** `<base>/home`, the CLI's PULUMI_HOME. */
  homeDir: string;
  /** Environment for the CLI and the processes it starts. */
  env: Record<string, string>;
  cli: PulumiCli;
}

export function fileBackend(base: string, cli: PulumiCli, passphrase: string): FileBackend {
  const stateDir = path.join(base, "state");
  const homeDir = path.join(base, "home");
  for (const dir of [stateDir, homeDir]) fs.mkdirSync(dir, { recursive: true });
  return {
    stateDir,
    homeDir,
    cli,
    env: {
      PATH: enginePath(cli),
      PULUMI_HOME: homeDir,
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  };
}

/** The automation API of the `@pulumi/pulumi` installed in `projectDir` (see engineStack.ts for why it must be that copy). */
export function automationOf(projectDir: string): AutomationModule {
  return createRequire(path.join(projectDir, "index.js"))("@pulumi/pulumi/automation") as AutomationModule;
}

/** Creates (or selects) a stack of an inline program in `workDir` on the backend. */
export async function inlineStack(
  backend: FileBackend,
  args: { automation: AutomationModule; workDir: string; projectName: string; stackName: string; program: automation.PulumiFn },
): Promise<automation.Stack> {
  const { LocalWorkspace, PulumiCommand } = args.automation;
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(backend.cli.binDir) });
  return LocalWorkspace.createOrSelectStack(
    { projectName: args.projectName, stackName: args.stackName, program: args.program },
    {
      workDir: args.workDir,
      pulumiHome: backend.env["PULUMI_HOME"] ?? "",
      envVars: backend.env,
      pulumiCommand,
      projectSettings: { name: args.projectName, runtime: "nodejs", backend: { url: `file://${backend.stateDir}` } },
    },
  );
}

/** Runs the `pulumi` CLI itself in `cwd` on the backend (for what the automation API does not offer as is). */
export function runPulumi(backend: FileBackend, cwd: string, args: readonly string[]): string {
  return execFileSync(path.join(backend.cli.binDir, "pulumi"), [...args, "--non-interactive"], {
    cwd,
    env: { ...process.env, ...backend.env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}
