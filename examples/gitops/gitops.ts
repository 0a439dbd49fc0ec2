/**
 * The GitOps flow's steps, one command each: the workflow (workflow.yml) calls them, and they run
 * the same on your machine. Node 24 runs this file as it is (`node gitops.ts ...`).
 *
 *   node gitops.ts plan STACK       pull request: print the plan (preview with the diff); changes nothing
 *   node gitops.ts deploy STACK     main: `up --refresh`, then the converged check
 *   node gitops.ts converged STACK  the plan must be empty right after an up (preview --expect-no-changes)
 *   node gitops.ts drift STACK      nightly: refresh from the service, then the plan must be empty
 *                                   (preview --refresh --expect-no-changes); fails naming what drifted
 *
 * Exit status: 0 done; 1 the step failed (the up failed, not converged, drift); 2 bad usage.
 *
 * Where it deploys comes from the environment, not from the stack files, so that one workflow
 * serves CI (the emulator) and production (the service, with the key from the CI's secret store):
 *   GPUCLOUD_API_URL, GPUCLOUD_SERVERLESS_URL, GPUCLOUD_API_KEY     the service or an emulator
 *   PULUMI_BACKEND_URL + PULUMI_CONFIG_PASSPHRASE, or PULUMI_ACCESS_TOKEN     where stacks are kept
 * The `pulumi` CLI must be on PATH. The program is run in this process (an inline program of the
 * automation API), from program.ts; the stack's config is Pulumi.<STACK>.yaml beside this file.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
// The file path: this script is an ES module, which does not resolve a directory import.
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation/index.js";
import { program } from "./program.ts";

const STEPS = ["plan", "deploy", "converged", "drift"] as const;
type Step = (typeof STEPS)[number];
const USAGE = `usage: node gitops.ts <${STEPS.join("|")}> <stack>`;
const here = path.dirname(fileURLToPath(import.meta.url));

/** Engine output goes to our stdout as it comes, so the CI log shows the plan. */
const print = { onOutput: (out: string) => void process.stdout.write(out) };

function say(message: string): void {
  process.stdout.write(`[gitops] ${message}\n`);
}

/** The lines of the engine's diff that name a resource and what changes on it, for the verdict. */
function changedLines(output: string): string[] {
  return output.split("\n").filter((line) => /^\s*(~|\+|-|\+-|-\+)\s|\[urn=|\[diff: /.test(line) && !/pulumi:pulumi:Stack/.test(line));
}

async function converged(stack: Stack, what: string, refresh: boolean): Promise<boolean> {
  let output = "";
  try {
    await stack.preview({
      expectNoChanges: true,
      diff: true,
      refresh,
      onOutput: (out: string) => {
        output += out;
        process.stdout.write(out);
      },
    });
    say(`${what}: no changes`);
    return true;
  } catch (error) {
    const lines = changedLines(output);
    say(`${what}: FAILED: the plan is not empty${lines.length ? `:\n${lines.join("\n")}` : ""}`);
    if (!lines.length) say(error instanceof Error ? error.message : String(error));
    return false;
  }
}

async function run(step: Step, stackName: string): Promise<boolean> {
  for (const name of ["GPUCLOUD_API_URL", "GPUCLOUD_SERVERLESS_URL", "GPUCLOUD_API_KEY"]) {
    if (!process.env[name]) throw new Error(`${name} is not set: export the service's (or an emulator's) URLs and key, see the README`);
  }
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: "gpucloud-gitops", stackName, program: async () => program() },
    { workDir: here },
  );
  switch (step) {
    case "plan": {
      const preview = await stack.preview({ diff: true, ...print });
      say(`plan for ${stackName}: ${JSON.stringify(preview.changeSummary)}`);
      return true;
    }
    case "deploy": {
      // --refresh: a value changed behind the stack's back is put back, not kept because the
      // state still holds the old reading.
      const up = await stack.up({ diff: true, refresh: true, ...print });
      say(`up ${stackName}: ${up.summary.result} ${JSON.stringify(up.summary.resourceChanges)}`);
      if (up.summary.result !== "succeeded") return false;
      return converged(stack, `converged check of ${stackName}`, false);
    }
    case "converged":
      return converged(stack, `converged check of ${stackName}`, false);
    case "drift":
      // preview --refresh reads every resource back first, then plans: a value changed behind the
      // stack's back shows as the update that would put the declared value back.
      return converged(stack, `drift check of ${stackName}`, true);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [step, stackName, ...rest] = argv;
  if (!STEPS.includes(step as Step) || !stackName || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    return (await run(step as Step, stackName)) ? 0 : 1;
  } catch (error) {
    say(`${step} ${stackName} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
