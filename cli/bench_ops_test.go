package cli

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lapsehq/lapse/bench"
)

// TestBenchOps: on every store, `lapse bench ops` of 2,000 coupons runs
// end to end and its counts add up: every coupon of the voided template
// voided once with one event, every one of the extended template
// extended once with one event and still unused, and the archive moved
// the voided coupons and those the user load redeemed. It asserts
// nothing about speed.
func TestBenchOps(t *testing.T) {
	for name, storeURL := range benchStores {
		t.Run(name, func(t *testing.T) {
			const n = 2000
			var res bench.OpsResult
			benchJSON(t, &res, "bench", "ops", "--coupons", fmt.Sprint(n), "--users", "300", "--idle", "1s",
				"--plot", filepath.Join(t.TempDir(), "ops.svg"), "--store", storeURL(t))
			if res.Seed.Issued != 2*n+300 {
				t.Fatalf("seed: issued %d, want %d", res.Seed.Issued, 2*n+300)
			}
			for op, c := range map[string]struct {
				run   bench.BulkRun
				state string
			}{"void": {res.Void, "voided"}, "extend": {res.Extend, "unused"}} {
				r := c.run
				if r.Worked != n || r.Events != n || r.PendingLocked != 0 || len(r.Skipped) != 0 ||
					len(r.Template) != 1 || r.Template[c.state] != n {
					t.Fatalf("%s: %+v; want %d coupons worked, %d events, the template's all %s", op, r, n, n, c.state)
				}
				if !(r.Seconds > 0) || r.Users.Writes.P50 > r.Users.Writes.P99 {
					t.Fatalf("%s: %v s, writes %+v", op, r.Seconds, r.Users.Writes)
				}
			}
			if a := res.Archive; a.Voided != n || a.Coupons != n+a.Redeemed {
				t.Fatalf("archive: %+v; want the %d voided coupons and those redeemed", a, n)
			}
			if res.Idle.Writes.N == 0 {
				t.Fatalf("idle: no user writes measured")
			}
		})
	}
}
