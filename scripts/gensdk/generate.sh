#!/usr/bin/env bash
# Regenerates the SDKs of the provider plugin's package schema: sdks/python, sdks/go and sdks/nodejs from
# plugin/schema.json, and sdks/.schema-sha256 (the schema they came from, which `npm test` compares
# with plugin/schema.json). `npm run sdk:generate`; run `npm run generate` first when the
# field tables or the SDK's declarations changed.
#
# The generator (main.go beside this file) is built once per machine and per version of its
# source, outside the repo: ${GPUCLOUD_TOOLS_CACHE:-$XDG_CACHE_HOME/pulumi-gpucloud}/gensdk-<hash>.
# It needs Go >= 1.25.11 and the modules of go.sum (from the Go module proxy, or the module cache
# the CLI build of scripts/ensure-pulumi.sh filled); no Pulumi language host.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
MIN_GO_MINOR=25 # pkg/v3 v3.259.0 needs go >= 1.25.11
log() { printf '[gensdk] %s\n' "$*" >&2; }

hash="$(cat "$here/main.go" "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)"
cache_root="${GPUCLOUD_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-gpucloud}"
bin_dir="$cache_root/gensdk-$hash"

if [ ! -x "$bin_dir/gensdk" ]; then
  if ! command -v go >/dev/null 2>&1; then
    log "error: generating the SDKs needs Go >= 1.$MIN_GO_MINOR.11 (https://go.dev/dl/) to build the generator; none is on PATH."
    exit 1
  fi
  go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
  if [ "$go_minor" -lt "$MIN_GO_MINOR" ]; then
    log "error: Go $(go env GOVERSION) is too old to build the generator; need go >= 1.$MIN_GO_MINOR.11."
    exit 1
  fi
  mkdir -p "$cache_root"
  exec 9>"$cache_root/.gensdk-build.lock"
  flock 9 # two first runs at once build once
  if [ ! -x "$bin_dir/gensdk" ]; then
    log "building the SDK generator into $bin_dir (first run for this version: up to a few minutes)"
    rm -rf "$bin_dir.partial"
    mkdir -p "$bin_dir.partial"
    (cd "$here" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 GOTOOLCHAIN=local \
      go build -trimpath -o "$bin_dir.partial/gensdk" .) >&2
    mv "$bin_dir.partial" "$bin_dir" # rename last so a half-built cache is never taken as complete
  fi
  exec 9>&-
fi

cd "$root"
"$bin_dir/gensdk" plugin/schema.json sdks
