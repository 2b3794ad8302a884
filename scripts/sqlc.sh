#!/usr/bin/env bash
# sqlc.sh [generate|diff]: runs sqlc, at the version lapse pins, on every
# backend's checked queries (driver/*/internal/dbsqlc). generate (the
# default) rewrites the Go from the .sql files and the migrations; diff
# fails if the Go committed is not what they generate (CI runs it). The
# first run builds sqlc, with cgo, from the module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
for cfg in driver/*/internal/dbsqlc/sqlc.yaml; do
  go run github.com/sqlc-dev/sqlc/cmd/sqlc@v1.31.1 "${1:-generate}" -f "$cfg"
done
