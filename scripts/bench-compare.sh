#!/usr/bin/env bash
# Measures two revisions side by side: `lapse bench storm` and `lapse bench
# orders --hot-sku --buckets 8` on each store, RUNS rounds, the two binaries
# alternating within each round (the first one to run swaps every round), on
# fresh databases. Each run's JSON lands next to its plot in OUT, and the
# last lines give each round's after/before ratio and their median: of the
# storm's drain rate, its users' write p99, the steady phase's expiry lag
# p99 and the hot SKU's rate. Run it on a quiet machine.
#
# usage: scripts/bench-compare.sh BEFORE AFTER OUT [RUNS]   (RUNS default 3)
# env:   as scripts/bench-setup.sh says (COUPONS defaults to 200000 here);
#        STORES, the stores to run (default: sqlite postgres mysql)
set -euo pipefail
before=$1 after=$2 dest=$3 runs=${4:-3}
COUPONS=${COUPONS:-200000}
stores=${STORES:-sqlite postgres mysql}
source "$(dirname "$0")/bench-setup.sh"
mkdir -p "$dest"
for rev in "$before" "$after"; do
  git worktree add -q --detach "$tmp/src-$rev" "$rev"
  (cd "$tmp/src-$rev" && go build -o "$tmp/lapse-$rev" ./cmd/lapse)
  git worktree remove --force "$tmp/src-$rev"
done

for round in $(seq 1 "$runs"); do
  order=("$before" "$after")
  ((round % 2 == 0)) && order=("$after" "$before")
  for store in $stores; do
    for rev in "${order[@]}"; do
      side=before
      [[ $rev == "$after" ]] && side=after
      name=${store}-${side}-${round}
      echo "== round $round/$runs: $store, $side ($rev)" >&2
      "$tmp/lapse-$rev" bench storm --coupons "$coupons" --store "$(url "$store" "lapse_cmp_s${stamp}_$round$side")" \
        --out "$dest/storm-$name.json" --plot "$dest/storm-$name.svg"
      "$tmp/lapse-$rev" bench orders --hot-sku --buckets 8 --duration 20s --store "$(url "$store" "lapse_cmp_o${stamp}_$round$side")" \
        --out "$dest/hotsku-$name.json" --plot "$dest/hotsku-$name.svg"
    done
  done
done

python3 - "$dest" "$runs" $stores <<'EOF'
import json, statistics, sys
dest, runs, stores = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
figures = (
    ("storm", "storm drain rate", lambda d: d["lapse"]["rate"]),
    ("storm", "users' storm p99", lambda d: d["lapse"]["user_p99"]),
    ("storm", "steady lag p99", lambda d: d["steady"]["lag_p99"]),
    ("hotsku", "hot SKU, 8 buckets", lambda d: d["bucketed"]["rate"]),
)
print("what               store     after/before per round      median")
for kind, label, fig in figures:
    for store in stores:
        ratios = [fig(json.load(open(f"{dest}/{kind}-{store}-after-{r}.json"))) /
                  fig(json.load(open(f"{dest}/{kind}-{store}-before-{r}.json"))) for r in range(1, runs + 1)]
        print(f"{label:18} {store:9} {' '.join(f'{x:.2f}' for x in ratios):27} {statistics.median(ratios):.2f}")
EOF
