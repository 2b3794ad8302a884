package outbox

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// parkedError is the error of an event put in dead letters without an
// attempt, because an earlier event of its subject is one.
const parkedError = "parked: an earlier event of this subject is a dead letter"

// errNothingTaken is a sink's answer of nothing acknowledged and no error,
// taken as a failure so that the relay backs off instead of spinning.
var errNothingTaken = errors.New("sink acknowledged nothing")

// runner delivers the feed to one sink from the sink's own position.
type runner struct {
	Named
	relay     *Relay
	wake      chan struct{}
	replayDue atomic.Bool

	mu      sync.Mutex
	nFailed int64
	lastErr string

	// Owned by the run goroutine.
	pos    int64
	parked map[string]int // subject → dead letters of the sink
}

func newRunner(r *Relay, s Named) *runner {
	return &runner{Named: s, relay: r, wake: make(chan struct{}, 1)}
}

// poke wakes the runner if it is idle.
func (u *runner) poke() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

func (u *runner) failures() (int64, string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.nFailed, u.lastErr
}

func (u *runner) attempted(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if err == nil {
		u.lastErr = ""
		return
	}
	u.nFailed++
	u.lastErr = err.Error()
}

// run delivers until ctx is done, while the instance leads: dead letters
// queued by a replay first, then the feed, a batch at a time.
func (u *runner) run(ctx context.Context) {
	cfg := &u.relay.cfg
	loaded := false
	for ctx.Err() == nil {
		if cfg.Leads != nil && !cfg.Leads() {
			loaded = false
			u.idle(ctx)
			continue
		}
		if !loaded {
			if !u.retry(ctx, "load state", u.load) {
				return
			}
			loaded = true
			u.replayDue.Store(true) // a replay asked for before a restart
		}
		if u.replayDue.Swap(false) {
			if !u.retry(ctx, "replay", u.replay) {
				return
			}
			continue
		}
		evs, err := cfg.Store.Events(ctx, store.EventsParams{After: u.pos, Limit: cfg.BatchSize, MaxBytes: maxBatchBytes})
		if err == nil {
			cfg.Outage.Served()
		}
		switch {
		case err != nil:
			u.logErr("outbox: read feed", err)
			u.idle(ctx)
		case len(evs) == 0:
			u.idle(ctx)
		default:
			u.deliver(ctx, evs, u.isParked, u.park, u.advance)
		}
	}
}

// load reads the sink's position and which subjects it holds dead letters
// of.
func (u *runner) load(ctx context.Context) error {
	st, err := u.relay.cfg.Store.SinkState(ctx, u.Name)
	if err != nil {
		return err
	}
	u.pos = st.Position
	u.parked = map[string]int{}
	after := int64(0)
	for {
		ls, err := u.relay.cfg.Store.DeadLetters(ctx, storetype.DeadLettersParams{Sink: u.Name, After: after, Limit: 1000})
		if err != nil || len(ls) == 0 {
			return err
		}
		for _, l := range ls {
			u.parked[l.Event.Subject]++
		}
		after = ls[len(ls)-1].Event.Seq
	}
}

// replay delivers the sink's queued dead letters in feed order. A letter
// that fails again stays a dead letter, and so, untried, do the later
// letters of its subject, so that a subject's events still arrive in
// order.
func (u *runner) replay(ctx context.Context) error {
	failed := map[string]bool{}
	blocked := func(subject string) bool { return failed[subject] }
	fail := func(subject string) { failed[subject] = true }
	after := int64(0)
	for {
		ls, err := u.relay.cfg.Store.DeadLetters(ctx, storetype.DeadLettersParams{Sink: u.Name, QueuedOnly: true, After: after, Limit: u.relay.cfg.BatchSize})
		if err != nil {
			return err
		}
		if len(ls) == 0 {
			break
		}
		evs := make([]storetype.Event, len(ls))
		for i, l := range ls {
			evs[i] = l.Event
		}
		if !u.deliver(ctx, evs, blocked, fail, u.replayed) {
			return ctx.Err()
		}
		after = evs[len(evs)-1].Seq
	}
	return u.load(ctx)
}

func (u *runner) isParked(subject string) bool { return u.parked[subject] > 0 }

func (u *runner) park(subject string) { u.parked[subject]++ }

// advance moves the position past settled, storing its dead letters.
func (u *runner) advance(ctx context.Context, settled []storetype.Event, dead []storetype.DeadLetter) error {
	pos := settled[len(settled)-1].Seq
	err := u.relay.cfg.Store.AdvanceSink(ctx, storetype.AdvanceSinkParams{Sink: u.Name, Position: pos, Dead: dead})
	if err == nil {
		u.pos = pos
	}
	return err
}

// replayed removes the delivered letters among settled and stores the
// others again.
func (u *runner) replayed(ctx context.Context, settled []storetype.Event, dead []storetype.DeadLetter) error {
	isDead := map[int64]bool{}
	for _, d := range dead {
		isDead[d.Event.Seq] = true
	}
	var delivered []int64
	for _, e := range settled {
		if !isDead[e.Seq] {
			delivered = append(delivered, e.Seq)
		}
	}
	return u.relay.cfg.Store.AdvanceSink(ctx, storetype.AdvanceSinkParams{Sink: u.Name, Replayed: delivered, Dead: dead})
}

// deliver hands evs to the sink in order until each is delivered or a
// dead letter, and stores the outcome with settle after every call to the
// sink. The first event not acknowledged is retried alone, with backoff;
// after MaxAttempts it becomes a dead letter, fail is told its subject,
// and delivery goes on. An event whose subject is blocked becomes a dead
// letter without an attempt. It returns false if ctx ended first.
func (u *runner) deliver(ctx context.Context, evs []storetype.Event, blocked func(string) bool, fail func(string),
	settle func(context.Context, []storetype.Event, []storetype.DeadLetter) error) bool {
	cfg := &u.relay.cfg
	i, attempt, limit := 0, 0, len(evs)
	for i < len(evs) {
		start := i
		var dead []storetype.DeadLetter
		for i < len(evs) && blocked(evs[i].Subject) {
			dead = append(dead, u.letter(evs[i], 0, parkedError))
			fail(evs[i].Subject)
			i++
		}
		j := i
		for j < len(evs) && j-i < limit && !blocked(evs[j].Subject) {
			j++
		}
		var err error
		if j > i {
			var n int
			n, err = u.Sink.Deliver(ctx, evs[i:j])
			if n == 0 && err == nil {
				err = errNothingTaken
			}
			u.relay.metrics.delivered(u.Name, n)
			i += n
			if n > 0 || err == nil {
				attempt, limit = 0, len(evs)
			}
			if err != nil && ctx.Err() == nil {
				attempt++
				limit = 1
				u.attempted(err)
				u.relay.metrics.failed(u.Name)
				u.relay.cfg.Log.Warn("outbox: delivery failed", slog.String("sink", u.Name),
					slog.String("event", evs[i].ID), slog.Int("attempt", attempt), slog.Any("err", err))
				if attempt >= cfg.MaxAttempts {
					dead = append(dead, u.letter(evs[i], attempt, err.Error()))
					fail(evs[i].Subject)
					u.relay.cfg.Log.Error("outbox: dead letter", slog.String("sink", u.Name), slog.String("event", evs[i].ID),
						slog.String("subject", evs[i].Subject), slog.Int("attempts", attempt), slog.Any("err", err))
					i++
					attempt = 0
				}
			} else if err == nil {
				u.attempted(nil)
			}
		}
		if i > start && !u.settle(ctx, settle, evs[start:i], dead) {
			return false
		}
		if ctx.Err() != nil {
			return false
		}
		if attempt > 0 && !sleep(ctx, backoff(cfg.BackoffBase, cfg.BackoffMax, attempt)) {
			return false
		}
	}
	return true
}

// settle stores an outcome, retrying until the store takes it: a dead
// letter must not be passed over unrecorded. It gives up only when ctx
// ends, and then the events are delivered again after a restart.
func (u *runner) settle(ctx context.Context, settle func(context.Context, []storetype.Event, []storetype.DeadLetter) error,
	settled []storetype.Event, dead []storetype.DeadLetter) bool {
	ok := u.retry(ctx, "save progress", func(ctx context.Context) error {
		return settle(context.WithoutCancel(ctx), settled, dead)
	})
	if ok {
		u.relay.metrics.deadLettered(u.Name, len(dead))
	}
	return ok
}

// retry runs fn until it succeeds, backing off between failures; it
// returns false if ctx ended first.
func (u *runner) retry(ctx context.Context, what string, fn func(context.Context) error) bool {
	cfg := &u.relay.cfg
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		u.logErr("outbox: "+what, err)
		if !sleep(ctx, backoff(cfg.BackoffBase, cfg.BackoffMax, attempt)) {
			return false
		}
	}
}

func (u *runner) letter(e storetype.Event, attempts int, reason string) storetype.DeadLetter {
	return storetype.DeadLetter{Event: e, Attempts: attempts, Error: reason, FailedAt: u.relay.cfg.Now()}
}

// idle waits for a poke, the poll interval or the end of ctx.
func (u *runner) idle(ctx context.Context) {
	t := time.NewTimer(u.relay.cfg.Poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-u.wake:
	case <-t.C:
	}
}

// logErr logs err of a call to the store, unless it is context.Canceled
// or an outage, which the Outage tells of once.
func (u *runner) logErr(msg string, err error) {
	if errors.Is(err, context.Canceled) || u.relay.cfg.Outage.Failed(err) {
		return
	}
	u.relay.cfg.Log.Error(msg, slog.String("sink", u.Name), slog.Any("err", err))
}

// sleep waits d or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
