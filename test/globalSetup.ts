/**
 * Provides the Pulumi CLI to every engine test. If the CLI can be neither found nor built, the whole
 * run fails here with the reason: engine tests are never skipped silently.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import type { TestProject } from "vitest/node";
import { ensurePulumiCli } from "../scripts/lib/pulumiCli";

export default function setup(project: TestProject): void {
  // The engine tests' programs load this checkout as `pulumi-gpucloud` (scripts/link-self.js), also
  // when vitest is run directly rather than through `npm test`.
  execFileSync(process.execPath, [path.join(__dirname, "..", "scripts", "link-self.js")], { stdio: "inherit" });
  const cli = ensurePulumiCli();
  console.log(`[engine tests] Pulumi CLI ${cli.version} from ${cli.binDir}`);
  project.provide("pulumiCli", cli);
}

declare module "vitest" {
  export interface ProvidedContext {
    pulumiCli: { binDir: string; version: string };
  }
}
