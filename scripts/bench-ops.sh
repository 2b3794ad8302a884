#!/usr/bin/env bash
# The bulk operations' benchmark of issue 14 on each store, one after
# another: `lapse bench ops` seeds COUPONS coupons to void and as many to
# extend, measures the user load alone, bulk voids and bulk extends them
# through the engine under that load, then archives the voided ones, and
# writes docs/bench/ops-<store>.json beside ops-<store>.svg. Run it on a
# quiet machine; each JSON records the load average with its figures.
#
# usage: scripts/bench-ops.sh [sqlite|postgres|mariadb|all] (default all)
# env:   LAPSE_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432)
#        LAPSE_BENCH_MYSQL    (default mysql://root@127.0.0.1:3306)
#        COUPONS              (default 1000000)
#        IDLE                 (default 20s)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
pg=${LAPSE_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
my=${LAPSE_BENCH_MYSQL:-mysql://root@127.0.0.1:3306}
coupons=${COUPONS:-1000000}
idle=${IDLE:-20s}
out=docs/bench
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/lapse
go build -o "$bin" ./cmd/lapse
stamp=$(date +%s)

ops() { # name store-url
  echo "== ops $1" >&2
  "$bin" bench ops --coupons "$coupons" --idle "$idle" --store "$2" --out "$out/ops-$1.json" --plot "$out/ops-$1.svg"
}

case $what in
sqlite | postgres | mariadb | all) ;;
*)
  echo "usage: scripts/bench-ops.sh [sqlite|postgres|mariadb|all]" >&2
  exit 2
  ;;
esac
if [[ $what == sqlite || $what == all ]]; then
  ops sqlite "sqlite:$tmp/ops.db"
fi
if [[ $what == postgres || $what == all ]]; then
  ops postgres "$pg/lapse_ops_$stamp?sslmode=disable"
fi
if [[ $what == mariadb || $what == all ]]; then
  ops mariadb "$my/lapse_ops_$stamp"
fi
