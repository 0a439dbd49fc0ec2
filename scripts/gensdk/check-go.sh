#!/usr/bin/env bash
# Builds the generated Go SDK (sdks/go) as a Go program that uses it would: in a copy, where
# `go mod tidy` may write its go.sum and fill in indirect requirements without touching the
# checked-in files, then `go build ./...` and `go vet ./...`. `npm run sdk:check-go`; needs Go
# >= 1.25 and the Go module proxy (or a module cache holding what go.mod requires).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if ! command -v go >/dev/null 2>&1; then
  echo "[check-go] error: building the Go SDK needs Go >= 1.25 (https://go.dev/dl/); none is on PATH." >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R "$root/sdks/go/." "$work/"
cd "$work"
export GOFLAGS="-buildvcs=false" GOTOOLCHAIN=local
go mod tidy
go build ./...
go vet ./...
echo "[check-go] sdks/go builds ($(sed -n 's/^module //p' go.mod), $(go list ./... | wc -l | tr -d ' ') packages)"
