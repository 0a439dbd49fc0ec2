#!/usr/bin/env bash
# Prints the directory of `pulumi-language-nodejs`, the program-generation-only stand-in for the
# Node.js language host (nodejshost/main.go), building it first when needed (build-tool.sh). Put the
# directory on PATH to run `pulumi import` in a TypeScript project where the CLI came without its
# Node.js host (scripts/ensure-pulumi.sh builds only the CLI).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/build-tool.sh" ./nodejshost pulumi-language-nodejs
