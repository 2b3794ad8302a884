package engine

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// Config sets up an Engine. Store, Wheel and Now are required.
type Config struct {
	Store Store
	// Wheel holds the near window of timers. The engine starts and stops it.
	Wheel *timer.Wheel
	// Now is the one clock.
	Now func() time.Time
	Log *slog.Logger
	// Metrics, if set, records lag, transitions and repairs.
	Metrics *Metrics
	// Outage, shared with the process's other loops, tells of the
	// database's outages once each (see store.Outage); nil means one of
	// the engine's own, logging to Log.
	Outage *store.Outage
	// BatchSize is how many rows one transaction transitions; 0 means 1000.
	BatchSize int
	// SweepInterval is how often the sweeper scans for anything due that
	// no trigger fired; 0 means 30s.
	SweepInterval time.Duration
	// LoadInterval is how often timers entering the wheel's horizon are
	// loaded from the store; 0 means a quarter of the horizon, or 1s for one
	// of many instances, where it is how soon an instance hears of the
	// timers another writes when no delay queue tells it sooner.
	LoadInterval time.Duration
	// Payments, if set, is asked before an order is closed on timeout.
	Payments PaymentChecker
	// PaymentGrace is how long past its deadline an order waits for a
	// payment check that fails before it is closed anyway; 0 means 1m.
	PaymentGrace time.Duration
	// PaymentTimeout bounds one payment check; 0 means 2s.
	PaymentTimeout time.Duration
	// Holder, if set, makes the engine one of many on the database,
	// known by this name: it drains only the shards it holds a lease on,
	// fires only while the local clock is within MaxSkew of the
	// database's, and decides by the database's clock (see Clock).
	Holder string
	// Instance names this instance in the store's record of the
	// instances and their clock skew (store.Instances, the console's),
	// which it writes every third of LeaseTTL; Holder, if set, names it
	// instead. Neither: the engine records nothing.
	Instance string
	// LeaseTTL is how long a shard lease lasts unrenewed: how soon a
	// dead instance's shards pass to the others; 0 means 10s.
	LeaseTTL time.Duration
	// MaxSkew bounds this instance's clock skew against the database's;
	// 0 means 1s.
	MaxSkew time.Duration
	// Clock, with Holder, is the clock Now reads (Clock.Now, or it
	// truncated), which the engine corrects to the database's as it
	// measures it, so that the wheel, the API and the engine decide by
	// the same clock, never ahead of the database's. Without it, an
	// engine with Holder makes one over Now for its own decisions.
	Clock *Clock
	// Accel, if set with Holder, is the delay queue the instances share;
	// the engine polls it every AccelPoll (0 means 100ms).
	Accel     *Accel
	AccelPoll time.Duration
	// IdempotencyTTL is how long an idempotency key holds its request;
	// the engine prunes the keys older than that every PruneInterval.
	// 0 means store.DefaultRequestTTL and a minute.
	IdempotencyTTL time.Duration
	PruneInterval  time.Duration
	// OperationPoll is how often the engine looks for a bulk operation to
	// work; 0 means 1s.
	OperationPoll time.Duration
	// OperationBatch is how many coupons one transaction of a bulk
	// operation works; 0 means DefaultOperationBatch.
	OperationBatch int
	// OperationShare is the share of its time a bulk operation's worker
	// spends in batches: after a batch that took d it rests
	// d×(1−share)/share, leaving the database to checkout. 0 means
	// DefaultOperationShare; 1 never rests.
	OperationShare float64
	// ArchiveAfter is how long after its last change a terminal coupon
	// or a paid or closed order moves to the archive, every
	// ArchiveInterval (0 means a minute); 0 archives nothing.
	ArchiveAfter    time.Duration
	ArchiveInterval time.Duration
	// Pace, if set, slows the drains while users feel them (see Pace);
	// nil drains flat out.
	Pace *Pace
	// ReconcileInterval is how often the engine runs the store's
	// reconciliation (see store.Reconciliation); 0 never. Repair makes
	// each run repair what it finds.
	ReconcileInterval time.Duration
	Repair            bool
}

// Engine fires due work: one worker per kind of timer, so that a slow
// kind (an order close waiting on a payment check) never holds up another.
type Engine struct {
	cfg    Config
	ctx    context.Context // the running engine's; done once it stops
	drains map[storetype.TimerKind]drainFunc
	wake   map[storetype.TimerKind]chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	leases *leases     // nil: the engine drains the whole store
	clock  *clockGuard // nil: the engine's clock is the authority
}

type drainFunc func(context.Context, storetype.DueParams) (store.Drained, error)

// New returns an Engine for cfg.
func New(cfg Config) *Engine {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 1000
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = 30 * time.Second
	}
	if cfg.Holder != "" && cfg.LoadInterval <= 0 {
		cfg.LoadInterval = time.Second
	}
	if cfg.LoadInterval <= 0 {
		cfg.LoadInterval = cfg.Wheel.Horizon() / 4
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Outage == nil {
		cfg.Outage = store.NewOutage(cfg.Log, nil)
	}
	if cfg.PaymentGrace <= 0 {
		cfg.PaymentGrace = time.Minute
	}
	if cfg.PaymentTimeout <= 0 {
		cfg.PaymentTimeout = 2 * time.Second
	}
	if cfg.IdempotencyTTL <= 0 {
		cfg.IdempotencyTTL = store.DefaultRequestTTL
	}
	if cfg.PruneInterval <= 0 {
		cfg.PruneInterval = time.Minute
	}
	if cfg.OperationPoll <= 0 {
		cfg.OperationPoll = time.Second
	}
	if cfg.OperationBatch <= 0 {
		cfg.OperationBatch = DefaultOperationBatch
	}
	if cfg.OperationShare <= 0 || cfg.OperationShare > 1 {
		cfg.OperationShare = DefaultOperationShare
	}
	if cfg.ArchiveInterval <= 0 {
		cfg.ArchiveInterval = time.Minute
	}
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = 10 * time.Second
	}
	if cfg.Holder != "" {
		cfg.Instance = cfg.Holder
	}
	cfg.Pace.start(cfg.BatchSize, cfg.Metrics)
	e := &Engine{cfg: cfg, wake: map[storetype.TimerKind]chan struct{}{}}
	e.drains = map[storetype.TimerKind]drainFunc{
		storetype.TimerExpire:  cfg.Store.ExpireDue,
		storetype.TimerRelease: cfg.Store.ReleaseLocks,
		storetype.TimerClose:   cfg.Store.CloseDueOrders,
		storetype.TimerRemind:  cfg.Store.SendDueReminders,
	}
	if cfg.Payments != nil {
		e.drains[storetype.TimerClose] = e.closeCheckingPayments
		cfg.Metrics.trackPayments()
	}
	for kind := range e.drains {
		e.wake[kind] = make(chan struct{}, 1)
		cfg.Metrics.track(kind)
	}
	if cfg.ReconcileInterval > 0 {
		cfg.Metrics.trackReconcile()
	}
	if cfg.Holder != "" {
		e.distribute(cfg.Store)
	}
	return e
}

// distribute makes e one of many engines on the store ls: see
// Config.Holder.
func (e *Engine) distribute(ls Store) {
	if e.cfg.MaxSkew <= 0 {
		e.cfg.MaxSkew = time.Second
	}
	if e.cfg.AccelPoll <= 0 {
		e.cfg.AccelPoll = 100 * time.Millisecond
	}
	if e.cfg.Clock == nil {
		e.cfg.Clock = NewClock(e.cfg.Now)
		e.cfg.Now = e.cfg.Clock.Now
	}
	e.cfg.Clock.assume(e.cfg.MaxSkew) // until the first measurement
	e.cfg.Metrics.clockSkewBound(e.cfg.MaxSkew)
	e.leases = &leases{st: ls, holder: e.cfg.Holder, ttl: e.cfg.LeaseTTL, log: e.cfg.Log, outage: e.cfg.Outage, m: e.cfg.Metrics, gained: e.wakeAll}
	e.clock = &clockGuard{src: ls, local: e.cfg.Clock.local, db: e.cfg.Clock, bound: e.cfg.MaxSkew, log: e.cfg.Log, outage: e.cfg.Outage, m: e.cfg.Metrics, resumed: e.wakeAll, report: e.reportSkew, err: errUnmeasured}
}

// wakeAll wakes every worker to drain what is due.
func (e *Engine) wakeAll() {
	for kind := range e.wake {
		e.signal(kind)
	}
}

// Shards returns how many shards the engine holds a lease on now; 0 when
// it drains the whole store.
func (e *Engine) Shards() int {
	if e.leases == nil {
		return 0
	}
	return len(e.leases.Held())
}

// Leads reports whether this instance runs what one instance of many
// must run alone (the outbox relay): always when the engine drains the
// whole store, else while it holds the lease of shard 0.
func (e *Engine) Leads() bool {
	if e.leases == nil {
		return true
	}
	return slices.ContainsFunc(e.leases.Held(), func(l storetype.Lease) bool { return l.Shard == 0 })
}

// Err says why the engine is not firing, nil while it is: its clock is
// too far from the database's.
func (e *Engine) Err() error {
	if e.clock == nil {
		return nil
	}
	return e.clock.Err()
}

// Hint returns a store hook that puts each timer a commit wrote straight
// into w, so near work is fired without waiting for the loader.
func Hint(w *timer.Wheel) func(storetype.Timer) {
	return func(t storetype.Timer) { w.Add(timer.Key{Kind: string(t.Kind), Due: t.Due}) }
}

// Start runs the engine until Stop or until ctx is done. It returns at once.
func (e *Engine) Start(ctx context.Context) error {
	ctx, e.cancel = context.WithCancel(ctx)
	e.ctx = ctx
	if err := e.cfg.Wheel.Start(ctx); err != nil {
		return err
	}
	if e.leases != nil {
		e.clock.measure(ctx)
		e.leases.renew(ctx)
		e.goFunc(func() { every(ctx, e.cfg.LeaseTTL/3, func() { e.clock.measure(ctx) }) })
		e.goFunc(func() { every(ctx, e.cfg.LeaseTTL/3, func() { e.leases.renew(ctx) }) })
		if a := e.cfg.Accel; a != nil {
			e.goFunc(func() { a.feed(ctx) })
			e.goFunc(func() { every(ctx, e.cfg.AccelPoll, func() { e.pollAccel(ctx) }) })
		}
	} else if e.cfg.Instance != "" {
		e.measureSkew(ctx)
		e.goFunc(func() { every(ctx, e.cfg.LeaseTTL/3, func() { e.measureSkew(ctx) }) })
	}
	e.goFunc(func() { e.dispatch(ctx) })
	e.goFunc(func() {
		e.load(ctx)
		every(ctx, e.cfg.LoadInterval, func() { e.load(ctx) })
	})
	for kind := range e.drains {
		e.goFunc(func() { e.work(ctx, kind) })
	}
	e.goFunc(func() { every(ctx, e.cfg.PruneInterval, func() { e.pruneRequests(ctx) }) })
	e.goFunc(func() {
		e.workOperations(ctx)
		every(ctx, e.cfg.OperationPoll, func() { e.workOperations(ctx) })
	})
	e.goFunc(func() { every(ctx, e.cfg.ArchiveInterval, func() { e.archive(ctx) }) })
	if e.cfg.ReconcileInterval > 0 {
		e.goFunc(func() { every(ctx, e.cfg.ReconcileInterval, func() { e.reconcile(ctx) }) })
	}
	return nil
}

func (e *Engine) goFunc(f func()) {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		f()
	}()
}

// Stop stops the engine after the batches in flight have committed. It is
// safe to call twice and waits for the engine's goroutines.
func (e *Engine) Stop() {
	e.once.Do(func() {
		if e.cancel == nil {
			return
		}
		e.cancel()
		e.wg.Wait()
		e.cfg.Wheel.Stop()
	})
}

// dispatch wakes the worker of each timer the wheel fires. A wake-up that
// finds its worker already woken is dropped: one drain serves both.
func (e *Engine) dispatch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case k, ok := <-e.cfg.Wheel.C():
			if !ok { // the wheel stopped with ctx
				return
			}
			e.signal(storetype.TimerKind(k.Kind))
		}
	}
}

func (e *Engine) signal(kind storetype.TimerKind) {
	wake, ok := e.wake[kind]
	if !ok {
		e.cfg.Log.Warn("engine: unknown timer kind", slog.String("kind", string(kind)))
		return
	}
	select {
	case wake <- struct{}{}:
	default:
	}
}

// load offers the wheel every timer due within its horizon.
func (e *Engine) load(ctx context.Context) {
	timers, err := e.cfg.Store.Timers(ctx, storetype.TimersParams{Before: e.cfg.Now().Add(e.cfg.Wheel.Horizon()), Limit: 10000})
	if err != nil {
		e.logErr("engine: load timers", err)
	} else {
		e.cfg.Outage.Served()
	}
	for _, tm := range timers {
		e.cfg.Wheel.Add(timer.Key{Kind: string(tm.Kind), Due: tm.Due})
	}
}

// work is the worker of one kind: it drains when woken, and sweeps at start
// and every SweepInterval whatever the timers say.
func (e *Engine) work(ctx context.Context, kind storetype.TimerKind) {
	sweep := time.NewTicker(e.cfg.SweepInterval)
	defer sweep.Stop()
	e.drain(ctx, kind, true)
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.wake[kind]:
			e.drain(ctx, kind, false)
		case <-sweep.C:
			e.drain(ctx, kind, true)
		}
	}
}

// drain transitions everything of kind that is due, in the shards this
// engine holds (or the whole store), acknowledges what it claimed of the
// delay queue, then retires the timers whose buckets are done: at once
// when the engine is alone, or once every other engine has had time to
// load them.
func (e *Engine) drain(ctx context.Context, kind storetype.TimerKind, sweeping bool) {
	start := e.cfg.Now()
	through := start
	if e.leases == nil {
		e.drainHeld(ctx, kind, func() []storetype.Lease { return nil }, sweeping)
	} else {
		claimed := e.cfg.Accel.take(kind)
		drained := e.drainHeld(ctx, kind, e.leases.Held, sweeping)
		e.cfg.Accel.ack(context.WithoutCancel(ctx), claimed, drained)
		through = start.Add(-2 * e.cfg.LoadInterval)
	}
	if ctx.Err() != nil || e.Err() != nil {
		return
	}
	err := e.cfg.Store.DeleteTimers(context.WithoutCancel(ctx), store.DeleteTimersParams{Kind: kind, Through: through})
	if err != nil {
		e.logErr("engine: delete timers", err)
	}
}

// pollAccel claims the due items of the shards held from the delay queue
// and wakes the workers of their kinds.
func (e *Engine) pollAccel(ctx context.Context) {
	if e.Err() != nil {
		return
	}
	for _, kind := range e.cfg.Accel.claim(ctx, e.leases.Held(), e.cfg.Now()) {
		e.signal(kind)
	}
}

// every calls f every d until ctx is done.
func every(ctx context.Context, d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// drainHeld transitions everything of kind that is due under the leases
// held returns before each batch (none: in the whole store), a batch per
// transaction, then arms the wheel for the next due item. It returns the
// shards it drained to the end, none if it stopped short. A batch that
// has begun always commits, unless a lease of it was lost: then the
// leases are renewed and the drain goes on under those still held. A stop
// takes effect between batches, and so does a clock found skewed.
func (e *Engine) drainHeld(ctx context.Context, kind storetype.TimerKind, held func() []storetype.Lease, sweeping bool) []int {
	fn := e.drains[kind]
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil && e.Err() == nil {
		ls := held()
		if e.leases != nil && len(ls) == 0 {
			return nil
		}
		now, began := e.cfg.Now(), time.Now()
		limit := e.cfg.Pace.begin(e.cfg.BatchSize)
		d, err := fn(context.WithoutCancel(ctx), storetype.DueParams{Now: now, Limit: limit, Leases: ls})
		if err != nil {
			e.cfg.Pace.end(time.Since(began), false)
		}
		if errors.Is(err, store.ErrLeaseLost) {
			e.leases.lost(ctx)
			continue
		}
		if err != nil {
			e.logErr("engine: drain "+string(kind), err)
			e.cfg.Metrics.drainFailed(kind)
			select {
			case <-ctx.Done():
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		// A full batch may leave more due. A short one may too, if the
		// store made way for a user: then Next says so.
		more := len(d.Due) >= limit || (!d.Next.IsZero() && !d.Next.After(e.cfg.Now()))
		rest := e.cfg.Pace.end(time.Since(began), more)
		e.cfg.Outage.Served()
		e.cfg.Metrics.drained(kind, now, d.Due, sweeping)
		if !more {
			if !d.Next.IsZero() {
				e.cfg.Wheel.Add(timer.Key{Kind: string(kind), Due: d.Next})
			}
			return storetype.Leases(ls).Shards()
		}
		pause(ctx, rest)
	}
	return nil
}

// logErr logs err of a call to the store, unless it is context.Canceled
// or an outage, which the Outage tells of once.
func (e *Engine) logErr(msg string, err error) {
	if errors.Is(err, context.Canceled) || e.cfg.Outage.Failed(err) {
		return
	}
	e.cfg.Log.Error(msg, slog.Any("err", err))
}
