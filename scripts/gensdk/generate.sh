#!/usr/bin/env bash
# Regenerates the SDKs of the provider plugin's package schema: sdks/python, sdks/go and sdks/nodejs
# from plugin/schema.json, and sdks/.schema-sha256 (the schema they came from, which `npm test`
# compares with plugin/schema.json). `npm run sdk:generate`; run `npm run generate` first when the
# field tables or the SDK's declarations changed.
#
# The generator (main.go beside this file) is built once per machine and per version of its
# source, outside the repo (build-tool.sh): ${GPUCLOUD_TOOLS_CACHE:-$XDG_CACHE_HOME/pulumi-gpucloud}/gensdk-<hash>.
# It needs Go >= 1.25.11 and the modules of go.sum (from the Go module proxy, or the module cache
# the CLI build of scripts/ensure-pulumi.sh filled); no Pulumi language host.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin_dir="$(bash "$here/build-tool.sh" . gensdk)"
cd "$root"
"$bin_dir/gensdk" plugin/schema.json sdks
