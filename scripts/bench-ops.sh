#!/usr/bin/env bash
# The bulk operations' benchmark of issue 14 on each store, one after
# another: `lapse bench ops` seeds COUPONS coupons to void and as many to
# extend, measures the user load alone, bulk voids and bulk extends them
# through the engine under that load, then archives the voided ones, and
# writes docs/bench/ops-<store>.json beside ops-<store>.svg. Run it on a
# quiet machine; each JSON records the load average with its figures.
#
# usage: scripts/bench-ops.sh [sqlite|postgres|mariadb|all] (default all)
# env:   as scripts/bench-setup.sh says, and
#        IDLE                 (default 20s)
set -euo pipefail
what=${1:-all}
idle=${IDLE:-20s}
source "$(dirname "$0")/bench-setup.sh"

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
