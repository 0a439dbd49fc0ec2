#!/usr/bin/env node
// Fails fast, with the fix, when a script runs under a Node.js older than the project supports.
// npm scripts run the `node` dev dependency (Node 24) first on PATH, so this only trips when the
// dependencies are not installed yet or a script is run by hand with the system Node.
"use strict";
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `pulumi-gpucloud needs Node.js >= 22, but this is ${process.version} (${process.execPath}).\n` +
      "Fix: run `npm ci` first (it installs Node 24 as a dev dependency), then use `npm test` / `npm run demo`,\n" +
      "which put node_modules/.bin (and its node) first on PATH.",
  );
  process.exit(1);
}
