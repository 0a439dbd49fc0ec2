#!/usr/bin/env node
/**
 * `npx gpucloud-plugin-tarball [directory]` (`npm run plugin:tarball` in a checkout): makes the
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

if (require.main === module) {
  const tarball = makePluginTarball(process.argv[2] ?? process.cwd());
  console.log(
    `${tarball}\ninstall it with: pulumi plugin install resource ${PACKAGE} ${packageVersion()} --file ${tarball}\n` +
      "(it runs the pulumi-gpucloud installed in the project's node_modules, or the one GPUCLOUD_PACKAGE_DIR names)",
  );
}
