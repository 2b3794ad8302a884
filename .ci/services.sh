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

export LAPSE_TEST_POSTGRES="postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
export LAPSE_TEST_MYSQL="mysql://root@127.0.0.1:3306/test"
export LAPSE_TEST_REDIS="redis://127.0.0.1:6379/0"
export LAPSE_TEST_AMQP="amqp://guest:guest@127.0.0.1:5672/"
export LAPSE_TEST_NATS="nats://127.0.0.1:4222"
