package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// maxSessions caps the sessions in flight; the load skips (and counts) a
// session it would start beyond it.
const maxSessions = 20000

// lockTTL is how long a session's lock holds.
const lockTTL = 15 * time.Minute

// load is the concurrent user load: sessions, started at random (Poisson)
// times, that read a random user's wallet and then lock and redeem one of
// the user's live coupons, through the store calls the API makes. Each
// session is three operations; the sessions start at rate/3 a second.
// The writes are recorded in rec, the wallet reads apart in reads.
type load struct {
	st    Store
	now   func() time.Time
	users int
	live  string // the template whose coupons sessions spend
	rate  float64
	rec   *recorder
	reads *recorder

	skipped  atomic.Int64
	cancel   context.CancelFunc
	sessions sync.WaitGroup
	done     chan struct{}
}

// start starts the load; it returns at once.
func (l *load) start(ctx context.Context) {
	ctx, l.cancel = context.WithCancel(ctx)
	l.done = make(chan struct{})
	go l.run(ctx)
}

// stop stops starting sessions and waits for those in flight.
func (l *load) stop() {
	l.cancel()
	<-l.done
}

func (l *load) run(ctx context.Context) {
	defer close(l.done)
	defer l.sessions.Wait()
	mean := time.Duration(float64(time.Second) * 3 / l.rate)
	inFlight := make(chan struct{}, maxSessions)
	next := time.Now()
	for {
		next = next.Add(time.Duration(rand.ExpFloat64() * float64(mean)))
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		select {
		case inFlight <- struct{}{}:
		default:
			l.skipped.Add(1)
			continue
		}
		l.sessions.Go(func() {
			defer func() { <-inFlight }()
			l.session(ctx, fmt.Sprintf("u%d", rand.IntN(l.users)))
		})
	}
}

// walletPage is the page of a wallet a session reads: the API's default
// page, which holds the few coupons a bench user has.
const walletPage = 100

// session reads user's wallet, then locks and redeems a live coupon in it.
// Its operations run to the end even if the load stops meanwhile.
func (l *load) session(ctx context.Context, user string) {
	opCtx := context.WithoutCancel(ctx)
	var wallet []coupon.Coupon
	err := l.timed(opRead, func() (err error) {
		wallet, err = l.st.UserCoupons(opCtx, storetype.UserCouponsParams{UserID: user, Now: l.now(), Limit: walletPage})
		return err
	})
	i := liveCoupon(wallet, l.live)
	if err != nil || i < 0 || ctx.Err() != nil {
		return
	}
	p := store.TransitionParams{CouponID: wallet[i].ID, Action: coupon.Lock, OrderID: store.NewID("ord", l.now()), LockTTL: lockTTL}
	err = l.timed(opLock, func() error {
		p.Now = l.now()
		_, err := l.st.Transition(opCtx, p)
		return err
	})
	if err != nil || ctx.Err() != nil {
		return
	}
	p.Action = coupon.Redeem
	l.timed(opRedeem, func() error {
		p.Now = l.now()
		_, err := l.st.Transition(opCtx, p)
		return err
	})
}

// timed runs fn as one operation of kind o and records it: a read in
// l.reads, a write in l.rec.
func (l *load) timed(o op, fn func() error) error {
	start := time.Now()
	err := fn()
	rec := l.rec
	if o == opRead {
		rec = l.reads
	}
	rec.add(sample{start: start, took: time.Since(start), op: o, failed: err != nil})
	return err
}

// liveCoupon returns the index of an unused coupon of template live in
// wallet, or -1.
func liveCoupon(wallet []coupon.Coupon, live string) int {
	for i, c := range wallet {
		if c.TemplateID == live && c.Status == coupon.Unused {
			return i
		}
	}
	return -1
}
