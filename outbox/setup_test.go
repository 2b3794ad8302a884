package outbox_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is when the test histories happen.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openStore opens a fresh SQLite store, closed when t ends. notify, if
// set, hears of every commit that wrote events.
func openStore(t testing.TB, notify func()) *store.DB {
	t.Helper()
	opts := store.Options{}
	if notify != nil {
		opts.Hooks.OnEvents = func([]storetype.Event) { notify() }
	}
	st, err := opts.Open(sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "lapse.db"), sqlite.Options{}))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// history writes, for each of n coupons, a claim then rounds of lock and
// unlock, the coupons taking turns so that subjects interleave in the
// feed: n*(1+2*rounds) events, all at t0 or later.
func history(t testing.TB, st store.Store, n, rounds int) {
	t.Helper()
	ctx := context.Background()
	tp, err := st.CreateTemplate(ctx, store.CreateTemplateParams{
		Template: coupon.Template{Name: "t", Value: 100, StartsAt: t0.Add(-time.Hour), Duration: 24 * time.Hour}, Now: t0.Add(-time.Hour),
	})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	ids := make([]string, n)
	for i := range n {
		c, err := st.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d", i), Now: t0})
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		ids[i] = c.ID
	}
	for r := range rounds {
		now := t0.Add(time.Duration(r+1) * time.Second)
		for _, act := range []coupon.Action{coupon.Lock, coupon.Unlock} {
			for _, id := range ids {
				p := store.TransitionParams{CouponID: id, Action: act, OrderID: fmt.Sprintf("o%d", r), LockTTL: time.Hour, Now: now}
				if _, err := st.Transition(ctx, p); err != nil {
					t.Fatalf("%s %s: %v", act, id, err)
				}
			}
		}
	}
}

// storeWithHistory opens a store, writes history(n, rounds) in it and
// returns it with its feed.
func storeWithHistory(t testing.TB, n, rounds int) (*store.DB, []storetype.Event) {
	t.Helper()
	st := openStore(t, nil)
	history(t, st, n, rounds)
	return st, outboxtest.Feed(t, st)
}

// relayConfig is a relay over st with fast retries, for tests.
func relayConfig(st store.Store, sinks ...outbox.Named) outbox.Config {
	return outbox.Config{
		Store: st, Sinks: sinks, Now: func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) },
		Log: slog.New(slog.DiscardHandler), BatchSize: 50, MaxAttempts: 1000,
		BackoffBase: 10 * time.Millisecond, BackoffMax: 100 * time.Millisecond, Poll: 20 * time.Millisecond,
	}
}

// startRelay starts a relay for cfg, stopped when t ends.
func startRelay(t testing.TB, cfg outbox.Config) *outbox.Relay {
	t.Helper()
	r, err := outbox.New(cfg)
	if err != nil {
		t.Fatalf("new relay: %v", err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatalf("start relay: %v", err)
	}
	t.Cleanup(r.Stop)
	return r
}

// webhook is a webhook sink posting to rc, signing with its secret.
func webhook(rc *outboxtest.Receiver, name string, batch int) outbox.Named {
	return outbox.Named{Name: name, Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{
		URL: rc.URL, Batch: batch, Secret: rc.WebhookSecret(), Now: time.Now,
	})}
}

// waitFor polls cond every 10ms until it holds, failing t after timeout.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// newStorm opens a store whose engine (returned, not started) hears of
// timers through a wheel, and claims n coupons that all fall due at the
// same past instant, so that the engine's start meets a storm. notify,
// if set, hears of every commit that wrote events.
func newStorm(t testing.TB, n int, notify func()) (*store.DB, *engine.Engine) {
	t.Helper()
	now := func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
	wheel := timer.NewWheel(10*time.Millisecond, 1024, now)
	st, err := store.Options{Hooks: store.Hooks{
		OnTimer: engine.Hint(wheel), OnEvents: func([]storetype.Event) { notify() },
	}}.Open(sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "lapse.db"), sqlite.Options{}))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	due := now()
	tp, err := st.CreateTemplate(context.Background(), store.CreateTemplateParams{
		Template: coupon.Template{Name: "storm", Value: 1, StartsAt: due.Add(-2 * time.Hour), Duration: time.Hour}, Now: due.Add(-2 * time.Hour),
	})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	for i := range n {
		// Claimed an hour before due: all fall due at once.
		if _, err := st.Claim(context.Background(), store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d", i), Now: due.Add(-time.Hour)}); err != nil {
			t.Fatalf("claim: %v", err)
		}
	}
	eng := engine.New(engine.Config{Store: st, Wheel: wheel, Now: now, BatchSize: 1000})
	t.Cleanup(eng.Stop)
	return st, eng
}

// drain starts eng and returns how long it took until nothing was due.
func drain(t testing.TB, st store.Store, eng *engine.Engine) time.Duration {
	t.Helper()
	start := time.Now()
	if err := eng.Start(context.Background()); err != nil {
		t.Fatalf("start engine: %v", err)
	}
	for {
		s, err := st.Stats(context.Background(), time.Now())
		if err != nil {
			t.Fatalf("Stats: %v", err)
		}
		if s.DueBacklog == 0 {
			return time.Since(start)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
