package engine_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const tick = 10 * time.Millisecond

// rig is a store, a wheel and an engine over them, all on the bubble's clock.
type rig struct {
	st      *store.DB
	wheel   *timer.Wheel
	eng     *engine.Engine
	reg     *prometheus.Registry
	metrics *engine.Metrics
}

// dbPath is a fresh SQLite database file in the test's temporary directory.
func dbPath(t testing.TB) string { return filepath.Join(t.TempDir(), "lapse.db") }

// setup opens a store at path with the wheel hooked in; the engine is
// built but not started. Call it inside a synctest bubble.
func setup(t *testing.T, path string, cfg engine.Config) *rig {
	t.Helper()
	return setupWith(t, path, cfg, store.Options{})
}

// setupWith is setup with the store's options, and cfg.Wheel if set in
// place of the default wheel of 1024 ticks.
func setupWith(t *testing.T, path string, cfg engine.Config, opts store.Options) *rig {
	t.Helper()
	r := &rig{reg: prometheus.NewRegistry()}
	r.wheel = cfg.Wheel
	if r.wheel == nil {
		r.wheel = timer.NewWheel(tick, 1024, time.Now)
	}
	opts.Hooks.OnTimer = engine.Hint(r.wheel)
	opts.Hooks.OnArchived = func(what string, n int64) { r.metrics.Archived(what, n) }
	var err error
	r.st, err = opts.Open(sqlite.Open(context.Background(), path, sqlite.Options{}))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	r.metrics = engine.NewMetrics(r.reg, r.st, time.Now)
	cfg.Store, cfg.Wheel, cfg.Now, cfg.Metrics = r.st, r.wheel, time.Now, r.metrics
	r.eng = engine.New(cfg)
	t.Cleanup(func() {
		r.eng.Stop()
		r.st.Close()
	})
	return r
}

// inBubble runs f in a synctest bubble on a fresh rig of cfg: the
// engine built, not started.
func inBubble(t *testing.T, cfg engine.Config, f func(t *testing.T, r *rig)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) { f(t, setup(t, dbPath(t), cfg)) })
}

// start starts the engine, failing t if it does not.
func (r *rig) start(t *testing.T) {
	t.Helper()
	if err := r.eng.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
}

func (r *rig) template(t *testing.T, tp coupon.Template) coupon.Template {
	t.Helper()
	tp.Name, tp.StartsAt = "t", time.Now()
	if tp.Value == 0 {
		tp.Value = 100
	}
	got, err := r.st.CreateTemplate(context.Background(), store.CreateTemplateParams{Template: tp, Now: time.Now()})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	return got
}

func (r *rig) claim(t *testing.T, templateID, user string) coupon.Coupon {
	t.Helper()
	c, err := r.st.Claim(context.Background(), store.ClaimParams{TemplateID: templateID, UserID: user, Now: time.Now()})
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return c
}

// wantStatus fails t unless coupon id is in state want; what says which
// coupon, when.
func (r *rig) wantStatus(t *testing.T, id string, want coupon.State, what string) {
	t.Helper()
	c, err := r.st.Coupon(context.Background(), id)
	if err != nil {
		t.Fatalf("get coupon: %v", err)
	}
	if c.Status != want {
		t.Fatalf("%s: got %s, want %s", what, c.Status, want)
	}
}

// wantValue fails t unless the one series c collects has the value want;
// what says which series, when.
func wantValue(t *testing.T, c prometheus.Collector, want float64, what string) {
	t.Helper()
	if got := testutil.ToFloat64(c); got != want {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// events returns every event of a type, by subject.
func (r *rig) events(t *testing.T, typ string) map[string]storetype.Event {
	t.Helper()
	out := map[string]storetype.Event{}
	for _, e := range r.ofType(t, typ) {
		if _, dup := out[e.Subject]; dup {
			t.Fatalf("two %s events for %s", typ, e.Subject)
		}
		out[e.Subject] = e
	}
	return out
}

// ofType returns the events of a type in the whole outbox, in order.
func (r *rig) ofType(t *testing.T, typ string) []storetype.Event {
	t.Helper()
	return outboxtest.OfType(outboxtest.Feed(t, r.st), typ)
}

// TestExpiresOnTimeNeverEarly claims coupons due at many instants and
// checks, on the bubble's fake clock, that each is expired no earlier than
// its expires_at and no later than one wheel tick after it.
func TestExpiresOnTimeNeverEarly(t *testing.T) {
	inBubble(t, engine.Config{BatchSize: 7}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Duration: 2 * time.Second})
		r.start(t)
		var coupons []coupon.Coupon
		for i := range 40 {
			coupons = append(coupons, r.claim(t, tp.ID, "u"))
			time.Sleep(time.Duration(37*i%250) * time.Millisecond)
		}
		last := coupons[len(coupons)-1]
		time.Sleep(time.Until(last.ExpiresAt) - time.Millisecond)
		synctest.Wait()
		r.wantStatus(t, last.ID, coupon.Unused, "last coupon 1ms before expiry")
		time.Sleep(time.Second)
		synctest.Wait()
		expired := r.events(t, store.EventCouponExpired)
		if len(expired) != len(coupons) {
			t.Fatalf("coupon.expired events: got %d, want %d", len(expired), len(coupons))
		}
		for _, c := range coupons {
			e := expired[c.ID]
			if e.Time.Before(c.ExpiresAt) {
				t.Fatalf("coupon %s expired early: event at %s, due %s", c.ID, e.Time, c.ExpiresAt)
			}
			if lag := e.Time.Sub(c.ExpiresAt); lag > 2*tick {
				t.Fatalf("coupon %s expired %s after due, want within %s", c.ID, lag, 2*tick)
			}
			r.wantStatus(t, c.ID, coupon.Expired, "coupon "+c.ID)
		}
		if n := testutil.CollectAndCount(r.reg, "lapse_lag_seconds"); n != len(kinds) {
			t.Fatalf("lag histogram series: got %d, want one per kind of work, %d", n, len(kinds))
		}
	})
}

// TestLockTTLReleases locks one coupon that is released before its expiry
// and one released after it.
func TestLockTTLReleases(t *testing.T) {
	inBubble(t, engine.Config{}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Duration: time.Minute})
		early, late := r.claim(t, tp.ID, "u1"), r.claim(t, tp.ID, "u2")
		r.start(t)
		lock := func(id string, ttl time.Duration) {
			_, err := r.st.Transition(context.Background(), store.TransitionParams{CouponID: id, Action: coupon.Lock, OrderID: "o-" + id, LockTTL: ttl, Now: time.Now()})
			if err != nil {
				t.Fatalf("lock: %v", err)
			}
		}
		lock(early.ID, 10*time.Second)
		lock(late.ID, 2*time.Minute)
		time.Sleep(10*time.Second - time.Millisecond)
		synctest.Wait()
		r.wantStatus(t, early.ID, coupon.Locked, "before lock TTL")
		time.Sleep(50 * time.Millisecond)
		synctest.Wait()
		r.wantStatus(t, early.ID, coupon.Unused, "after lock TTL")
		time.Sleep(time.Minute)
		synctest.Wait()
		r.wantStatus(t, late.ID, coupon.Locked, "locked past expiry")
		r.wantStatus(t, early.ID, coupon.Expired, "released coupon past expiry")
		time.Sleep(time.Minute)
		synctest.Wait()
		r.wantStatus(t, late.ID, coupon.Expired, "lock released past expiry")
		var data store.CouponEventData
		ev := r.events(t, store.EventCouponExpired)[late.ID]
		if err := json.Unmarshal(ev.Data, &data); err != nil || data.From != "locked" || data.Reason != store.ReasonLockTTL {
			t.Fatalf("expired-by-lock event data: got %+v (%v), want from locked, reason lock_ttl", data, err)
		}
		if got := r.events(t, store.EventCouponUnlocked)[early.ID].Subject; got != early.ID {
			t.Fatalf("coupon.unlocked event for %s missing", early.ID)
		}
	})
}

// TestRestartCatchesUp writes coupons while no engine runs (as after a
// crash) and checks that an engine started past their due time expires
// every one from the durable timers.
func TestRestartCatchesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := dbPath(t)
		r := setup(t, path, engine.Config{BatchSize: 50})
		tp := r.template(t, coupon.Template{Duration: time.Second})
		for range 300 {
			r.claim(t, tp.ID, "u")
		}
		r.st.Close()
		time.Sleep(time.Hour)
		r2 := setup(t, path, engine.Config{BatchSize: 50})
		r2.start(t)
		time.Sleep(tick)
		synctest.Wait()
		if got := len(r2.events(t, store.EventCouponExpired)); got != 300 {
			t.Fatalf("expired after restart: got %d, want 300", got)
		}
	})
}

// TestSweeperRepairsLostTimers deletes the durable timers behind the
// engine's back while it is down; on start the sweeper must still expire
// everything, and count it as repairs.
func TestSweeperRepairsLostTimers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := dbPath(t)
		d, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		st := store.New(d, store.Options{})
		now := time.Now()
		tp, err := st.CreateTemplate(context.Background(), store.CreateTemplateParams{
			Template: coupon.Template{Name: "t", Value: 1, StartsAt: now, Duration: time.Minute}, Now: now})
		if err != nil {
			t.Fatalf("template: %v", err)
		}
		for range 25 {
			if _, err := st.Claim(context.Background(), store.ClaimParams{TemplateID: tp.ID, UserID: "u", Now: now}); err != nil {
				t.Fatalf("claim: %v", err)
			}
		}
		if err := st.DeleteTimers(context.Background(), store.DeleteTimersParams{Kind: storetype.TimerExpire, Through: now.Add(time.Hour)}); err != nil {
			t.Fatalf("delete timers: %v", err)
		}
		st.Close()

		time.Sleep(2 * time.Minute)
		r := setup(t, path, engine.Config{})
		r.start(t)
		time.Sleep(tick)
		synctest.Wait()
		if got := len(r.events(t, store.EventCouponExpired)); got != 25 {
			t.Fatalf("expired with timers lost: got %d, want 25", got)
		}
		wantValue(t, engine.RepairsOf(r.metrics, storetype.TimerExpire), 25, "sweeper repairs")
	})
}

// TestStopIsIdempotent stops twice and leaves no goroutine behind
// (goleak checks the last part).
func TestStopIsIdempotent(t *testing.T) {
	inBubble(t, engine.Config{}, func(t *testing.T, r *rig) {
		r.start(t)
		r.eng.Stop()
		r.eng.Stop()
	})
}
