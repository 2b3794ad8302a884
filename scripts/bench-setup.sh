# Sourced by the bench scripts: the stores' base URLs, the coupon count,
# the output folder, a lapse binary built afresh in a temporary folder the
# exit removes ($tmp, $bin), and a stamp naming this run's databases.
# env:   LAPSE_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432)
#        LAPSE_BENCH_MYSQL    (default mysql://root@127.0.0.1:3306)
#        COUPONS              (default 1000000)
cd "$(dirname "$0")/.."
pg=${LAPSE_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
my=${LAPSE_BENCH_MYSQL:-mysql://root@127.0.0.1:3306}
coupons=${COUPONS:-1000000}
out=docs/bench
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/lapse
go build -o "$bin" ./cmd/lapse
stamp=$(date +%s)
