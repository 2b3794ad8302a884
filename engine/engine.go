package engine

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/timer"
)

// Config sets up an Engine. Store, Wheel and Now are required.
type Config struct {
	Store store.Store
	// Wheel holds the near window of timers. The engine starts and stops it.
	Wheel *timer.Wheel
	// Now is the one clock.
	Now func() time.Time
	Log *slog.Logger
	// Metrics, if set, records lag, transitions and repairs.
	Metrics *Metrics
	// BatchSize is how many rows one transaction transitions; 0 means 1000.
	BatchSize int
	// SweepInterval is how often the sweeper scans for anything due that
	// no trigger fired; 0 means 30s.
	SweepInterval time.Duration
	// LoadInterval is how often timers entering the wheel's horizon are
	// loaded from the store; 0 means a quarter of the horizon.
	LoadInterval time.Duration
}

// Engine fires due work. Start it once; Stop waits for the batch in flight.
type Engine struct {
	cfg    Config
	drains map[store.TimerKind]drainFunc
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

type drainFunc func(context.Context, store.DueParams) (store.Drained, error)

// New returns an Engine for cfg.
func New(cfg Config) *Engine {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 1000
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = 30 * time.Second
	}
	if cfg.LoadInterval <= 0 {
		cfg.LoadInterval = cfg.Wheel.Horizon() / 4
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Engine{
		cfg: cfg,
		drains: map[store.TimerKind]drainFunc{
			store.TimerExpire:  cfg.Store.ExpireDue,
			store.TimerRelease: cfg.Store.ReleaseLocks,
		},
	}
}

// Hint returns a store hook that puts each timer a commit wrote straight
// into w, so near work is fired without waiting for the loader.
func Hint(w *timer.Wheel) func(store.Timer) {
	return func(t store.Timer) { w.Add(timer.Key{Kind: string(t.Kind), Due: t.Due}) }
}

// Start runs the engine until Stop or until ctx is done. It returns at once.
func (e *Engine) Start(ctx context.Context) error {
	ctx, e.cancel = context.WithCancel(ctx)
	e.done = make(chan struct{})
	if err := e.cfg.Wheel.Start(ctx); err != nil {
		return err
	}
	go e.run(ctx)
	return nil
}

// Stop stops the engine after the batch in flight has committed. It is
// safe to call twice and waits for the engine's goroutines.
func (e *Engine) Stop() {
	e.once.Do(func() {
		if e.cancel == nil {
			return
		}
		e.cancel()
		<-e.done
		e.cfg.Wheel.Stop()
	})
}

// run is the engine's one worker: SQLite has one writer, and one loop
// keeps batches from competing with each other for it.
func (e *Engine) run(ctx context.Context) {
	defer close(e.done)
	load := time.NewTicker(e.cfg.LoadInterval)
	defer load.Stop()
	sweep := time.NewTicker(e.cfg.SweepInterval)
	defer sweep.Stop()
	e.load(ctx)
	e.sweep(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-load.C:
			e.load(ctx)
		case <-sweep.C:
			e.sweep(ctx)
		case k, ok := <-e.cfg.Wheel.C():
			if !ok { // the wheel stopped with ctx
				return
			}
			e.drain(ctx, store.TimerKind(k.Kind), false)
		}
	}
}

// load offers the wheel every timer due within its horizon.
func (e *Engine) load(ctx context.Context) {
	timers, err := e.cfg.Store.Timers(ctx, store.TimersParams{Before: e.cfg.Now().Add(e.cfg.Wheel.Horizon()), Limit: 10000})
	if err != nil {
		e.logErr("engine: load timers", err)
		return
	}
	for _, t := range timers {
		e.cfg.Wheel.Add(timer.Key{Kind: string(t.Kind), Due: t.Due})
	}
}

// sweep drains every kind, whatever the timers say.
func (e *Engine) sweep(ctx context.Context) {
	for kind := range e.drains {
		e.drain(ctx, kind, true)
	}
}

// drain transitions everything of kind that is due, a batch per
// transaction, then arms the wheel for the next due item and retires the
// timers whose buckets are done. A batch that has begun always commits:
// a stop takes effect between batches.
func (e *Engine) drain(ctx context.Context, kind store.TimerKind, sweeping bool) {
	fn, ok := e.drains[kind]
	if !ok {
		e.cfg.Log.Warn("engine: unknown timer kind", slog.String("kind", string(kind)))
		return
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		now := e.cfg.Now()
		d, err := fn(context.WithoutCancel(ctx), store.DueParams{Now: now, Limit: e.cfg.BatchSize})
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
		e.cfg.Metrics.drained(kind, now, d.Due, sweeping)
		// A batch may end short of BatchSize with more due (the store made
		// way for a user), so only Next says whether the drain is done.
		if d.Next.IsZero() || d.Next.After(e.cfg.Now()) {
			if !d.Next.IsZero() {
				e.cfg.Wheel.Add(timer.Key{Kind: string(kind), Due: d.Next})
			}
			err := e.cfg.Store.DeleteTimers(context.WithoutCancel(ctx), store.DeleteTimersParams{Kind: kind, Through: now})
			if err != nil {
				e.logErr("engine: delete timers", err)
			}
			return
		}
	}
}

func (e *Engine) logErr(msg string, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	e.cfg.Log.Error(msg, slog.Any("err", err))
}
