package engine_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/storetype"
)

// kinds are the kinds of work an engine drains.
var kinds = []storetype.TimerKind{storetype.TimerExpire, storetype.TimerRelease, storetype.TimerClose, storetype.TimerRemind}

// TestSeriesFromStart: an engine that has fired nothing yet exports its
// per-kind series at zero, so that an alert on their increase (the
// shipped alerting rules) sees the first failure or repair, and no
// clock skew bound, as it runs alone; with a payment hook, its check
// results at zero too.
func TestSeriesFromStart(t *testing.T) {
	inBubble(t, engine.Config{}, func(t *testing.T, r *rig) {
		if n := testutil.CollectAndCount(r.reg, "lapse_payment_checks_total"); n != 0 {
			t.Fatalf("payment check series without a hook: got %d, want 0", n)
		}
		h := newHook(t, answerUnpaid)
		withHook := setup(t, dbPath(t), engine.Config{Payments: h.client})
		if n := testutil.CollectAndCount(withHook.reg, "lapse_payment_checks_total"); n != 3 {
			t.Fatalf("payment check series with a hook: got %d, want paid, unpaid and error", n)
		}
		for _, name := range []string{"lapse_lag_seconds", "lapse_sweeper_repairs_total", "lapse_drain_failures_total"} {
			if n := testutil.CollectAndCount(r.reg, name); n != len(kinds) {
				t.Fatalf("%s: got %d series, want one per kind of work, %d", name, n, len(kinds))
			}
		}
		for _, name := range []string{"lapse_archived_rows_total", "lapse_pruned_rows_total"} {
			if n := testutil.CollectAndCount(r.reg, name); n != 2 {
				t.Fatalf("%s: got %d series, want 2 (coupons and orders; idempotency keys and reminders)", name, n)
			}
		}
		for _, kind := range kinds {
			wantValue(t, engine.RepairsOf(r.metrics, kind), 0, "repairs of "+string(kind))
		}
		wantValue(t, engine.SkewBoundOf(r.metrics), 0, "lapse_clock_skew_bound_seconds alone")
	})
}
