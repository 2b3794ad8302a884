package bench

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// benchSkew bounds the engines' clock skew: none, for the bench replays
// its seed on a clock shifted an hour or more from the database's.
const benchSkew = 1000 * time.Hour

// benchLeaseTTL passes shard leases round within a second or two, so that
// the instances of a storm share the shards before it falls due.
const benchLeaseTTL = 3 * time.Second

// newEngine returns the engine the bench runs on st of target as lapse
// serve runs it (see engineConfig), paced by pace if not nil.
func newEngine(target Target, st Store, wheel *timer.Wheel, now func() time.Time, log *slog.Logger, batch, i int, pace *engine.Pace) *engine.Engine {
	cfg := engineConfig(target, st, wheel, now, log, batch, i)
	cfg.Pace = pace
	return engine.New(cfg)
}

// engineConfig configures an engine on st of target as lapse serve runs
// it: on a shared store, instance i among others, holding shard leases.
func engineConfig(target Target, st Store, wheel *timer.Wheel, now func() time.Time, log *slog.Logger, batch, i int) engine.Config {
	holder := ""
	if target.Shared {
		holder = fmt.Sprintf("bench-%d", i)
	}
	return engine.Config{Store: st, Wheel: wheel, Now: now, Clock: engine.ReplayClock(now), Log: log, BatchSize: batch,
		Holder: holder, LeaseTTL: benchLeaseTTL, MaxSkew: benchSkew}
}

// moreInstances starts the storm's other Instances-1 instances beside
// eng (see startInstances), counting what they expire into p, paced by
// paces[i] if there is one.
func (r *run) moreInstances(ctx context.Context, eng *engine.Engine, paces []*engine.Pace, commit func(int64, time.Time)) (func(), error) {
	return startInstances(ctx, eng, r.cfg.Target, r.cfg.Instances, r.clock, r.cfg.Log, r.cfg.BatchSize, paces,
		func(wheel *timer.Wheel) store.Hooks { return expiryHooks(wheel, commit) })
}

// startInstances opens instances 1 to n-1 of target beside eng, instance
// 0's engine, as more lapse serve processes on the database would be:
// each a store whose hooks hooks gives for its wheel, with an engine of
// its own of batch size batch on clk, paced by paces[i] if there is one.
// It starts them, waits until all n engines hold their shares of the
// shards, and returns what stops them and closes their stores (nothing,
// for n = 1).
func startInstances(ctx context.Context, eng *engine.Engine, target Target, n int, clk *clock, log *slog.Logger, batch int, paces []*engine.Pace,
	hooks func(*timer.Wheel) store.Hooks) (func(), error) {
	var (
		engs    = []*engine.Engine{eng}
		closers []func()
	)
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	for i := 1; i < n; i++ {
		wheel := newWheel(clk.Now)
		st, _, err := target.Open(ctx, hooks(wheel))
		if err != nil {
			closeAll()
			return nil, err
		}
		closers = append(closers, func() { st.Close() })
		var pace *engine.Pace
		if i < len(paces) {
			pace = paces[i]
		}
		eng := newEngine(target, st, wheel, clk.Now, log, batch, i, pace)
		if err := eng.Start(ctx); err != nil {
			closeAll()
			return nil, err
		}
		closers = append(closers, eng.Stop)
		engs = append(engs, eng)
	}
	if n > 1 {
		if err := awaitShared(ctx, engs); err != nil {
			closeAll()
			return nil, err
		}
	}
	return closeAll, nil
}

// expiryHooks are the hooks of a store an engine runs on: its timers go
// to wheel and its expiries, as they commit, to commit.
func expiryHooks(wheel *timer.Wheel, commit func(n int64, at time.Time)) store.Hooks {
	return store.Hooks{OnTimer: engine.Hint(wheel), OnEvents: func(events []storetype.Event) {
		commit(countOf(events, store.EventCouponExpired), time.Now())
	}}
}

// awaitShared waits until every engine holds its share of the shards, at
// most a minute.
func awaitShared(ctx context.Context, engs []*engine.Engine) error {
	share := storetype.Shards / len(engs)
	for deadline := time.Now().Add(time.Minute); ; {
		shared := true
		for _, e := range engs {
			shared = shared && e.Shards() >= share
		}
		if shared {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the %d instances did not share the shards out in a minute", len(engs))
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
}
