#!/usr/bin/env bash
# Draws the storm's price curve on each store: drain rate against the
# users' write p99, for lapse and for the floor at a few batch sizes, and
# for lapse paced by --storm-user-budget at a few budgets, and for the
# floor held by --floor-share to a few shares of its time (beside lapse
# paced by --storm-user-budget 1.5, a point more of it). Each run's JSON
# lands next to its plot in OUT, and OUT/curve-<store>.svg draws them all
# (scripts/pace-curve.py). Run it on a quiet machine.
#
# usage: scripts/pace-curve.sh OUT
# env:   as scripts/bench-setup.sh says (COUPONS defaults to 200000 here);
#        STORES  the stores to run (default: sqlite postgres mysql)
#        BATCHES the unpaced batch sizes (default: 50 200 1000)
#        BUDGETS the budgets, at batch size 1000 (default: 1.5 3)
#        FLOOR_SHARES the floor's shares, at batch size 1000 (default: 0.5 0.2);
#        an empty BATCHES, BUDGETS or FLOOR_SHARES runs none
set -euo pipefail
dest=$1
COUPONS=${COUPONS:-200000}
source "$(dirname "$0")/bench-setup.sh"
mkdir -p "$dest"
curve() { # store name flags...
  local store=$1 name=$2
  shift 2
  storm "$dest/storm-$store-$name" "$(url "$store" "lapse_curve_${stamp}_$name")" --coupons "$coupons" "$@"
}
for store in ${STORES:-sqlite postgres mysql}; do
  for b in ${BATCHES-50 200 1000}; do
    curve "$store" "batch$b" --batch-size "$b"
  done
  for u in ${BUDGETS-1.5 3}; do
    curve "$store" "budget$u" --storm-user-budget "$u"
  done
  for s in ${FLOOR_SHARES-0.5 0.2}; do
    curve "$store" "floorshare$s" --floor-share "$s" --storm-user-budget 1.5
  done
  python3 "$(dirname "$0")/pace-curve.py" "$dest" "$store" > "$dest/curve-$store.svg"
done
