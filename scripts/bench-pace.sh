#!/usr/bin/env bash
# Runs issue 27's storm targets, each flat out and paced by
# --storm-user-budget 1.5, side by side: a 1 M storm on SQLite, 200 k on
# PostgreSQL and MariaDB with 1 and 3 instances. Each run's JSON (with
# the pace's trace) lands next to its plot in OUT. Run it on a quiet
# machine.
#
# usage: scripts/bench-pace.sh OUT
# env:   as scripts/bench-setup.sh says; RUNS narrows the runs by name
#        (e.g. "postgres-200k-3-paced")
set -euo pipefail
dest=$1
source "$(dirname "$0")/bench-setup.sh"
mkdir -p "$dest"
pair() { # store label coupons instances: flat out, then paced
  local store=$1 label=$2 n=$3 inst=$4 name budget
  for budget in 0 1.5; do
    name="$label-$((n / 1000))k-$inst"
    ((n % 1000000)) || name="$label-$((n / 1000000))m-$inst"
    [ "$budget" = 0 ] && name+="-flat" || name+="-paced"
    if [ -n "${RUNS:-}" ] && [[ " $RUNS " != *" $name "* ]]; then continue; fi
    storm "$dest/storm-$name" "$(url "$store" "lapse_pace_${stamp}_${name//-/_}")" \
      --coupons "$n" --instances "$inst" --storm-user-budget "$budget"
  done
}
pair sqlite sqlite 1000000 1
pair postgres postgres 200000 1
pair postgres postgres 200000 3
pair mysql mariadb 200000 1
pair mysql mariadb 200000 3
