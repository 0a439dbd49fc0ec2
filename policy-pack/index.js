// The ready policy pack of pulumi-gpucloud: `pulumi preview --policy-pack <this folder>`.
// Its policies and their config are described in the package's docs/policy.md. In place (the
// folder inside the package), it serves the package it ships in; a copy of the folder (e.g. to
// publish it) serves the pulumi-gpucloud its package.json depends on.
const fs = require("node:fs");
const path = require("node:path");

const own = path.join(__dirname, "..", "dist", "sdk", "policy", "index.js");
const policy = fs.existsSync(own) ? require(own) : require("pulumi-gpucloud/policy");
policy.createGpucloudPolicyPack();
