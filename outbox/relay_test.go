package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestDeadLettersKeepSubjectOrder: an event its receiver keeps refusing
// becomes a dead letter, the later events of its subject are parked
// behind it, every other subject flows; a replay that fails again changes
// nothing, and one that succeeds delivers the subject in order.
func TestDeadLettersKeepSubjectOrder(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	st, evs := storeWithHistory(t, 3, 2)
	poison := evs[1].Subject
	var fixed atomic.Bool
	rc.SetAnswer(func(n int, got []outboxtest.Event) (int, time.Duration) {
		if got[0].Subject == poison && !fixed.Load() {
			return http.StatusServiceUnavailable, 0
		}
		return http.StatusOK, 0
	})
	reg := prometheus.NewRegistry()
	cfg := relayConfig(st, webhook(rc, "hook", 1))
	cfg.MaxAttempts, cfg.Registerer = 3, reg
	r := startRelay(t, cfg)

	// Five events of the poisoned subject: one tried three times, four parked.
	settled := func(dead int64) func() bool {
		return func() bool {
			s := sinkStatus(t, r, "hook")
			return s.Lag == 0 && s.DeadLetters == dead && s.Queued == 0
		}
	}
	waitFor(t, 5*time.Second, "five dead letters", settled(5))
	var others []storetype.Event
	for _, e := range evs {
		if e.Subject != poison {
			others = append(others, e)
		}
	}
	outboxtest.Check(t, others, rc.Events())
	letters, err := st.DeadLetters(context.Background(), storetype.DeadLettersParams{Sink: "hook", Limit: 100})
	if err != nil {
		t.Fatalf("DeadLetters: %v", err)
	}
	for i, l := range letters {
		wantAttempts, wantErr := 0, "parked"
		if i == 0 {
			wantAttempts, wantErr = 3, "503"
		}
		if l.Event.Subject != poison || l.Attempts != wantAttempts || !strings.Contains(l.Error, wantErr) {
			t.Fatalf("letter %d: got %s, %d attempts, %q; want %s, %d attempts, error with %q", i, l.Event.Subject, l.Attempts, l.Error, poison, wantAttempts, wantErr)
		}
	}

	// A new event of the subject is parked too.
	transition(t, st, poison, coupon.Lock)
	waitFor(t, 5*time.Second, "six dead letters", settled(6))
	if got := metric(t, reg, "lapse_outbox_dead_letters", "hook"); got != 6 {
		t.Fatalf("lapse_outbox_dead_letters: got %v, want 6", got)
	}

	// A replay while the receiver still refuses: the same six stay.
	if n, err := r.Replay(context.Background(), "hook", nil); err != nil || n != 6 {
		t.Fatalf("Replay: got %d, %v; want 6", n, err)
	}
	waitFor(t, 5*time.Second, "six dead letters after a failed replay", settled(6))
	if got := outboxtest.Distinct(rc.Events()); got != len(others) {
		t.Fatalf("events received after a failed replay: got %d, want %d", got, len(others))
	}

	fixed.Store(true)
	if n, err := r.Replay(context.Background(), "hook", nil); err != nil || n != 6 {
		t.Fatalf("Replay: got %d, %v; want 6", n, err)
	}
	waitFor(t, 5*time.Second, "no dead letter after the replay", settled(0))
	if got := metric(t, reg, "lapse_outbox_dead_letters", "hook"); got != 0 {
		t.Fatalf("lapse_outbox_dead_letters after the replay: got %v, want 0", got)
	}
	outboxtest.Check(t, outboxtest.Feed(t, st), rc.Events())

	// The subject is no longer parked.
	transition(t, st, poison, coupon.Unlock)
	all := outboxtest.Feed(t, st)
	outboxtest.Check(t, all, rc.WaitDistinct(t, len(all), 5*time.Second))
	if got := metric(t, reg, "lapse_outbox_dead_lettered_total", "hook"); got != 12 {
		t.Fatalf("dead lettered: got %v, want 12 (six, then the same six again)", got)
	}
	if _, err := r.Replay(context.Background(), "nope", nil); !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf("Replay of an unknown sink: got %v, want %v", err, storetype.ErrNotFound)
	}
}

// transition applies act to a coupon now.
func transition(t testing.TB, st store.Store, id string, act coupon.Action) {
	t.Helper()
	_, err := st.Transition(context.Background(), store.TransitionParams{CouponID: id, Action: act, OrderID: "late", LockTTL: time.Hour, Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("%s %s: %v", act, id, err)
	}
}

// metric returns the value of the counter or gauge name{sink=sink} of reg.
func metric(t testing.TB, reg *prometheus.Registry, name, sink string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if mf.GetName() == name && l.GetName() == "sink" && l.GetValue() == sink {
					return m.GetCounter().GetValue() + m.GetGauge().GetValue()
				}
			}
		}
	}
	t.Fatalf("no metric %s{sink=%q}", name, sink)
	return 0
}

// TestSlowSinkHoldsNoOtherBack: while one sink's receiver hangs, another
// sink gets everything; the hung one catches up once released.
func TestSlowSinkHoldsNoOtherBack(t *testing.T) {
	stuck, fast := outboxtest.NewReceiver(t, ""), outboxtest.NewReceiver(t, "")
	free := hang(t, stuck)
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, webhook(stuck, "stuck", 10), webhook(fast, "fast", 10)))
	outboxtest.Check(t, want, fast.WaitDistinct(t, len(want), 10*time.Second))
	if s := sinkStatus(t, r, "stuck"); s.Position != 0 || s.Lag != int64(len(want)) || len(stuck.Events()) != 0 {
		t.Fatalf("stuck sink: got %+v and %d events received, want position 0, lag %d, none received", s, len(stuck.Events()), len(want))
	}
	free()
	outboxtest.Check(t, want, stuck.WaitDistinct(t, len(want), 10*time.Second))
}

// TestRestartResumes: a relay started again on the same store resumes
// each sink from its stored position: nothing delivered is sent again.
func TestRestartResumes(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	st, first := storeWithHistory(t, 10, 1)
	r := startRelay(t, relayConfig(st, webhook(rc, "hook", 10)))
	rc.WaitDistinct(t, len(first), 10*time.Second)
	waitFor(t, 5*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "hook").Lag == 0 })
	r.Stop()
	history(t, st, 10, 1)
	all := outboxtest.Feed(t, st)
	startRelay(t, relayConfig(st, webhook(rc, "hook", 10)))
	outboxtest.CheckOnce(t, "after a clean restart", all, rc.WaitDistinct(t, len(all), 10*time.Second))
}

// TestDeliversOnlyWhileLeading: of two relays on one store, only the
// one that leads delivers; when the lead passes, the other resumes from
// the position the first stored.
func TestDeliversOnlyWhileLeading(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	st, first := storeWithHistory(t, 10, 1)
	var aLeads atomic.Bool
	aLeads.Store(true)
	a, b := relayConfig(st, webhook(rc, "hook", 10)), relayConfig(st, webhook(rc, "hook", 10))
	a.Leads = aLeads.Load
	b.Leads = func() bool { return !aLeads.Load() }
	startRelay(t, a)
	rb := startRelay(t, b)
	rc.WaitDistinct(t, len(first), 10*time.Second)
	waitFor(t, 5*time.Second, "lag 0", func() bool { return sinkStatus(t, rb, "hook").Lag == 0 })
	if got := len(rc.Events()); got != len(first) {
		t.Fatalf("received %d events from two relays, want %d: the one not leading delivered too", got, len(first))
	}
	aLeads.Store(false)
	// A batch a began while it led may still be on its way: new events
	// come once it has had a few polls to see it no longer leads.
	time.Sleep(100 * time.Millisecond)
	history(t, st, 10, 1)
	all := outboxtest.Feed(t, st)
	outboxtest.CheckOnce(t, "after the lead passed", all, rc.WaitDistinct(t, len(all), 10*time.Second))
	if got := len(rc.Events()); got != len(all) {
		t.Fatalf("received %d events, want %d: the new leader sent again what the first had", got, len(all))
	}
}

// TestStopMidBatch: a relay stopped while its receiver is working through
// a batch keeps what was acknowledged; after a restart the rest arrives,
// duplicates only with the same IDs.
func TestStopMidBatch(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusOK, 50 * time.Millisecond })
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, webhook(rc, "hook", 1)))
	waitFor(t, 10*time.Second, "a few events received", func() bool { return len(rc.Events()) >= 3 })
	r.Stop()
	if n := len(rc.Events()); n >= len(want) {
		t.Fatalf("stopped after all %d events arrived: nothing was tested", n)
	}
	rc.SetAnswer(nil)
	startRelay(t, relayConfig(st, webhook(rc, "hook", 10)))
	outboxtest.Check(t, want, rc.WaitDistinct(t, len(want), 10*time.Second))
}

// TestConcurrentCommitsDelivered: events committed by many writers while
// the relay runs all arrive, each subject in order.
func TestConcurrentCommitsDelivered(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	var r *outbox.Relay
	st := openStore(t, func() { r.Notify() })
	tp, err := st.CreateTemplate(context.Background(), store.CreateTemplateParams{
		Template: coupon.Template{Name: "t", Value: 1, StartsAt: t0.Add(-time.Hour), Duration: time.Hour}, Now: t0.Add(-time.Hour),
	})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	r = startRelay(t, relayConfig(st, webhook(rc, "hook", 20)))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 40 {
				c, err := st.Claim(context.Background(), store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d-%d", w, i), Now: t0})
				if err != nil {
					t.Errorf("claim: %v", err)
					return
				}
				transition(t, st, c.ID, coupon.Lock)
			}
		})
	}
	wg.Wait()
	want := outboxtest.Feed(t, st)
	outboxtest.CheckOnce(t, "delivery", want, rc.WaitDistinct(t, len(want), 10*time.Second))
}

// TestPrune: retention deletes, from the front, events older than it that
// every sink has passed, and stops at the first that must stay.
func TestPrune(t *testing.T) {
	st, evs := storeWithHistory(t, 10, 2) // claims at t0, rounds at t0+1s and t0+2s
	ctx := context.Background()
	for name, pos := range map[string]int64{"ahead": evs[len(evs)-1].Seq, "behind": evs[24].Seq} {
		if err := st.AdvanceSink(ctx, storetype.AdvanceSinkParams{Sink: name, Position: pos}); err != nil {
			t.Fatalf("AdvanceSink: %v", err)
		}
	}
	var now time.Time
	rc := outboxtest.NewReceiver(t, "")
	cfg := relayConfig(st, webhook(rc, "ahead", 1), webhook(rc, "behind", 1))
	cfg.Retention, cfg.PruneBatch, cfg.Now = time.Hour, 3, func() time.Time { return now }
	r, err := outbox.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	prune := func(at time.Time, want int64) {
		t.Helper()
		now = at
		if n, err := r.Prune(ctx); err != nil || n != want {
			t.Fatalf("Prune at t0%+v: got %d, %v; want %d", at.Sub(t0), n, err, want)
		}
	}
	prune(t0.Add(time.Hour), 0)                       // nothing older than an hour
	prune(t0.Add(time.Hour+500*time.Millisecond), 10) // the claims
	prune(t0.Add(2*time.Hour), 15)                    // up to the sink behind
	if got := outboxtest.Feed(t, st); len(got) != len(evs)-25 || got[0].ID != evs[25].ID {
		t.Fatalf("feed after pruning: got %d events, want the last %d", len(got), len(evs)-25)
	}
	if s := sinkStatus(t, r, "behind"); s.Lag != int64(len(evs)-25) {
		t.Fatalf("lag of the sink behind: got %d, want %d", s.Lag, len(evs)-25)
	}
}

// TestPruneRuns: a started relay prunes on its own.
func TestPruneRuns(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	st := openStore(t, nil)
	history(t, st, 5, 1)
	cfg := relayConfig(st, webhook(rc, "hook", 10))
	cfg.Retention, cfg.PruneInterval = time.Millisecond, 20*time.Millisecond
	startRelay(t, cfg)
	waitFor(t, 10*time.Second, "outbox pruned", func() bool { return len(outboxtest.Feed(t, st)) == 0 })
	if got := outboxtest.Distinct(rc.Events()); got != 15 {
		t.Fatalf("events received before pruning: got %d, want 15", got)
	}
}

// TestStuckSinkDoesNotDelayExpiry: a storm of coupons due at once drains
// completely while the only sink hangs, acknowledging nothing; the sink
// then gets every event.
func TestStuckSinkDoesNotDelayExpiry(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	free := hang(t, rc)

	var r *outbox.Relay
	st, eng := newStorm(t, 1000, func() { r.Notify() })
	r = startRelay(t, relayConfig(st, webhook(rc, "hook", 100)))
	waitFor(t, 10*time.Second, "the sink is hung on its first batch", func() bool { return rc.Requests() == 1 })

	t.Logf("1000 coupons expired in %s with the sink hung", drain(t, st, eng))
	if s := sinkStatus(t, r, "hook"); s.Position != 0 || len(rc.Events()) != 0 {
		t.Fatalf("sink during the storm: got %+v, %d received; want it hung at position 0", s, len(rc.Events()))
	}
	free()
	all := outboxtest.Feed(t, st)
	if expired := len(outboxtest.OfType(all, store.EventCouponExpired)); expired != 1000 {
		t.Fatalf("coupon.expired events: got %d, want 1000", expired)
	}
	outboxtest.Check(t, all, rc.WaitDistinct(t, len(all), 20*time.Second))
}

// hang makes rc hold every request until the returned func is called (at
// the latest when t ends, before rc closes).
func hang(t testing.TB, rc *outboxtest.Receiver) func() {
	release := make(chan struct{})
	rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) {
		<-release
		return http.StatusOK, 0
	})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // cleanups run last first: this one before rc closes
	return free
}
