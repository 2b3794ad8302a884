#!/usr/bin/env bash
# Expiry lag of a coupon storm on PostgreSQL with 3 `lapse serve` instances
# whose loader and sweeper run 10 minutes apart, so that only the issuing
# instance's own wheel and the delay queue, if any, tell the instances of
# the coupons falling due (issue 16): with no delay queue, with the Redis
# queue (--redis) and with the RabbitMQ queue (--amqp-delay).
#
# For each mode: a fresh database lapse_accel_<mode>, 3 instances on it
# (accel-1..3, free ports), the shards shared out (lapse_shards_held);
# through instance 1 a template whose validity ends at one instant LEAD
# seconds ahead and COUPONS coupons bulk-issued to distinct users, the last
# one claimed 10 s before the instant so that instance 1's wheel (horizon
# 41 s) holds it, as its loader would at its default; then it waits until
# no coupon is unused and reads, from the rows, the lag updated_at -
# expires_at: p50, p99, max, per shard holder too, and drain_seconds, the
# time from the first expiry to the last. It writes OUT ({mode: {...}})
# and an SVG bar plot beside it. Everything it made is removed on exit.
#
# usage: scripts/bench-accel.sh
# env:   COUPONS (default 1000000)
#        MODES   (default "none redis amqp")
#        LEAD    seconds from the template to the instant (default 60 + COUPONS/5000)
#        OUT     (default docs/bench/accel-postgres-1m-3.json)
#        PG      (default postgres://postgres@127.0.0.1:5432)
#        REDIS   (default redis://127.0.0.1:6379/11: its db is flushed)
#        AMQP    (default amqp://guest:guest@127.0.0.1:5672/)
set -euo pipefail
cd "$(dirname "$0")/.."
coupons=${COUPONS:-1000000}
modes=${MODES:-none redis amqp}
lead=${LEAD:-$((60 + coupons / 5000))}
out=${OUT:-docs/bench/accel-postgres-1m-3.json}
pg=${PG:-postgres://postgres@127.0.0.1:5432}
redis=${REDIS:-redis://127.0.0.1:6379/11}
amqp=${AMQP:-amqp://guest:guest@127.0.0.1:5672/}
work=$(mktemp -d)
bin=$work/lapse
log() { echo "[$(date -u +%T)] $*" >&2; }

log "building lapse"
go build -o "$bin" ./cmd/lapse

export PGOPTIONS='-c client_min_messages=warning'
pids=() db="" prefix=""
# cleanup stops the instances (SIGTERM: each commits its batch in flight)
# and drops what the mode made: database, Redis keys, RabbitMQ queues.
cleanup() {
  if ((${#pids[@]})); then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  pids=()
  if [[ -n $db ]]; then
    psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
    db=""
  fi
  if [[ -n $prefix ]]; then
    clear_queues
    prefix=""
  fi
}
# clear_queues flushes the Redis db and deletes the RabbitMQ queues of the
# mode's prefix (the exchange <prefix>.due, which holds nothing, stays:
# rabbitmqctl cannot delete it).
clear_queues() {
  redis-cli -u "$redis" flushdb >/dev/null
  local q
  for q in $(rabbitmqctl -q list_queues name 2>/dev/null | grep -F "$prefix." || true); do
    rabbitmqctl -q delete_queue "$q" >/dev/null
  done
}
trap 'rc=$?; cleanup; ((rc == 0)) || tail -n 5 "$work"/*.log >&2; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# queue_prefix is cli.QueuePrefix: lapse: and the FNV-1a 64 of the store URL.
queue_prefix() {
  python3 -c 'import sys
h = 0xcbf29ce484222325
for b in sys.argv[1].encode():
    h = ((h ^ b) * 0x100000001b3) % (1 << 64)
print("lapse:%x" % h)' "$1"
}

sql() { psql -qtA "$store" -c "$1"; }

# held prints the shards instance $1 (a base URL) holds.
held() { curl -sf "$1/metrics" | awk '$1 == "lapse_shards_held" {print $2}'; }

# call METHOD PATH [BODY] through instance 1.
call() { curl -sf -X "$1" -H 'Content-Type: application/json' ${3:+--data-binary "$3"} "${bases[0]}$2"; }

run() { # mode → one JSON object on stdout
  local mode=$1 flags=()
  db=lapse_accel_$mode
  store="$pg/$db?sslmode=disable"
  prefix=$(queue_prefix "$store")
  case $mode in
  none) ;;
  redis) flags=(--redis "$redis") ;;
  amqp) flags=(--amqp-delay "$amqp") ;;
  *) log "unknown mode $mode" && return 1 ;;
  esac
  log "== $mode: database $db, queue prefix $prefix"
  psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  clear_queues

  bases=()
  for i in 1 2 3; do
    "$bin" serve --store "$store" --listen 127.0.0.1:0 --instance "accel-$i" --log-format json \
      --loader-interval 10m --sweep-interval 10m --issue-timeout 1h "${flags[@]}" \
      >"$work/$mode-$i.log" 2>&1 &
    pids+=($!)
    local addr=""
    for _ in $(seq 300); do
      addr=$(jq -r 'select(.msg == "lapse: serving") | .addr' "$work/$mode-$i.log" 2>/dev/null || true)
      [[ -n $addr ]] && break
      kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/$mode-$i.log" >&2; return 1; }
      sleep 0.1
    done
    [[ -n $addr ]] || { log "instance $i did not start"; return 1; }
    bases+=("http://$addr")
    log "instance accel-$i on $addr"
  done

  log "waiting for the instances to share the 16 shards"
  for _ in $(seq 600); do
    local total=0 each=1 h
    for b in "${bases[@]}"; do
      h=$(held "$b")
      h=${h:-0}
      total=$((total + h))
      ((h > 0)) || each=0
    done
    ((total == 16 && each)) && break
    sleep 0.1
  done
  ((total == 16 && each)) || { log "shards not shared: $total held"; return 1; }
  log "shards: $(for b in "${bases[@]}"; do echo -n "$(held "$b") "; done)"

  local instant tpl
  instant=$(date -u -d "+$lead seconds" +%Y-%m-%dT%H:%M:%S.000Z)
  tpl=$(call POST /v1/templates "{\"name\": \"accel-$mode\", \"value\": 1, \"validity\": {\"ends_at\": \"$instant\", \"duration\": \"720h\"}}" | jq -r .id)
  log "template $tpl: $coupons coupons expiring at $instant ($lead s ahead)"
  local t0=$SECONDS
  seq 2 "$coupons" | awk '{printf "{\"user_id\": \"u%d\"}\n", $1}' |
    curl -sf -X POST -H 'Content-Type: application/x-ndjson' -T - "${bases[0]}/v1/templates/$tpl/issue" >"$work/$mode-issue.json"
  log "issued $(jq .issued "$work/$mode-issue.json") in $((SECONDS - t0)) s"
  local left
  left=$(($(date -d "$instant" +%s) - $(date +%s)))
  ((left > 10)) || { log "issuance ended $((10 - left)) s too late: raise LEAD"; return 1; }
  sleep $((left - 10))
  call POST /v1/users/u1/coupons "{\"template_id\": \"$tpl\"}" >/dev/null
  [[ $(sql "SELECT count(*) FROM coupons WHERE template_id = '$tpl'") == "$coupons" ]] || { log "not every coupon was issued"; return 1; }

  log "waiting for every coupon to expire"
  local unused last=""
  while :; do
    unused=$(sql "SELECT count(*) FROM coupons WHERE template_id = '$tpl' AND status = 'unused'")
    [[ $unused == "$last" ]] || log "$mode: $unused unused"
    last=$unused
    ((unused == 0)) && break
    sleep 5
  done

  sql "WITH lag AS (
         SELECT c.updated_at, extract(epoch FROM c.updated_at - c.expires_at) * 1000 AS ms, l.holder
         FROM coupons c JOIN leases l ON l.shard = c.shard WHERE c.template_id = '$tpl'),
       q AS (SELECT holder, count(*) AS n,
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
                    percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
                    max(ms) AS mx, min(ms) AS mn,
                    extract(epoch FROM max(updated_at) - min(updated_at)) AS drain
             FROM lag GROUP BY ROLLUP (holder))
       SELECT json_build_object('coupons', n, 'p50_ms', round(p50::numeric, 1), 'p99_ms', round(p99::numeric, 1),
                'max_ms', round(mx::numeric, 1), 'drain_seconds', round(drain::numeric, 3),
                'by_instance', (SELECT json_object_agg(holder, json_build_object('coupons', n, 'first_ms', round(mn::numeric, 1),
                    'p50_ms', round(p50::numeric, 1), 'max_ms', round(mx::numeric, 1))) FROM q WHERE holder IS NOT NULL))
       FROM q WHERE holder IS NULL" | tee "$work/$mode.json"
  cleanup
}

for mode in $modes; do
  run "$mode"
done
(cd "$work" && jq -n 'reduce inputs as $r ({}; . + {(input_filename | rtrimstr(".json")): $r})' $(printf '%s.json ' $modes)) >"$out"
python3 scripts/accel_plot.py "$out" "${out%.json}.svg"
log "wrote $out and ${out%.json}.svg"
