package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// The racers of each drain phase: racerCount sessions that lock, then
// redeem, a coupon of the storm, started evenly from racerWindow before
// T0 to racerWindow after it. They are the users a drain that holds the
// storm's rows keeps waiting.
const (
	racerCount  = 40
	racerWindow = 100 * time.Millisecond
)

// Racers summarises the operations of one phase's racers: their latency,
// and how the store answered them.
type Racers struct {
	// N counts the operations: each racer's lock, and its redeem if the
	// lock succeeded.
	N         int `json:"n"`
	Succeeded int `json:"succeeded"`
	// Refused counts the operations at or after T0 that the store refused
	// because the coupon expired or is no longer unused: right.
	Refused int `json:"refused"`
	// Early counts the operations before T0 it refused so: a bug.
	Early int `json:"early"`
	// Failed counts the operations that failed otherwise.
	Failed int `json:"failed"`
	// Taken counts the storm coupons racers locked before T0, which the
	// drain leaves: its rate counts the rest.
	Taken int64 `json:"taken"`
	Quantiles
}

// racerOp is one racer operation: the store time it ran at, how long it
// took, and what the store answered.
type racerOp struct {
	now  time.Time
	took time.Duration
	err  error
}

// racersOf sums up ops, the racer operations of a storm falling due at t0.
func racersOf(ops []racerOp, t0 time.Time) Racers {
	r := Racers{N: len(ops)}
	took := make([]time.Duration, len(ops))
	for i, o := range ops {
		took[i] = o.took
		switch {
		case o.err == nil:
			r.Succeeded++
		case !refusedAsExpired(o.err):
			r.Failed++
		case o.now.Before(t0):
			r.Early++
		default:
			r.Refused++
		}
	}
	r.Quantiles = quantilesOf(took)
	return r
}

// refusedAsExpired reports whether err is the store refusing a transition
// of a coupon that expired or left unused.
func refusedAsExpired(err error) bool {
	return errors.Is(err, coupon.ErrExpired) || errors.Is(err, coupon.ErrInvalidState)
}

// racers are the racers of one phase.
type racers struct {
	st      Store
	now     func() time.Time
	coupons []string
	// taken counts the storm coupons the racers locked before a drain
	// expired them: the drain expires that many fewer.
	taken atomic.Int64
	wg    sync.WaitGroup
	mu    sync.Mutex
	ops   []racerOp
}

// newRacers picks the racers' coupons: an unused storm coupon from each of
// racerCount users of the first holders, who hold the storm, read from
// their wallets before the phase starts. live is the template that is not
// the storm's.
func newRacers(ctx context.Context, st Store, now func() time.Time, live string, holders int) (*racers, error) {
	rs := &racers{st: st, now: now}
	for _, u := range rand.Perm(holders)[:min(racerCount, holders)] {
		wallet, err := st.UserCoupons(ctx, storetype.UserCouponsParams{UserID: userID(u), Status: coupon.Unused, Now: now(), Limit: walletPage})
		if err != nil {
			return nil, err
		}
		for _, c := range wallet {
			if c.TemplateID != live {
				rs.coupons = append(rs.coupons, c.ID)
				break
			}
		}
	}
	return rs, nil
}

// start starts the racers around origin, the real time of T0; it returns
// at once.
func (rs *racers) start(ctx context.Context, origin time.Time) {
	ctx = context.WithoutCancel(ctx)
	step := 2 * racerWindow / time.Duration(max(len(rs.coupons), 1))
	for i, id := range rs.coupons {
		at := origin.Add(-racerWindow + time.Duration(i)*step)
		rs.wg.Go(func() {
			time.Sleep(time.Until(at))
			rs.race(ctx, id)
		})
	}
}

// race locks the coupon id, and redeems it if the lock succeeded.
func (rs *racers) race(ctx context.Context, id string) {
	p := store.TransitionParams{CouponID: id, Action: coupon.Lock, OrderID: store.NewID("ord", rs.now()), LockTTL: lockTTL}
	if rs.timed(ctx, p) != nil {
		return
	}
	rs.taken.Add(1)
	p.Action = coupon.Redeem
	rs.timed(ctx, p)
}

// timed runs the transition p at the time it starts and records it.
func (rs *racers) timed(ctx context.Context, p store.TransitionParams) error {
	start := time.Now()
	p.Now = rs.now()
	_, err := rs.st.Transition(ctx, p)
	rs.mu.Lock()
	rs.ops = append(rs.ops, racerOp{now: p.Now, took: time.Since(start), err: err})
	rs.mu.Unlock()
	return err
}

// wait waits for every racer to finish and returns their summary for a
// storm due at t0.
func (rs *racers) wait(t0 time.Time) Racers {
	rs.wg.Wait()
	r := racersOf(rs.ops, t0)
	r.Taken = rs.taken.Load()
	return r
}

// String is the summary line of r.
func (r Racers) String() string {
	return fmt.Sprintf("racers p50 %s p99 %s max %s, %d ok, %d refused, %d early, %d failed",
		ms(r.P50), ms(r.P99), ms(r.Max), r.Succeeded, r.Refused, r.Early, r.Failed)
}
