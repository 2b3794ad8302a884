package engine_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	redisq "github.com/lapsehq/lapse/delayq/redis"
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
	st      *store.DB
	eng     *engine.Engine
	reg     *prometheus.Registry
	metrics *engine.Metrics
}

// startInstance opens url and starts an engine named holder on it, whose
// local clock is now.
func startInstance(t *testing.T, url, holder string, now func() time.Time) *instance {
	t.Helper()
	return startWith(t, url, engine.Config{Holder: holder, Now: now, LoadInterval: 200 * time.Millisecond})
}

// startWith opens url and starts an engine of cfg on it, with the store,
// wheel and metrics filled in; cfg.Accel, if set, hears of the timers
// the instance's commits write.
func startWith(t *testing.T, url string, cfg engine.Config) *instance {
	t.Helper()
	in := &instance{reg: prometheus.NewRegistry()}
	wheel := timer.NewWheel(tick, 1024, cfg.Now)
	var err error
	in.st, err = postgres.Open(t.Context(), url, postgres.Options{Hooks: store.Hooks{
		OnTimer: func(tm store.Timer) {
			engine.Hint(wheel)(tm)
			if cfg.Accel != nil {
				cfg.Accel.Hint(tm)
			}
		},
		OnEvents: func(es []store.Event) { in.metrics.Committed(es) },
	}})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	in.metrics = engine.NewMetrics(in.reg, in.st, cfg.Now)
	cfg.Store, cfg.Wheel, cfg.Metrics, cfg.BatchSize, cfg.LeaseTTL = in.st, wheel, in.metrics, 50, 1500*time.Millisecond
	in.eng = engine.New(cfg)
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
	got, err := st.Issue(t.Context(), store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users), Now: time.Now()})
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
	if bound := testutil.ToFloat64(engine.SkewBoundOf(in.metrics)); bound != 1 {
		t.Fatalf("lapse_clock_skew_bound_seconds: got %v, want the default --max-clock-skew, 1", bound)
	}
	time.Sleep(time.Second)
	if got := countType(outboxtest.Feed(t, in.st), store.EventCouponExpired); got != 0 {
		t.Fatalf("a skewed engine expired %d coupons", got)
	}
}

// TestAccelTellsTheOthers: with a delay queue in Redis, an instance hears
// at once of coupons falling due in its shards that another instance
// issued, though it would load their timer from the store only a minute
// later and sweep only a minute later.
func TestAccelTellsTheOthers(t *testing.T) {
	url := pgtest.SchemaURL(t)
	q := redisQueue(t)
	slow := engine.Config{Now: time.Now, LoadInterval: time.Minute, SweepInterval: time.Minute}
	a, b := slow, slow
	a.Holder, a.Accel = "a", engine.NewAccel(q, nil)
	b.Holder, b.Accel = "b", engine.NewAccel(q, nil)
	ins := []*instance{startWith(t, url, a), startWith(t, url, b)}
	waitBalanced(t, url)
	const n = 200
	issueDue(t, ins[0].st, n, time.Now().Add(2*time.Second))
	deadline := time.Now().Add(15 * time.Second)
	for countType(outboxtest.Feed(t, ins[0].st), store.EventCouponExpired) < n {
		if time.Now().After(deadline) {
			t.Fatalf("not all %d coupons expired in 15s: the instance that did not issue them never heard", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := ins[1].expired(); got == 0 {
		t.Fatalf("b expired nothing: it did not hear of its shards' coupons")
	}
	if got := testutil.ToFloat64(engine.RepairsOf(ins[1].metrics, store.TimerExpire)); got != 0 {
		t.Fatalf("b's sweeper repaired %v: the queue did not tell it", got)
	}
}

// waitBalanced waits until the two instances on url hold half the shards
// each.
func waitBalanced(t *testing.T, url string) {
	t.Helper()
	conn := pgtest.Connect(t, url)
	for range 100 {
		var holders, most int
		err := conn.QueryRow(t.Context(), `SELECT count(*), coalesce(max(n), 0) FROM (
			SELECT count(*) AS n FROM leases WHERE expires_at > now() GROUP BY holder) AS h`).Scan(&holders, &most)
		if err != nil {
			t.Fatalf("read leases: %v", err)
		}
		if holders == 2 && most == store.Shards/2 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the shards were not shared out in 10s")
}

// redisQueue opens the delay queue of LAPSE_TEST_REDIS under a prefix of
// the test's own, skipping the test without it.
func redisQueue(t *testing.T) *redisq.Queue {
	t.Helper()
	url := os.Getenv("LAPSE_TEST_REDIS")
	if url == "" {
		t.Skip("LAPSE_TEST_REDIS unset: no Redis for the delay queue")
	}
	q, err := redisq.Open(t.Context(), url, redisq.Options{Prefix: "lapse-test:" + rand.Text()})
	if err != nil {
		t.Fatalf("delay queue: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}
