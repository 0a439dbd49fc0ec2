/**
 * Locates (or builds, once per machine) the Pulumi CLI through scripts/ensure-pulumi.sh.
 * Used by the vitest global setup and the demo; never skips: a missing CLI is an error that says why.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

export interface PulumiCli {
  /** Directory holding the `pulumi` binary. */
  binDir: string;
  /** The CLI's own version string, e.g. "v3.259.0". */
  version: string;
}

const repoRoot = path.resolve(__dirname, "..", "..");

export function ensurePulumiCli(): PulumiCli {
  let out: string;
  try {
    out = execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"], // progress (stderr) stays visible during a cold build
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (e) {
    throw new Error(
      "The engine tests need the Pulumi CLI and scripts/ensure-pulumi.sh could not provide it (its message is above). " +
        "Install the Pulumi CLI or Go >= 1.25.11, then run the tests again.",
      { cause: e },
    );
  }
  const binDir = out.trim().split("\n").pop() ?? "";
  const version = execFileSync(path.join(binDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  return { binDir, version };
}
