#!/usr/bin/env node
// Makes this checkout resolvable as `pulumi-gpucloud` from its own directory tree. Run by the
// scripts that need it (`npm test`'s pretest, `typecheck`, `demo`) and by the test global setup,
// not at install: an install script would run for every user of the package (and npm flags it),
// while only the checkout itself needs the link. It is idempotent and fast.
//
// Why: a dynamic provider runs inside the engine's provider process, which loads the serialized
// provider text with a module search path rooted at the program's working directory. The provider
// text only does `require("pulumi-gpucloud/provider")`, so programs inside this repo (the demo, the
// examples, the engine tests) need `node_modules/pulumi-gpucloud` to point back at the checkout,
// exactly as an installed copy would sit for a user.
//
// It does nothing when this package is itself installed as a dependency (it lives under node_modules).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
if (root.split(path.sep).includes("node_modules")) process.exit(0);

const link = path.join(root, "node_modules", "pulumi-gpucloud");
try {
  const current = fs.lstatSync(link);
  if (current.isSymbolicLink() && path.resolve(path.dirname(link), fs.readlinkSync(link)) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // no link yet
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
