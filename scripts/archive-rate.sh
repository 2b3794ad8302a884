#!/usr/bin/env bash
# Archive rate: N expired coupons (distinct IDs, 200,000 users, last
# changed a millisecond apart) written straight into a fresh store, then
# one archive run of everything terminal by now (store.DB.Archive, as the
# engine and POST /v1/archive run it), timed. The store it made is removed
# on exit.
#
# usage: scripts/archive-rate.sh sqlite|postgres|mysql
# env:   N     (default 1000000)
#        BATCH rows per transaction (default 1000)
#        PG    (default postgres://postgres@127.0.0.1:5432)
#        MYSQL (default root@127.0.0.1, mysql client options -u/-h from it)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/archive-rate.sh sqlite|postgres|mysql}
n=${N:-1000000}
batch=${BATCH:-1000}
go build -o /tmp/archiverate ./scripts/archiverate
case $kind in
sqlite)
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	db=$dir/lapse.db
	url=$db
	/tmp/archiverate sqlite "$url" migrate
	sqlite3 "$db" "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM s WHERE i < $n)
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT printf('cpn_%012d', i), 'tpl_x', 'u' || (abs(random()) % 200000), 'expired',
       1700000000000, 1700000000000 + i, 1700000000000 + i, 2 FROM s;"
	;;
postgres)
	pg=${PG:-postgres://postgres@127.0.0.1:5432}
	psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS lapse_archive_rate" -c "CREATE DATABASE lapse_archive_rate"
	trap 'psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS lapse_archive_rate"' EXIT
	url="$pg/lapse_archive_rate?sslmode=disable"
	/tmp/archiverate postgres "$url" migrate
	psql "$pg/lapse_archive_rate" -qc "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT 'cpn_' || lpad(i::text, 12, '0'), 'tpl_x', 'u' || (random() * 200000)::int, 'expired',
       now() - interval '1 day', now() - interval '1 day', now() - interval '1 day' + i * interval '1 ms', 2
FROM generate_series(1, $n) i" -c "VACUUM ANALYZE coupons"
	;;
mysql)
	my=${MYSQL:-root@127.0.0.1}
	mysql -u"${my%@*}" -h"${my#*@}" -e "DROP DATABASE IF EXISTS lapse_archive_rate; CREATE DATABASE lapse_archive_rate"
	trap 'mysql -u"${my%@*}" -h"${my#*@}" -e "DROP DATABASE IF EXISTS lapse_archive_rate"' EXIT
	url="mysql://$my:3306/lapse_archive_rate"
	/tmp/archiverate mysql "$url" migrate
	mysql -u"${my%@*}" -h"${my#*@}" lapse_archive_rate -e "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT CONCAT('cpn_', LPAD(seq, 12, '0')), 'tpl_x', CONCAT('u', FLOOR(RAND() * 200000)), 'expired',
       NOW(3) - INTERVAL 1 DAY, NOW(3) - INTERVAL 1 DAY, NOW(3) - INTERVAL 1 DAY + INTERVAL seq * 1000 MICROSECOND, 2
FROM seq_1_to_$n"
	;;
*)
	echo "unknown store $kind" >&2
	exit 2
	;;
esac
/tmp/archiverate "$kind" "$url" run "$batch"
