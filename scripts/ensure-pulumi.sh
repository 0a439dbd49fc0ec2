#!/usr/bin/env bash
# Provides the Pulumi CLI at the version pinned below (it must match the @pulumi/pulumi dependency).
# Prints the directory holding the `pulumi` binary on its last line of stdout; progress goes to stderr.
#
# Only the `pulumi` binary is built. The Node.js language host (`pulumi-language-nodejs`, needed to
# run `pulumi up` inside a project folder) is an untagged Go module that the Go module proxy reachable
# here does not serve at any version (403 for the release pseudo-versions). This project's tests and
# demo do not need it: they run their programs inline through the automation API, where the program
# runs in the calling Node process. A machine with the regular Pulumi CLI installed has both.
#
# Order of preference:
#   1. a cached build under ${GPUCLOUD_TOOLS_CACHE:-$XDG_CACHE_HOME/pulumi-gpucloud} (reused in well under a second);
#   2. a `pulumi` on PATH whose version is at least the pinned one;
#   3. a build from Go modules (the CLI is not downloadable as a binary on every machine).
# The build lives outside the repo so it happens once per machine, not once per clone.
set -euo pipefail

PULUMI_VERSION="3.259.0"
# Non-local replace directives of github.com/pulumi/pulumi/pkg/v3 at the pinned version; `go build`
# of a wrapper module must repeat them, since replaces of dependencies are not inherited.
CLIPBOARD_REPLACE="github.com/atotto/clipboard=github.com/tgummerer/clipboard@v0.0.0-20241001131231-d02d263e614e"
MIN_GO_MINOR=25 # go >= 1.25.11 is required by pkg/v3 at this version

cache_root="${GPUCLOUD_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-gpucloud}"
bin_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"
log() { printf '[ensure-pulumi] %s\n' "$*" >&2; }

version_at_least() { # $1 >= $2, both X.Y.Z
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

# The engine runs dynamic providers through the `pulumi-resource-pulumi-nodejs` host. A regular
# Pulumi install ships it next to the `pulumi` binary, where the engine looks for bundled plugins;
# found anywhere else on $PATH, the engine warns on every stack operation. The host only resolves
# @pulumi/pulumi from the program's directory, so one copy serves every checkout on the machine.
install_provider_host() {
  local host="$bin_dir/pulumi-resource-pulumi-nodejs"
  [ -x "$host" ] && { install_policy_host; return 0; }
  cat > "$host.tmp" <<'HOST'
#!/bin/sh
# The Node.js dynamic provider host: runs @pulumi/pulumi's dynamic provider, resolved from the
# current directory (the program's), with the `node` first on PATH.
script=$(node -e "process.stdout.write(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))") || exit 1
exec node "$script" "$@"
HOST
  chmod +x "$host.tmp" && mv "$host.tmp" "$host"
  install_policy_host
}

# Policy packs in Node.js (`--policy-pack`, e.g. this package's policy-pack/) run through the Node.js
# language host, or where none is installed (as here) through a `pulumi-analyzer-policy-nodejs`
# plugin. The package ships that plugin (policy-pack/bin); a copy goes beside the CLI, like the
# provider host.
install_policy_host() {
  local host="$bin_dir/pulumi-analyzer-policy-nodejs"
  local shipped
  shipped="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/policy-pack/bin/pulumi-analyzer-policy-nodejs"
  [ -x "$host" ] && cmp -s "$host" "$shipped" && return 0
  cp "$shipped" "$host.tmp" && chmod +x "$host.tmp" && mv "$host.tmp" "$host"
}

if [ -x "$bin_dir/pulumi" ]; then
  install_provider_host
  echo "$bin_dir"; exit 0
fi

if command -v pulumi >/dev/null 2>&1; then
  have="$(pulumi version 2>/dev/null | sed 's/^v//')"
  if [ -n "$have" ] && version_at_least "$have" "$PULUMI_VERSION"; then
    log "using pulumi v$have from PATH ($(command -v pulumi))"
    dirname "$(command -v pulumi)"; exit 0
  fi
  log "pulumi on PATH is v${have:-unknown}, older than v$PULUMI_VERSION: building v$PULUMI_VERSION instead"
fi

if ! command -v go >/dev/null 2>&1; then
  cat >&2 <<MSG
[ensure-pulumi] error: no Pulumi CLI >= v$PULUMI_VERSION on PATH, and no Go toolchain to build one.
[ensure-pulumi] fix: install the Pulumi CLI (https://www.pulumi.com/docs/install/, e.g. 'curl -fsSL https://get.pulumi.com | sh'),
[ensure-pulumi]      or install Go >= 1.$MIN_GO_MINOR.11 so this script can build it from Go modules.
MSG
  exit 1
fi
go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
if [ "$go_minor" -lt "$MIN_GO_MINOR" ]; then
  log "error: Go $(go env GOVERSION) is too old to build Pulumi v$PULUMI_VERSION; need go >= 1.$MIN_GO_MINOR.11, or install the Pulumi CLI directly."
  exit 1
fi

work="$cache_root/build-pulumi-v$PULUMI_VERSION"
mkdir -p "$work" "$cache_root"
exec 9>"$cache_root/.pulumi-build.lock"
flock 9 # two concurrent first runs (tests and demo) build once
if [ -x "$bin_dir/pulumi" ]; then install_provider_host; echo "$bin_dir"; exit 0; fi

log "building pulumi v$PULUMI_VERSION from Go modules into $bin_dir (first run on this machine: several minutes)"
cd "$work"
cat > go.mod <<MOD
module gpucloud.local/pulumi-cli-build

go 1.25.11
MOD
cat > tools.go <<'SRC'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
SRC
export GOFLAGS="-mod=mod" CGO_ENABLED=0 GOTOOLCHAIN=local
go mod edit -require="github.com/pulumi/pulumi/pkg/v3@v$PULUMI_VERSION" -require="github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION" -replace="$CLIPBOARD_REPLACE"
log "resolving modules (go mod tidy)"
go mod tidy >&2
tmp_bin="$work/out"
mkdir -p "$tmp_bin"
log "compiling pulumi (go build; no output until it is done)"
# go build says nothing for minutes: a heartbeat shows the first run is not stuck.
started=$(date +%s)
( while sleep 30; do log "still compiling pulumi ($(( ($(date +%s) - started) / 60 )) min $(( ($(date +%s) - started) % 60 )) s so far)"; done ) &
heartbeat=$!
# `|| true`: the heartbeat is usually gone by exit, and under `set -e` a failing kill in the EXIT
# trap would become the script's exit status (a fresh machine's first run then failed after building).
trap 'kill $heartbeat 2>/dev/null || true' EXIT
go build -trimpath -tags osusergo,grpcnotrace \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION" \
  -o "$tmp_bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
mkdir -p "$(dirname "$bin_dir")"
rm -rf "$bin_dir.partial"
mv "$tmp_bin" "$bin_dir.partial"
kill $heartbeat 2>/dev/null || true
mv "$bin_dir.partial" "$bin_dir" # rename last so a half-built cache is never taken as complete
install_provider_host
log "built $("$bin_dir/pulumi" version)"
echo "$bin_dir"
