/**
 * The package as a user installs it: `npm pack` of this checkout, extracted into the node_modules of
 * a project outside the repo. Used by the packed-install engine test and by bench-provider, which
 * measures what users run (inside the repo the provider shims are serialized by value, about 2 KB
 * per resource, where an installed copy is a bare require of a few hundred bytes).
 *
 * Needs a current dist/ (`npx tsc -p tsconfig.json`): that is what `npm pack` ships.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./repoRoot";

/**
 * Packs a checkout (default: this one) and installs the tarball into
 * `<base>/project/node_modules/pulumi-gpucloud`; every other dependency is a symlink to that
 * checkout's node_modules (what `npm install` of the tarball would resolve, without a registry),
 * except @pulumi/pulumi, which is copied (see below).
 */
export function installPackedCopy(base: string, root: string = repoRoot()): { projectDir: string; tarball: string } {
  const packDir = path.join(base, "pack");
  const projectDir = path.join(base, "project");
  const modulesDir = path.join(projectDir, "node_modules");
  const installDir = path.join(modulesDir, "pulumi-gpucloud");
  for (const dir of [packDir, installDir]) fs.mkdirSync(dir, { recursive: true });

  const env = { ...process.env, PATH: [path.join(root, "node_modules", ".bin"), process.env["PATH"] ?? ""].join(path.delimiter) };
  const packed = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], {
    cwd: root,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename } = { filename: "" }] = JSON.parse(packed) as { filename: string }[];
  const tarball = path.join(packDir, path.basename(filename));
  execFileSync("tar", ["-xzf", tarball, "-C", installDir, "--strip-components=1"]);

  for (const entry of fs.readdirSync(path.join(root, "node_modules"))) {
    if (entry === "pulumi-gpucloud" || entry.startsWith(".")) continue;
    const source = path.join(root, "node_modules", entry);
    if (entry === "@pulumi") {
      // @pulumi/pulumi is copied, not linked: its closure serializer finds the package a provider
      // object came from by resolving `pulumi-gpucloud` from its own location. A link would put
      // that location in this checkout (Node follows links), where `pulumi-gpucloud` is the repo,
      // not the installed copy. A user's project has a real @pulumi/pulumi next to the package.
      fs.cpSync(source, path.join(modulesDir, entry), { recursive: true });
      continue;
    }
    fs.symlinkSync(source, path.join(modulesDir, entry), "dir");
  }
  fs.writeFileSync(
    path.join(projectDir, "package.json"),
    JSON.stringify({ name: "packed-consumer", private: true, dependencies: { "pulumi-gpucloud": "*" } }, null, 2),
  );
  return { projectDir, tarball };
}
