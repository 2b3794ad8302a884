#!/usr/bin/env bash
# The headline benchmark runs of issue 12, one after another, each writing
# its JSON next to its SVG under docs/bench/: the 1 M coupon storm on
# SQLite, on PostgreSQL with 1 and 3 instances and on MariaDB with 1 and 3
# instances, and the hot-SKU flash sale on each store (on one bucket, on
# 8 stock buckets and the floor, side by side). Run it on a quiet
# machine; each run's JSON records the load average with its figures.
#
# usage: scripts/bench-headline.sh [storm|servers|orders|all] (default all;
#        servers: the storms on PostgreSQL and MariaDB only)
# env:   as scripts/bench-setup.sh says
set -euo pipefail
what=${1:-all}
source "$(dirname "$0")/bench-setup.sh"

headline() { # name store-url [flags]
  local name=$1 url=$2
  shift 2
  storm "$out/storm-$name" "$url" --coupons "$coupons" "$@"
}
orders() { # name store-url
  echo "== hot SKU $1" >&2
  "$bin" bench orders --hot-sku --buckets 8 --duration 20s --store "$2" --out "$out/hotsku-$1.json" --plot "$out/hotsku-$1.svg"
}

if [[ $what == storm || $what == all ]]; then
  headline sqlite-1m "sqlite:$tmp/storm.db"
fi
if [[ $what == storm || $what == servers || $what == all ]]; then
  headline postgres-1m "$pg/lapse_storm_$stamp?sslmode=disable"
  headline postgres-1m-3 "$pg/lapse_storm3_$stamp?sslmode=disable" --instances 3
  headline mariadb-1m "$my/lapse_storm_$stamp"
  headline mariadb-1m-3 "$my/lapse_storm3_$stamp" --instances 3
fi
if [[ $what == orders || $what == all ]]; then
  orders sqlite "sqlite:$(mktemp -d)/orders.db"
  orders postgres "$pg/lapse_orders_$stamp?sslmode=disable"
  orders mariadb "$my/lapse_orders_$stamp"
fi
