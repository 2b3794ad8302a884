package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/lapsehq/lapse/bench"
)

// TestBenchOrdersHotSKU: on every store, `lapse bench orders --hot-sku
// --buckets 4` sells a small stock out through lapse, on a SKU of one
// bucket and on one of 4, and through the floor, and none oversells.
func TestBenchOrdersHotSKU(t *testing.T) {
	for name, storeURL := range benchStores {
		t.Run(name, func(t *testing.T) {
			const stock = 20
			var res bench.HotSKUResult
			benchJSON(t, &res, "bench", "orders", "--hot-sku", "--duration", "1s", "--clients", "4", "--buckets", "4",
				"--stock", fmt.Sprint(stock), "--store", storeURL(t))
			if res.Buckets != 4 || res.Bucketed == nil {
				t.Fatalf("result: %d buckets, bucketed run %v; want 4 and a run", res.Buckets, res.Bucketed)
			}
			for run, r := range map[string]bench.HotSKURun{"lapse": res.Lapse, "bucketed": *res.Bucketed, "floor": res.Floor} {
				if !r.StockOK || r.Orders > stock || r.Short > 0 && r.Orders != stock {
					t.Fatalf("%s: %+v: oversold, or refused with stock left", run, r)
				}
			}
		})
	}
}

// TestBenchOrdersStorm: on every store, `lapse bench orders --storm 30`
// (with 2 instances where the store is shared) closes every order, none
// early, and gives back every unit and coupon, and so does its floor.
func TestBenchOrdersStorm(t *testing.T) {
	for name, storeURL := range benchStores {
		t.Run(name, func(t *testing.T) {
			instances := 2
			if name == "sqlite" {
				instances = 1
			}
			var res bench.OrderStormResult
			benchJSON(t, &res, "bench", "orders", "--storm", "30", "--instances", fmt.Sprint(instances), "--store", storeURL(t))
			if res.Orders != 30 || res.Coupons != 10 || res.Instances != instances || res.ClosedEarly != 0 || !res.StockOK || !res.CouponsOK || res.AllBack <= 0 || res.CloseLag.P99 < 0 ||
				res.Floor.Closed != 30 || !res.Floor.StockOK || !res.Floor.CouponsOK {
				t.Fatalf("result: %+v; want 30 orders, 10 coupons, %d instances, none early, stock and coupons whole, all back after the instant, and the floor likewise", res, instances)
			}
		})
	}
}

// benchJSON runs lapse with args and decodes the JSON result it writes
// to stdout into res.
func benchJSON(t *testing.T, res any, args ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), res); err != nil {
		t.Fatalf("result: %v", err)
	}
}

// benchStores give, on each store, the URL of a database of the test's
// own for a bench's --store.
var benchStores = map[string]func(t *testing.T) string{
	"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "bench.db") },
	"postgres": func(t *testing.T) string { return newDatabaseURL(t, "LAPSE_TEST_POSTGRES") },
	"mysql":    func(t *testing.T) string { return newDatabaseURL(t, "LAPSE_TEST_MYSQL") },
}

// newDatabaseURL returns the URL of the server env names with a database
// name of the test's own, which the bench creates; it skips the test if
// env is unset.
func newDatabaseURL(t *testing.T, env string) string {
	t.Helper()
	raw := os.Getenv(env)
	if raw == "" {
		t.Skipf("%s is not set", env)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", env, err)
	}
	u.Path = fmt.Sprintf("/lapse_hot_%d", rand.Uint32())
	return u.String()
}
