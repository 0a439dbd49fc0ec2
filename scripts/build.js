#!/usr/bin/env node
// Builds dist/, the compiled package, from the TypeScript sources: dist/ is removed first (so that
// a deleted source leaves no stale module behind), then `tsc -p tsconfig.json`, then, when the
// checkout has it, `tsc -p sdks/tsconfig.nodejs.json` (the Node.js SDK generated from the plugin's
// schema, the `/plugin` subpath, with the generator's compiler options), then a stamp,
// dist/.sources-sha256, the digest of what the build read.
//
//   node scripts/build.js             always builds (`npm run build`)
//   node scripts/build.js --if-stale  builds unless the stamp matches the sources (`prepare`, `npm test`)
//
// Why `--if-stale`: npm runs `prepare` at `npm install` of the package from git (which is how a git
// install gets its compiled code: dist/ is not committed) and also at `npm ci` / `npm install` in a
// checkout and at `npm pack`; `npm test` builds too. With the stamp, `npm ci && npm test` compiles
// once, and a test run after an edit still compiles what changed.
//
// Plain CommonJS, no dependency but TypeScript: it runs before anything is compiled, under whatever
// Node.js npm runs scripts with.
"use strict";
const { createHash } = require("node:crypto");
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const stamp = path.join(dist, ".sources-sha256");

/** The TypeScript projects compiled, in order: the package, then the generated Node.js SDK where there is one. */
const NODEJS_SDK_PROJECT = "sdks/tsconfig.nodejs.json";
function projects() {
  return ["tsconfig.json", NODEJS_SDK_PROJECT].filter((file) => fs.existsSync(path.join(root, file)));
}

/** A tsconfig's `include` folders, relative to the root (the file may hold comments, as tsconfig files do). */
function includedFolders(project) {
  const text = fs.readFileSync(path.join(root, project), "utf8").replace(/^\s*\/\/.*$/gm, "");
  return JSON.parse(text).include.map((folder) => path.posix.join(path.posix.dirname(project), folder));
}

/** The files a build depends on: the compiled folders (each project's include), the tsconfigs and the lockfile. */
function inputs() {
  const files = [...projects(), "package-lock.json"].filter((file) => fs.existsSync(path.join(root, file)));
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (entry.name === "node_modules") continue;
      const file = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) files.push(file);
    }
  };
  for (const folder of projects().flatMap(includedFolders)) if (fs.existsSync(path.join(root, folder))) walk(folder);
  return files.sort();
}

/** The digest of the build's inputs: their paths and contents. */
function sourcesDigest() {
  const hash = createHash("sha256");
  for (const file of inputs()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function isCurrent(digest) {
  try {
    return fs.readFileSync(stamp, "utf8").trim() === digest && fs.existsSync(path.join(dist, "sdk", "index.js"));
  } catch {
    return false;
  }
}

function build(digest) {
  fs.rmSync(dist, { recursive: true, force: true });
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
  for (const project of projects()) {
    const result = spawnSync(process.execPath, [tsc, "-p", path.join(root, project)], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) {
      console.error(
        `build: tsc -p ${project} failed (exit ${result.status ?? result.signal}); dist/ is incomplete, fix the errors above and build again`,
      );
      process.exit(result.status || 1);
    }
  }
  if (projects().includes(NODEJS_SDK_PROJECT)) writeNodejsSdkVersion();
  fs.writeFileSync(stamp, `${digest}\n`);
}

/**
 * The generated SDK reads its version (the plugin version its resources ask the engine for) from a
 * package.json beside its compiled utilities.js. Only the version goes there: the generated
 * package.json also marks a resource plugin, which the engine's plugin discovery would then ask
 * every program that installs this package for, the dynamic resources' programs included.
 */
function writeNodejsSdkVersion() {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "sdks", "nodejs", "package.json"), "utf8"));
  fs.writeFileSync(path.join(dist, "sdks", "nodejs", "package.json"), `${JSON.stringify({ version }, null, 2)}\n`);
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== "--if-stale");
if (unknown.length > 0) {
  console.error(`build: unknown argument ${JSON.stringify(unknown[0])}; the only one is --if-stale (build only when the sources changed)`);
  process.exit(2);
}
const digest = sourcesDigest();
if (args.includes("--if-stale") && isCurrent(digest)) {
  console.log("build: dist/ is current (the sources have not changed since it was built)");
} else {
  build(digest);
}
