package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/postgres/pgtest"
	"github.com/lapsehq/lapse/timer"
)

// instance is one engine on a shared PostgreSQL database, with its own
// connections, wheel and metrics, as one `lapse serve` process has.
type instance struct {
	st      *postgres.Store
	eng     *engine.Engine
	reg     *prometheus.Registry
	metrics *engine.Metrics
}

// startInstance opens url and starts an engine named holder on it, whose
// local clock is now.
func startInstance(t *testing.T, url, holder string, now func() time.Time) *instance {
	t.Helper()
	in := &instance{reg: prometheus.NewRegistry()}
	wheel := timer.NewWheel(tick, 1024, now)
	var err error
	in.st, err = postgres.Open(t.Context(), url, postgres.Options{Hooks: store.Hooks{
		OnTimer:  engine.Hint(wheel),
		OnEvents: func(es []store.Event) { in.metrics.Committed(es) },
	}})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	in.metrics = engine.NewMetrics(in.reg, in.st, now)
	in.eng = engine.New(engine.Config{
		Store: in.st, Wheel: wheel, Now: now, Metrics: in.metrics, BatchSize: 50,
		LoadInterval: 200 * time.Millisecond, Holder: holder, LeaseTTL: 1500 * time.Millisecond,
	})
	if err := in.eng.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		in.eng.Stop()
		in.st.Close()
	})
	return in
}

// expired counts the coupon.expired events this instance committed.
func (in *instance) expired() float64 {
	return testutil.ToFloat64(engine.TransitionsOf(in.metrics, store.EventCouponExpired))
}

// issueDue issues n coupons of a new template ending at endsAt.
func issueDue(t *testing.T, st store.Store, n int, endsAt time.Time) {
	t.Helper()
	tp, err := st.CreateTemplate(t.Context(), store.CreateTemplateParams{Now: time.Now(), Template: coupon.Template{
		Name: "storm", Value: 100, StartsAt: time.Now().Add(-time.Hour), EndsAt: endsAt,
	}})
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	users := make([]string, n)
	for i := range users {
		users[i] = fmt.Sprintf("u%d", i)
	}
	got, err := st.Issue(t.Context(), store.IssueParams{TemplateID: tp.ID, UserIDs: users, Now: time.Now()})
	if err != nil || got.Issued != int64(n) {
		t.Fatalf("issue: %+v, %v", got, err)
	}
}

// TestEnginesShareShards: three engines on one database split the shards
// between them, each expires a part of a storm, and together they expire
// every coupon once, none early.
func TestEnginesShareShards(t *testing.T) {
	url := pgtest.SchemaURL(t)
	const n = 3000
	ins := make([]*instance, 3)
	for i := range ins {
		ins[i] = startInstance(t, url, fmt.Sprintf("e%d", i), time.Now)
	}
	issueDue(t, ins[0].st, n, time.Now().Add(3*time.Second))
	deadline := time.Now().Add(30 * time.Second)
	var feed []store.Event
	for {
		feed = outboxtest.Feed(t, ins[0].st)
		if countType(feed, store.EventCouponExpired) >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	seen := map[string]bool{}
	for _, e := range feed {
		if e.Type != store.EventCouponExpired {
			continue
		}
		if seen[e.Subject] {
			t.Fatalf("%s expired twice", e.Subject)
		}
		seen[e.Subject] = true
		c, err := ins[0].st.Coupon(t.Context(), e.Subject)
		if err != nil || e.Time.Before(c.ExpiresAt) {
			t.Fatalf("%s: expired at %s, due %s (%v): early", e.Subject, e.Time, c.ExpiresAt, err)
		}
	}
	if len(seen) != n {
		t.Fatalf("expired %d coupons, want %d", len(seen), n)
	}
	total := 0.0
	for i, in := range ins {
		got := in.expired()
		if got == 0 {
			t.Fatalf("engine %d expired nothing: the shards were not shared", i)
		}
		total += got
	}
	if total != n {
		t.Fatalf("engines committed %v expiries between them, want %d", total, n)
	}
}

// countType counts the events of one type.
func countType(feed []store.Event, typ string) int {
	n := 0
	for _, e := range feed {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// TestSkewedClockHoldsFiring: an engine whose clock runs an hour ahead of
// the database's says so and fires nothing, though by its clock every
// coupon is long due.
func TestSkewedClockHoldsFiring(t *testing.T) {
	url := pgtest.SchemaURL(t)
	ahead := func() time.Time { return time.Now().Add(time.Hour) }
	in := startInstance(t, url, "ahead", ahead)
	issueDue(t, in.st, 10, time.Now().Add(time.Minute))
	err := in.eng.Err()
	if err == nil || !strings.Contains(err.Error(), "skew") {
		t.Fatalf("Err: got %v, want the clock skew", err)
	}
	if skew := testutil.ToFloat64(engine.SkewOf(in.metrics)); skew < 3599 || skew > 3601 {
		t.Fatalf("lapse_clock_skew_seconds: got %v, want about 3600", skew)
	}
	time.Sleep(time.Second)
	if got := countType(outboxtest.Feed(t, in.st), store.EventCouponExpired); got != 0 {
		t.Fatalf("a skewed engine expired %d coupons", got)
	}
}
