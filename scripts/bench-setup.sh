# Sourced by the bench scripts: the stores' base URLs, the coupon count,
# the output folder, a lapse binary built afresh in a temporary folder the
# exit removes ($tmp, $bin), a stamp naming this run's databases, and
# url STORE NAME, the URL of a new database NAME on STORE, and
# storm OUT URL [flags], a storm bench on URL writing OUT.json and OUT.svg.
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
url() { # store name
  case $1 in
    sqlite) echo "sqlite:$tmp/$2.db" ;;
    postgres) echo "$pg/$2?sslmode=disable" ;;
    mysql) echo "$my/$2" ;;
  esac
}
storm() { # out url [flags]
  local dest=$1 store=$2
  shift 2
  echo "== $(basename "$dest")" >&2
  "$bin" bench storm --store "$store" --out "$dest.json" --plot "$dest.svg" "$@"
}
