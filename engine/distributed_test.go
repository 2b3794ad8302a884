package engine_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/delayq"
	amqpq "github.com/lapsehq/lapse/delayq/amqp"
	"github.com/lapsehq/lapse/delayq/amqp/amqptest"
	redisq "github.com/lapsehq/lapse/delayq/redis"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
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
	return startWith(t, sharedStores[0], url, engine.Config{Holder: holder, Now: now, LoadInterval: 200 * time.Millisecond})
}

// startWith opens the store s at url and starts an engine of cfg on it,
// with the store, wheel and metrics filled in; cfg.Accel, if set, hears
// of the timers the instance's commits write.
func startWith(t *testing.T, s sharedStore, url string, cfg engine.Config) *instance {
	t.Helper()
	in := &instance{reg: prometheus.NewRegistry()}
	wheel := timer.NewWheel(tick, 1024, cfg.Now)
	var err error
	in.st, err = s.openURL(t.Context(), url, store.Hooks{
		OnTimer: func(tm storetype.Timer) {
			engine.Hint(wheel)(tm)
			if cfg.Accel != nil {
				cfg.Accel.Hint(tm)
			}
		},
		OnEvents:   func(es []storetype.Event) { in.metrics.Committed(es) },
		OnArchived: func(what string, n int64) { in.metrics.Archived(what, n) },
	})
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

// issueDue issues n coupons of a new template ending at endsAt, and
// returns the template's ID.
func issueDue(t *testing.T, st store.Store, n int, endsAt time.Time) string {
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
	return tp.ID
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
	var expired []storetype.Event
	for {
		expired = outboxtest.OfType(outboxtest.Feed(t, ins[0].st), store.EventCouponExpired)
		if len(expired) >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	seen := map[string]bool{}
	for _, e := range expired {
		if seen[e.Subject] {
			t.Fatalf("%s expired twice", e.Subject)
		}
		seen[e.Subject] = true
		// An event's time is kept to the millisecond, as the API shows
		// every time; PostgreSQL keeps expires_at to the microsecond.
		c, err := ins[0].st.Coupon(t.Context(), e.Subject)
		if err != nil || e.Time.Before(c.ExpiresAt.Truncate(time.Millisecond)) {
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
	if got := len(outboxtest.OfType(outboxtest.Feed(t, in.st), store.EventCouponExpired)); got != 0 {
		t.Fatalf("a skewed engine expired %d coupons", got)
	}
}

// delayQueues open, under a prefix of the test's own, each delay queue
// the engine can share with others, skipping the test without its server.
var delayQueues = []struct {
	name string
	open func(t *testing.T) engine.Queue
}{
	{"redis", func(t *testing.T) engine.Queue { return redisQueue(t) }},
	{"amqp", func(t *testing.T) engine.Queue { return amqpQueue(t, amqpq.Options{}) }},
}

// TestAccelTellsTheOthers: with a delay queue, an instance hears at once
// of coupons falling due in its shards that another instance issued,
// though it would load their timer from the store only a minute later and
// sweep only a minute later. Without the queue it fails.
func TestAccelTellsTheOthers(t *testing.T) {
	for _, dq := range delayQueues {
		for _, s := range sharedStores {
			t.Run(dq.name+"/"+s.name, func(t *testing.T) {
				q := dq.open(t)
				a, b := startSlowPair(t, s, q, q, time.Minute)
				const n = 200
				issueDue(t, a.st, n, time.Now().Add(2*time.Second))
				waitAllExpired(t, a, n, 15*time.Second)
				if got := b.expired(); got == 0 {
					t.Fatalf("b expired nothing: it did not hear of its shards' coupons")
				}
				if got := testutil.ToFloat64(engine.RepairsOf(b.metrics, storetype.TimerExpire)); got != 0 {
					t.Fatalf("b's sweeper repaired %v: the queue did not tell it", got)
				}
			})
		}
	}
}

// TestAccelDroppedHintsRepaired: a RabbitMQ delay queue whose queues hold
// one message refuses every hint of a timer but that of shard 0, the
// first the engine publishes, while it waits its TTL. The instance that
// does not hold shard 0 claims nothing from it, and loads timers from the
// store only once a minute; its sweeper repairs what it was not told (a
// sweep drains what is due and arms the wheel for what is next), and
// every coupon is expired once.
func TestAccelDroppedHintsRepaired(t *testing.T) {
	for _, s := range sharedStores {
		t.Run(s.name, func(t *testing.T) {
			q := amqpQueue(t, amqpq.Options{MaxLength: 1})
			qa, qb := &watchedQueue{Queue: q}, &watchedQueue{Queue: q}
			a, b := startSlowPair(t, s, qa, qb, 2*time.Second)
			if !slices.ContainsFunc(engine.HeldOf(a.eng), func(l storetype.Lease) bool { return l.Shard == 0 }) {
				a, b, qa, qb = b, a, qb, qa
			}
			// Due in distinct seconds, each hinted while a second or more
			// is left: in a bucket, not straight in the due queues.
			const templates, each = 3, 50
			for i := range templates {
				issueDue(t, a.st, each, time.Now().Add(time.Duration(2500+1200*i)*time.Millisecond))
			}
			waitAllExpired(t, a, templates*each, 20*time.Second)
			if qa.refused.Load() == 0 {
				t.Fatalf("the queue refused no hint")
			}
			if n := qb.claimed.Load(); n != 0 || b.expired() == 0 {
				t.Fatalf("the instance without shard 0 claimed %d hints and expired %v coupons, want none and some", n, b.expired())
			}
			if got := a.expired() + b.expired(); got != templates*each {
				t.Fatalf("the instances expired %v coupons between them, want %d", got, templates*each)
			}
		})
	}
}

// watchedQueue counts the items Claim returned and the Adds the queue
// refused as full.
type watchedQueue struct {
	engine.Queue
	claimed, refused atomic.Int64
}

func (w *watchedQueue) Add(ctx context.Context, items []delayq.Item) error {
	err := w.Queue.Add(ctx, items)
	if errors.Is(err, amqpq.ErrFull) {
		w.refused.Add(1)
	}
	return err
}

func (w *watchedQueue) Claim(ctx context.Context, shard int, now time.Time, limit int) ([]delayq.Item, error) {
	items, err := w.Queue.Claim(ctx, shard, now, limit)
	w.claimed.Add(int64(len(items)))
	return items, err
}

// startSlowPair starts two instances, a and b, on a fresh database of s,
// using the delay queue through qa and qb, which load timers from the
// store only once a minute and sweep every sweep, and waits until they
// share the shards.
func startSlowPair(t *testing.T, s sharedStore, qa, qb engine.Queue, sweep time.Duration) (a, b *instance) {
	t.Helper()
	url := s.url(t)
	slow := engine.Config{Now: time.Now, LoadInterval: time.Minute, SweepInterval: sweep}
	ca, cb := slow, slow
	ca.Holder, ca.Accel = "a", engine.NewAccel(qa, nil)
	cb.Holder, cb.Accel = "b", engine.NewAccel(qb, nil)
	a, b = startWith(t, s, url, ca), startWith(t, s, url, cb)
	waitBalanced(t, a, b)
	return a, b
}

// waitAllExpired waits until the feed of in's store holds n
// coupon.expired events, failing t after wait.
func waitAllExpired(t *testing.T, in *instance, n int, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for len(outboxtest.OfType(outboxtest.Feed(t, in.st), store.EventCouponExpired)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("not all %d coupons expired in %s", n, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitBalanced waits until the instances hold an equal share of the
// shards each.
func waitBalanced(t *testing.T, ins ...*instance) {
	t.Helper()
	for range 100 {
		balanced := true
		for _, in := range ins {
			balanced = balanced && len(engine.HeldOf(in.eng)) == storetype.Shards/len(ins)
		}
		if balanced {
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

// amqpQueue opens a delay queue of o on LAPSE_TEST_AMQP under a prefix of
// the test's own, skipping the test without it.
func amqpQueue(t *testing.T, o amqpq.Options) *amqpq.Queue {
	t.Helper()
	url := amqptest.URL(t)
	o.Prefix = amqptest.Prefix(t)
	q, err := amqpq.Open(t.Context(), url, o)
	if err != nil {
		t.Fatalf("delay queue: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}
