/**
 * Provides the Pulumi CLI to every engine test. If the CLI can be neither found nor built, the whole
 * run fails here with the reason: engine tests are never skipped silently.
 */
import type { TestProject } from "vitest/node";
import { ensurePulumiCli } from "../scripts/lib/pulumiCli";

export default function setup(project: TestProject): void {
  const cli = ensurePulumiCli();
  console.log(`[engine tests] Pulumi CLI ${cli.version} from ${cli.binDir}`);
  project.provide("pulumiCli", cli);
}

declare module "vitest" {
  export interface ProvidedContext {
    pulumiCli: { binDir: string; version: string };
  }
}
