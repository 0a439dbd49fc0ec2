#!/usr/bin/env node
/**
 * `npx gpucloud-plugin-tarball [directory]` (`npm run plugin:tarball` in a checkout; `--help` for
 * the usage; any other option is refused rather than taken for a directory): makes the
 * tarball that `pulumi plugin install resource gpucloud <version> --file <tarball>` installs into
 * the plugin cache, for programs whose Pulumi.yaml does not point at the package's plugin directory
 * (any language). The tarball holds the launcher and launch.js, not the code: an installed plugin
 * cannot carry the package's dependencies, so it runs the pulumi-gpucloud the project has
 * installed (or the one GPUCLOUD_PACKAGE_DIR names). Uses the system's `tar`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion, PLUGIN_DIR } from "./packageFiles";
import { PACKAGE } from "./tokens";

/** The Pulumi names for this machine's system and architecture, as plugin tarballs are named. */
function platform(): string {
  const system = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${system}-${arch}`;
}

/** Writes the tarball into `directory`; its path. */
export function makePluginTarball(directory: string): string {
  const version = packageVersion();
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-plugin-tarball-"));
  try {
    const executable = `pulumi-resource-${PACKAGE}`;
    for (const file of [executable, `${executable}.cmd`]) fs.copyFileSync(path.join(PLUGIN_DIR, file), path.join(staging, file));
    fs.chmodSync(path.join(staging, executable), 0o755);
    fs.copyFileSync(path.join(PLUGIN_DIR, "installed", "launch.js"), path.join(staging, "launch.js"));
    fs.writeFileSync(path.join(staging, "version"), `${version}\n`);
    fs.mkdirSync(directory, { recursive: true });
    const tarball = path.resolve(directory, `pulumi-resource-${PACKAGE}-v${version}-${platform()}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", staging, "."]);
    return tarball;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** What `gpucloud-plugin-tarball --help` prints. */
export const TARBALL_USAGE = `usage: gpucloud-plugin-tarball [directory]

Writes the provider plugin's tarball (pulumi-resource-${PACKAGE}-v<version>-<os>-<arch>.tar.gz) into
directory (default: the current directory, made if missing) and prints its path and the
\`pulumi plugin install\` line that installs it. The plugin runs the pulumi-gpucloud installed in the
project's node_modules, or the one GPUCLOUD_PACKAGE_DIR names.

options:
  -h, --help   print this help and exit
  --           what follows is the directory, even when it starts with "-"`;

/** What the command line asks for: the help, or a tarball in a directory. */
export type TarballCommand = { help: true } | { help: false; directory: string };

/** A command line the tool cannot run; its message says what was wrong and what to write. */
export class TarballUsageError extends Error {
  override readonly name = "TarballUsageError";
}

/**
 * Reads the command line (without node and the script): `--help`/`-h`, or at most one directory.
 * An option it does not know is refused, naming it, rather than taken for a directory's name.
 */
export function parseTarballArgs(argv: readonly string[], cwd = process.cwd()): TarballCommand {
  const end = argv.indexOf("--");
  const options = end < 0 ? argv : argv.slice(0, end);
  if (options.some((arg) => arg === "--help" || arg === "-h")) return { help: true };
  const unknown = options.find((arg) => arg.startsWith("-") && arg !== "-");
  if (unknown !== undefined) {
    throw new TarballUsageError(
      `unknown option ${JSON.stringify(unknown)}; the only option is --help (-h). ` +
        `For a directory whose name starts with "-", write: gpucloud-plugin-tarball -- ${unknown}`,
    );
  }
  const directories = end < 0 ? [...argv] : [...options, ...argv.slice(end + 1)];
  if (directories.length > 1) {
    throw new TarballUsageError(
      `expected at most one directory, got ${directories.length}: ${directories.map((d) => JSON.stringify(d)).join(" ")}; ` +
        "give one directory, or none for the current one",
    );
  }
  return { help: false, directory: path.resolve(cwd, directories[0] ?? ".") };
}

/** The command line tool: prints the help, or makes the tarball and says how to install it. Its exit code. */
export function runTarballCli(argv: readonly string[], out: (text: string) => void, err: (text: string) => void): number {
  let command: TarballCommand;
  try {
    command = parseTarballArgs(argv);
  } catch (error) {
    if (!(error instanceof TarballUsageError)) throw error;
    err(`gpucloud-plugin-tarball: ${error.message}`);
    return 2;
  }
  if (command.help) {
    out(TARBALL_USAGE);
    return 0;
  }
  const tarball = makePluginTarball(command.directory);
  out(
    `${tarball}\ninstall it with: pulumi plugin install resource ${PACKAGE} ${packageVersion()} --file ${tarball}\n` +
      "(it runs the pulumi-gpucloud installed in the project's node_modules, or the one GPUCLOUD_PACKAGE_DIR names)",
  );
  return 0;
}

if (require.main === module) {
  process.exitCode = runTarballCli(
    process.argv.slice(2),
    (text) => console.log(text),
    (text) => console.error(text),
  );
}
