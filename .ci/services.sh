# Sourced by .ci/run: makes sure every service the tests use answers,
# starting it with the machine's own command if it is down, and exports the
# LAPSE_TEST_* variables the tests read. Fails loudly: nothing may be
# skipped in CI.

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ensure NAME PORT CHECK START: run START if CHECK fails, then wait for CHECK.
ensure() {
  local name=$1 check=$2 start=$3
  if eval "$check" >/dev/null 2>&1; then
    echo "ci: $name is up"
    return
  fi
  echo "ci: $name is down; starting it: $start"
  eval "$start" || true
  for _ in $(seq 1 60); do
    if eval "$check" >/dev/null 2>&1; then
      echo "ci: $name is up"
      return
    fi
    sleep 1
  done
  echo "ci: FATAL: $name does not answer after starting it" >&2
  exit 1
}

ensure postgres "pg_isready -q -h 127.0.0.1 -p 5432" \
  'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start'
ensure mariadb "mariadb-admin -h127.0.0.1 -uroot ping" \
  "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"
ensure redis "redis-cli -h 127.0.0.1 -p 6379 ping" \
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log'
ensure rabbitmq "port_open 5672" "rabbitmq-server -detached"
ensure nats "port_open 4222" \
  "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log"

# PgBouncer (Debian's pgbouncer, installed here if missing) in front of that
# PostgreSQL on 127.0.0.1:6432, in transaction pooling and otherwise at its
# default settings. Its wildcard database lets a test reach the fresh
# database it creates; trust, with the one user in its list, lets in
# what PostgreSQL's own trust lets in. PgBouncer will not run as root, so
# it runs as postgres, from a directory of its own.
pgbouncer_dir=/var/lib/lapse-pgbouncer
start_pgbouncer() {
  if ! command -v pgbouncer >/dev/null; then
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 pgbouncer ||
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends pgbouncer; }; } >/dev/null 2>&1
  fi
  mkdir -p "$pgbouncer_dir"
  printf '%s\n' '[databases]' '* = host=127.0.0.1 port=5432' '[pgbouncer]' \
    'listen_addr = 127.0.0.1' 'listen_port = 6432' 'unix_socket_dir =' \
    'pool_mode = transaction' 'admin_users = postgres' 'auth_type = trust' "auth_file = $pgbouncer_dir/userlist.txt" \
    "logfile = $pgbouncer_dir/pgbouncer.log" "pidfile = $pgbouncer_dir/pgbouncer.pid" \
    >"$pgbouncer_dir/pgbouncer.ini"
  echo '"postgres" ""' >"$pgbouncer_dir/userlist.txt"
  chown -R postgres: "$pgbouncer_dir"
  pgbouncer -d -u postgres "$pgbouncer_dir/pgbouncer.ini"
}
ensure pgbouncer "psql -qAtX -h 127.0.0.1 -p 6432 -U postgres -d postgres -c 'SELECT 1'" start_pgbouncer

export LAPSE_TEST_POSTGRES="postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
export LAPSE_TEST_PGBOUNCER="postgres://postgres@127.0.0.1:6432/test?sslmode=disable"
export LAPSE_TEST_MYSQL="mysql://root@127.0.0.1:3306/test"
export LAPSE_TEST_REDIS="redis://127.0.0.1:6379/0"
export LAPSE_TEST_AMQP="amqp://guest:guest@127.0.0.1:5672/"
export LAPSE_TEST_NATS="nats://127.0.0.1:4222"
