package outbox

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// maxBatchBytes bounds the data of the events a sink is handed at once,
// so that the relay's memory does not grow with large events.
const maxBatchBytes = 4 << 20

// Config sets up a Relay. Store and Now are required.
type Config struct {
	Store Store
	// Sinks are delivered to, each by its own goroutine from its own
	// position. Their names must be distinct.
	Sinks []Named
	// Now is the one clock: dead-letter times and the retention cutoff.
	Now func() time.Time
	Log *slog.Logger
	// Registerer, if set, receives the relay's metrics.
	Registerer prometheus.Registerer
	// Outage, shared with the process's other loops, tells of the
	// database's outages once each (see store.Outage); nil means one of
	// the relay's own, logging to Log.
	Outage *store.Outage
	// BatchSize is how many events a sink is handed at once; 0 means 500.
	// A batch also ends once its events' data reach maxBatchBytes.
	BatchSize int
	// MaxAttempts is how many times an event is tried before it becomes a
	// dead letter; 0 means 10.
	MaxAttempts int
	// BackoffBase and BackoffMax shape the wait after a failed attempt: it
	// doubles from BackoffBase up to BackoffMax, with jitter. 0 means
	// 200ms and 30s: ten attempts then span 40 to 80 seconds.
	BackoffBase, BackoffMax time.Duration
	// Poll is how often an idle sink looks at the feed when Notify has not
	// woken it; 0 means 1s.
	Poll time.Duration
	// Retention is how old an event delivered by every sink must be to be
	// pruned; 0 keeps every event.
	Retention time.Duration
	// PruneInterval is how often pruning runs; 0 means a minute.
	PruneInterval time.Duration
	// PruneBatch is how many outbox records (each the events of one
	// transaction, up to store.MaxRecord) one pruning transaction
	// deletes; 0 means 100.
	PruneBatch int
	// Leads, if set, says whether this instance delivers now: of many
	// instances on one store, one does at a time. While it says no, the
	// sinks idle; when it says yes again, they reload their positions,
	// which another instance may have moved.
	Leads func() bool
}

// Relay delivers the outbox to its sinks, at least once and in feed order.
// Start it once; Stop waits for its goroutines.
type Relay struct {
	cfg     Config
	runners []*runner
	byName  map[string]*runner
	metrics *metrics
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	once    sync.Once
}

// New returns a Relay for cfg.
func New(cfg Config) (*Relay, error) {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 500
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 10
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = 200 * time.Millisecond
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = 30 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.PruneInterval <= 0 {
		cfg.PruneInterval = time.Minute
	}
	if cfg.PruneBatch <= 0 {
		cfg.PruneBatch = 100
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Outage == nil {
		cfg.Outage = store.NewOutage(cfg.Log, nil)
	}
	r := &Relay{cfg: cfg, byName: map[string]*runner{}}
	for _, s := range cfg.Sinks {
		if _, dup := r.byName[s.Name]; dup {
			return nil, fmt.Errorf("relay: two sinks named %q", s.Name)
		}
		run := newRunner(r, s)
		r.runners = append(r.runners, run)
		r.byName[s.Name] = run
	}
	r.metrics = newMetrics(cfg.Registerer, r)
	return r, nil
}

// Start runs a goroutine per sink, and one that prunes if Retention is
// set, until Stop or until ctx is done. It returns at once. A nil Relay
// (a store that keeps no delivery state) has nothing to start.
func (r *Relay) Start(ctx context.Context) error {
	if r == nil {
		return nil
	}
	ctx, r.cancel = context.WithCancel(ctx)
	for _, run := range r.runners {
		r.wg.Go(func() { run.run(ctx) })
	}
	if r.cfg.Retention > 0 {
		r.wg.Go(func() { r.pruneLoop(ctx) })
	}
	return nil
}

// Stop stops every sink's delivery, keeping what was acknowledged, and
// closes the sinks. It is safe to call twice and waits for the relay's
// goroutines. A nil Relay has nothing to stop.
func (r *Relay) Stop() {
	if r == nil {
		return
	}
	r.once.Do(func() {
		if r.cancel != nil {
			r.cancel()
		}
		r.wg.Wait()
		for _, run := range r.runners {
			if err := run.Sink.Close(); err != nil {
				r.cfg.Log.Warn("outbox: close sink", slog.String("sink", run.Name), slog.Any("err", err))
			}
		}
	})
}

// Notify tells idle sinks that events were committed. A nil Relay ignores
// it, so a store hook may call it before the relay exists.
func (r *Relay) Notify() {
	if r == nil {
		return
	}
	for _, run := range r.runners {
		run.poke()
	}
}

// SinkStatus is how one sink is doing.
type SinkStatus struct {
	Name string
	Type string
	storetype.SinkState
	// Failures counts the failed delivery attempts since the relay started.
	Failures int64
	// LastError is the error of the latest attempt, "" if it succeeded.
	LastError string
}

// Status reports every sink, in the order they were configured.
func (r *Relay) Status(ctx context.Context) ([]SinkStatus, error) {
	out := make([]SinkStatus, 0, len(r.runners))
	for _, run := range r.runners {
		st, err := r.cfg.Store.SinkState(ctx, run.Name)
		if err != nil {
			return nil, fmt.Errorf("sink %s: %w", run.Name, err)
		}
		failures, lastErr := run.failures()
		out = append(out, SinkStatus{Name: run.Name, Type: run.Type, SinkState: st, Failures: failures, LastError: lastErr})
	}
	return out, nil
}

// Replay queues the named sink's dead letters for redelivery and wakes the
// sink; it returns how many are queued. idem, if set, is the idempotency
// key it runs under. A name of no sink is store.ErrNotFound.
func (r *Relay) Replay(ctx context.Context, name string, idem *store.Idempotency) (int64, error) {
	run, ok := r.byName[name]
	if !ok {
		return 0, fmt.Errorf("replay sink %q: %w", name, storetype.ErrNotFound)
	}
	n, err := r.cfg.Store.ReplayDeadLetters(ctx, store.ReplayDeadLettersParams{Sink: name, Idem: idem})
	if err != nil {
		return 0, err
	}
	run.replayDue.Store(true)
	run.poke()
	return n, nil
}
