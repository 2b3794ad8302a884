package bench

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// steadyLife is how long a coupon of the steady phase lives.
const steadyLife = time.Second

// steadyTick is how often the steady phase issues its coupons.
const steadyTick = 10 * time.Millisecond

// steady runs lapse's engine on the seed well before T0 while coupons of a
// one-second template are issued every steadyTick, so that they fall due
// at SteadyRate a second, and measures their expiry lag.
func (r *run) steady(ctx context.Context) error {
	if err := r.cfg.Target.Restore(); err != nil {
		return fmt.Errorf("restore the seed: %w", err)
	}
	r.clock.jumpTo(r.t0.Add(-30 * time.Minute))
	wheel := newWheel(r.clock.Now)
	var expired atomic.Int64
	st, raw, err := r.open(ctx, store.Hooks{OnTimer: engine.Hint(wheel), OnEvents: func(events []storetype.Event) {
		expired.Add(countOf(events, store.EventCouponExpired))
	}})
	if err != nil {
		return err
	}
	defer st.Close()
	now := r.clock.Now()
	tp, err := st.CreateTemplate(ctx, store.CreateTemplateParams{Now: now, Template: coupon.Template{
		Name: "steady", Value: 100, StartsAt: now.Add(-time.Minute), Duration: steadyLife}})
	if err != nil {
		return err
	}
	eng := newEngine(r.cfg.Target, st, wheel, r.clock.Now, r.cfg.Log, r.cfg.BatchSize, 0, nil)
	if err := eng.Start(ctx); err != nil {
		return err
	}
	defer eng.Stop()
	rec := &recorder{}
	l := r.newLoad(st, rec)
	l.start(ctx)
	defer l.stop()

	per := max(1, int(float64(r.cfg.SteadyRate)*steadyTick.Seconds()))
	total := int64(per) * int64(r.cfg.Steady/steadyTick)
	b := StartBar(r.cfg.Progress, "steady", total, expired.Load)
	start := time.Now()
	tick := time.NewTicker(steadyTick)
	defer tick.Stop()
	for issued := 0; issued < int(total); issued += per {
		<-tick.C
		users := make([]string, per)
		for i := range users {
			users[i] = userID((issued + i) % r.cfg.Users)
		}
		if _, err := st.Issue(ctx, store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users), Now: r.clock.Now()}); err != nil {
			return err
		}
	}
	end := time.Now()
	for deadline := end.Add(steadyLife + stallAfter); expired.Load() < total; {
		if time.Now().After(deadline) {
			return fmt.Errorf("expired %d of %d", expired.Load(), total)
		}
		if err := sleep(ctx, 10*time.Millisecond); err != nil {
			return err
		}
	}
	l.stop()
	eng.Stop()
	lags, err := raw.ExpiryLags(ctx)
	if err != nil {
		return err
	}
	lag := quantilesOf(lags)
	all, ops := summarize(rec.between(start, end))
	reads := stats(l.reads.between(start, end))
	r.res.Steady = Steady{
		Seconds: end.Sub(start).Seconds(), Rate: float64(total) / end.Sub(start).Seconds(), Expired: len(lags),
		LagP50: lag.P50, LagP99: lag.P99, LagMax: lag.Max,
		UserP50: all.P50, UserP99: all.P99, Ops: ops, Reads: reads,
	}
	b.Finish(fmt.Sprintf("lag p50 %s p99 %s, writes p99 %s, %s", ms(r.res.Steady.LagP50), ms(r.res.Steady.LagP99), ms(all.P99), readsNote(reads)))
	return nil
}
