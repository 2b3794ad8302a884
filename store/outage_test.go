package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"syscall"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestOutage: of the errors of many ticks of an outage, one line is
// logged when it starts and one when a call next succeeds, and each
// outage is counted once; other errors are left to the caller, and a nil
// Outage takes none.
func TestOutage(t *testing.T) {
	var buf bytes.Buffer
	reg := prometheus.NewRegistry()
	o := store.NewOutage(slog.New(slog.NewTextHandler(&buf, nil)), reg)
	refused := fmt.Errorf("load timers: %w", syscall.ECONNREFUSED)
	if o.Failed(errors.New("other")) || o.Failed(nil) {
		t.Fatalf("Failed took an error that is no outage")
	}
	for round := 1; round <= 2; round++ {
		for range 5 {
			if !o.Failed(refused) || !o.Failed(&storetype.UnavailableError{Err: errors.New("57P01")}) {
				t.Fatalf("Failed left an outage to the caller")
			}
		}
		wantMetrics(t, reg, round, 1)
		o.Served()
		o.Served()
		wantMetrics(t, reg, round, 0)
		log := buf.String()
		if n, m := strings.Count(log, "store: database unavailable"), strings.Count(log, "store: database available again"); n != round || m != round {
			t.Fatalf("after %d outages: %d start and %d end lines, want %d of each:\n%s", round, n, m, round, log)
		}
	}
	var none *store.Outage
	if none.Failed(refused) {
		t.Fatalf("a nil Outage took an error")
	}
	none.Served()
}

// wantMetrics checks the outage metrics on reg.
func wantMetrics(t *testing.T, reg *prometheus.Registry, outages, down int) {
	t.Helper()
	want := fmt.Sprintf(`# HELP lapse_store_outages_total Outages of the database the loops met (unreachable, restarting, no primary), each counted once.
# TYPE lapse_store_outages_total counter
lapse_store_outages_total %d
# HELP lapse_store_unavailable 1 while the loops find the database unavailable, 0 once a call succeeds.
# TYPE lapse_store_unavailable gauge
lapse_store_unavailable %d
`, outages, down)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Fatalf("metrics: %v", err)
	}
}
