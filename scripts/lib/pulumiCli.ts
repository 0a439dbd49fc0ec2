/**
 * Locates (or builds, once per machine) the Pulumi CLI through scripts/ensure-pulumi.sh, and the
 * environment that lets the engine run this project's programs: Node 24 first on PATH (the dynamic
 * provider host is a shell shim that runs `node`), then the CLI with the host beside it.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "./repoRoot";

export interface PulumiCli {
  /** Directory holding the `pulumi` binary. */
  binDir: string;
  /** The CLI's own version string, e.g. "v3.259.0". */
  version: string;
}

export function ensurePulumiCli(): PulumiCli {
  const root = repoRoot();
  let out: string;
  try {
    out = execFileSync("bash", [path.join(root, "scripts", "ensure-pulumi.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"], // progress (stderr) stays visible during a cold build
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (e) {
    throw new Error(
      "The Pulumi CLI is needed and scripts/ensure-pulumi.sh could not provide it (its message is above). " +
        "Install the Pulumi CLI or Go >= 1.25.11, then try again.",
      { cause: e },
    );
  }
  const binDir = out.trim().split("\n").pop() ?? "";
  const version = execFileSync(path.join(binDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  return { binDir, version };
}

/**
 * PATH for the CLI and every process it starts: this project's Node first, then the CLI. The
 * dynamic provider host is found next to the CLI (ensure-pulumi.sh puts it there), where the
 * engine takes it as bundled and does not warn that it came from $PATH.
 */
export function enginePath(cli: PulumiCli): string {
  const root = repoRoot();
  return [path.join(root, "node_modules", ".bin"), cli.binDir, process.env["PATH"] ?? ""].join(path.delimiter);
}
