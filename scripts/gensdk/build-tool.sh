#!/usr/bin/env bash
# Builds one Go program of this folder's module (scripts/gensdk) once per machine and per version of
# the module's sources, outside the repo, and prints the directory that holds it:
#   build-tool.sh <package dir, e.g. "." or "./nodejshost"> <binary name>
# into ${GPUCLOUD_TOOLS_CACHE:-$XDG_CACHE_HOME/pulumi-gpucloud}/<binary>-<hash>. It needs Go >= 1.25.11
# and the modules of go.sum (from the Go module proxy, or the module cache the CLI build of
# scripts/ensure-pulumi.sh filled).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$1"
binary="$2"
MIN_GO_MINOR=25 # pkg/v3 v3.259.0 needs go >= 1.25.11
log() { printf '[gensdk] %s\n' "$*" >&2; }

hash="$(cat "$here"/*.go "$here"/nodejshost/*.go "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)"
cache_root="${GPUCLOUD_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-gpucloud}"
bin_dir="$cache_root/$binary-$hash"

if [ ! -x "$bin_dir/$binary" ]; then
  if ! command -v go >/dev/null 2>&1; then
    log "error: building $binary needs Go >= 1.$MIN_GO_MINOR.11 (https://go.dev/dl/); none is on PATH."
    exit 1
  fi
  go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
  if [ "$go_minor" -lt "$MIN_GO_MINOR" ]; then
    log "error: Go $(go env GOVERSION) is too old to build $binary; need go >= 1.$MIN_GO_MINOR.11."
    exit 1
  fi
  mkdir -p "$cache_root"
  exec 9>"$cache_root/.$binary-build.lock"
  flock 9 # two first runs at once build once
  if [ ! -x "$bin_dir/$binary" ]; then
    log "building $binary into $bin_dir (first run for this version: up to a few minutes)"
    rm -rf "$bin_dir.partial"
    mkdir -p "$bin_dir.partial"
    (cd "$here" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 GOTOOLCHAIN=local \
      go build -trimpath -o "$bin_dir.partial/$binary" "$package") >&2
    mv "$bin_dir.partial" "$bin_dir" # rename last so a half-built cache is never taken as complete
  fi
  exec 9>&-
fi
echo "$bin_dir"
