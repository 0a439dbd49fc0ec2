/**
 * The package installed from its git repository gets its compiled code. dist/ is not committed, so
 * npm makes a git dependency's package by installing its dependencies in a checkout, running its
 * `prepare` script and packing the result; this test does the same without a registry: a copy of
 * this checkout's files as git knows them (tracked and new, not ignored: no dist/), this
 * checkout's node_modules linked in place of the install, then `npm pack` with its scripts. The
 * tarball must hold every file package.json's main, types, exports and bin name, and, installed
 * into a project outside the repo, `require("pulumi-gpucloud")` must load from there.
 *
 * A real `npm install git+file://<clone>` (or of the packed tarball) needs the registry for the
 * dependencies, so it is not run here. Compiles the package once (about 30 s on 2 cores).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installPackedCopy } from "../../scripts/lib/packedInstall";

const repoRoot = path.resolve(__dirname, "..", "..");

const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  main: z.string(),
  types: z.string(),
  exports: z.record(z.string(), z.union([z.string(), z.record(z.string(), z.string())])),
  bin: z.record(z.string(), z.string()),
});
const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")));

/** The files package.json points at (export patterns with `*` left out), without a leading "./". */
function entryFiles(): string[] {
  const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin)];
  for (const target of Object.values(manifest.exports)) targets.push(...(typeof target === "string" ? [target] : Object.values(target)));
  return [...new Set(targets.filter((target) => !target.includes("*")).map((target) => target.replace(/^\.\//, "")))].sort();
}

describe("the package made from a git checkout, as npm makes a git dependency", { timeout: 300_000 }, () => {
  let base: string;
  let checkout: string;
  let packed: string[];
  let distBefore: boolean;
  let output: string;

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-git-install-"));
    checkout = path.join(base, "checkout");
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    for (const file of listed.split("\0").filter((f) => f !== "" && fs.existsSync(path.join(repoRoot, f)))) {
      fs.mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
      fs.copyFileSync(path.join(repoRoot, file), path.join(checkout, file));
    }
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(checkout, "node_modules"), "dir");
    const env = { ...process.env, PATH: [path.join(repoRoot, "node_modules", ".bin"), process.env["PATH"] ?? ""].join(path.delimiter) };
    distBefore = fs.existsSync(path.join(checkout, "dist"));
    const run = spawnSync("npm", ["pack", "--json", "--foreground-scripts", "--pack-destination", base], {
      cwd: checkout,
      env,
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`npm pack failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    output = `${run.stdout}\n${run.stderr}`;
    // The script's lines may come before the JSON on stdout.
    const json = run.stdout.slice(run.stdout.search(/^\[/m));
    const [result] = z.array(z.object({ files: z.array(z.object({ path: z.string() })) })).parse(JSON.parse(json));
    packed = (result?.files ?? []).map((file) => file.path);
  });

  afterAll(() => {
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it("the copy starts without dist/, and npm pack runs prepare, which compiles it", () => {
    expect(distBefore).toBe(false);
    expect(output).toContain("node scripts/build.js --if-stale");
    expect(fs.readFileSync(path.join(checkout, "dist", ".sources-sha256"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it("packs every file package.json's main, types, exports and bin name", () => {
    const files = entryFiles();
    expect(files).toContain("dist/sdk/index.js");
    expect(files.filter((file) => !packed.includes(file))).toEqual([]);
  });

  it("installed into a project outside the repo, loads with require", () => {
    const { projectDir } = installPackedCopy(path.join(base, "consumer"), checkout);
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        'const g = require("pulumi-gpucloud"); console.log(JSON.stringify([require.resolve("pulumi-gpucloud"), typeof g.NetworkVolume, require("pulumi-gpucloud/package.json").version]))',
      ],
      { cwd: projectDir, encoding: "utf8" },
    );
    const [resolved, kind, version] = z.tuple([z.string(), z.string(), z.string()]).parse(JSON.parse(loaded));
    expect(fs.realpathSync(resolved)).toBe(fs.realpathSync(path.join(projectDir, "node_modules", manifest.name, manifest.main)));
    expect([kind, version]).toEqual(["function", manifest.version]);
  });
});
