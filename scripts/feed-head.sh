#!/usr/bin/env bash
# Time to open the console's events page on PostgreSQL with N events
# stored (issue 28), before and after the feed's head: a fresh database
# lapse_feed_head, one lapse serve on it, N coupon.claimed events written
# straight into its feed, one a record as single claims write them; then
#
#   before: what the console did on opening, the feed walked from cursor 0
#           (?after=0, then each page's next) a page of 1,000 at a time
#           until next stops moving: the latest events are shown then;
#   after:  what it does now, the page before the head (?before=latest)
#           and the page after its next (?after=, empty), best of RUNS.
#
# Both read with curl, each page's next taken with jq, as a browser would
# parse it. It prints one JSON object; everything it made is removed on
# exit.
#
# usage: scripts/feed-head.sh
# env:   N    events (default 1000000)
#        RUNS timings of the head (default 20)
#        PG   (default postgres://postgres@127.0.0.1:5432)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-1000000}
runs=${RUNS:-20}
pg=${PG:-postgres://postgres@127.0.0.1:5432}
db=lapse_feed_head
store="$pg/$db?sslmode=disable"
work=$(mktemp -d)
bin=$work/lapse
log() { echo "[$(date -u +%T)] $*" >&2; }
export PGOPTIONS='-c client_min_messages=warning'
pid=""
cleanup() {
  [[ -z $pid ]] || { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
  rm -rf "$work"
}
trap 'rc=$?; ((rc == 0)) || tail -n 5 "$work/lapse.log" >&2 2>/dev/null; cleanup' EXIT
trap 'exit 130' INT TERM

log "building lapse"
go build -o "$bin" ./cmd/lapse
psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
"$bin" serve --store "$store" --listen 127.0.0.1:0 --log-format json >"$work/lapse.log" 2>&1 &
pid=$!
addr=""
for _ in $(seq 300); do
  addr=$(jq -r 'select(.msg == "lapse: serving") | .addr' "$work/lapse.log" 2>/dev/null || true)
  [[ -n $addr ]] && break
  kill -0 "$pid" || { cat "$work/lapse.log" >&2; exit 1; }
  sleep 0.1
done
[[ -n $addr ]] || { log "lapse did not start"; exit 1; }
base=http://$addr

log "storing $n events, one a record as single claims write them"
psql -q "$store" -c "INSERT INTO events (seq, n, id, time, body)
SELECT i, 1, 'evt_fh' || lpad(i::text, 10, '0'), now(), json_build_array(json_build_array(
       'evt_fh' || lpad(i::text, 10, '0'), 'coupon.claimed', 'cpn_fh' || lpad(i::text, 10, '0'),
       (extract(epoch FROM now()) * 1000)::bigint, json_build_object('user_id', 'u' || i, 'template_id', 'tpl_fh')))::text
FROM generate_series(1, $n) AS i" -c "UPDATE event_seq SET last = $n" -c "VACUUM ANALYZE events"

# page PATH prints the next cursor of GET PATH.
page() { curl -sf "$base$1" | jq -r .next; }
now() { date +%s.%N; }

log "before: walking the feed from 0"
t0=$(now) cursor=0 pages=0
while :; do
  next=$(page "/v1/events?after=$cursor&limit=1000")
  pages=$((pages + 1))
  [[ $next != "$cursor" ]] || break
  cursor=$next
done
walk=$(echo "$(now) - $t0" | bc)
log "walked $pages pages in $walk s"

log "after: the head, $runs times"
best=""
for _ in $(seq "$runs"); do
  t0=$(now)
  next=$(page "/v1/events?before=latest&limit=1000")
  page "/v1/events?after=$next&limit=1000" >/dev/null
  t=$(echo "$(now) - $t0" | bc)
  [[ -n $best ]] && (($(echo "$t >= $best" | bc))) || best=$t
done
log "head in $best s"
read -r events records < <(psql -qtA -F ' ' "$store" -c "SELECT sum(n), count(*) FROM events")
jq -n --argjson events "$events" --argjson records "$records" --argjson pages "$pages" --arg walk "$walk" --arg head "$best" \
  '{store: "postgres", events: $events, records: $records, before_walk_seconds: ($walk | tonumber), before_pages: $pages, after_head_seconds: ($head | tonumber)}'
