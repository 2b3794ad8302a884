package engine

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/storetype"
)

// Queue is a delay queue the instances share (delayq/redis, delayq/amqp).
type Queue interface {
	Add(ctx context.Context, items []delayq.Item) error
	Claim(ctx context.Context, shard int, now time.Time, limit int) ([]delayq.Item, error)
	Ack(ctx context.Context, items []delayq.Item) error
}

// Accel accelerates many instances with a shared delay queue: it puts each
// group timer this instance's commits write into the queue, once per
// shard, and the engine claims from the queue the items of the shards it
// holds, drains them, and acknowledges them once drained. Without it an
// instance learns of another's new timers only when it next loads them.
// It is a hint: losing the queue, or what it holds, costs speed, never
// work, for the loader and the sweeper read the store.
type Accel struct {
	q    Queue
	log  *slog.Logger
	ch   chan storetype.Timer
	seen map[storetype.Timer]bool // timers fed already

	mu      sync.Mutex
	pending map[storetype.TimerKind][]delayq.Item // claimed, not yet drained
	failing bool                                  // the last queue call failed
}

// NewAccel returns an Accel over q; the engine it is given to runs it.
func NewAccel(q Queue, log *slog.Logger) *Accel {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Accel{q: q, log: log, ch: make(chan storetype.Timer, 4096), seen: map[storetype.Timer]bool{}, pending: map[storetype.TimerKind][]delayq.Item{}}
}

// Hint is the store hook: it queues a timer a commit wrote for the feed,
// without waiting. A timer that finds the buffer full is left to the
// loader.
func (a *Accel) Hint(tm storetype.Timer) {
	select {
	case a.ch <- tm:
	default:
	}
}

// feed puts hinted timers into the queue, one item per shard, until ctx is
// done. A timer fed once is not fed again while it is remembered.
func (a *Accel) feed(ctx context.Context) {
	for {
		var tm storetype.Timer
		select {
		case <-ctx.Done():
			return
		case tm = <-a.ch:
		}
		if a.seen[tm] {
			continue
		}
		items := make([]delayq.Item, storetype.Shards)
		for s := range items {
			items[s] = delayq.Item{Kind: string(tm.Kind), Shard: s, Due: tm.Due}
		}
		if a.result("add", a.q.Add(ctx, items)) {
			a.remember(tm)
		}
	}
}

// remember records tm as fed, forgetting timers long past once many are
// remembered.
func (a *Accel) remember(tm storetype.Timer) {
	if len(a.seen) >= 4096 {
		for old := range a.seen {
			if old.Due.Before(tm.Due.Add(-time.Minute)) {
				delete(a.seen, old)
			}
		}
	}
	a.seen[tm] = true
}

// result logs a queue failure when the queue starts or stops failing, and
// reports whether err is nil.
func (a *Accel) result(op string, err error) bool {
	a.mu.Lock()
	was := a.failing
	a.failing = err != nil
	a.mu.Unlock()
	switch {
	case err != nil && !was:
		a.log.Warn("engine: delay queue failing; the store's timers and the sweeper carry on", slog.String("op", op), slog.Any("err", err))
	case err == nil && was:
		a.log.Info("engine: delay queue back")
	}
	return err == nil
}

// claim takes the due items of the shards held and returns their kinds.
func (a *Accel) claim(ctx context.Context, held []storetype.Lease, now time.Time) []storetype.TimerKind {
	var kinds []storetype.TimerKind
	for _, l := range held {
		items, err := a.q.Claim(ctx, l.Shard, now, 64)
		if !a.result("claim", err) {
			return kinds
		}
		a.mu.Lock()
		for _, it := range items {
			k := storetype.TimerKind(it.Kind)
			a.pending[k] = append(a.pending[k], it)
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		a.mu.Unlock()
	}
	return kinds
}

// take hands over the claimed items of kind a drain is about to cover;
// none on a nil Accel.
func (a *Accel) take(kind storetype.TimerKind) []delayq.Item {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	items := a.pending[kind]
	delete(a.pending, kind)
	return items
}

// ack acknowledges the items of the shards drained to the end; the others
// stay in flight until their queue lease ends and the holder of their
// shard claims them again.
func (a *Accel) ack(ctx context.Context, items []delayq.Item, drained []int) {
	if a == nil {
		return
	}
	items = slices.DeleteFunc(items, func(it delayq.Item) bool { return !slices.Contains(drained, it.Shard) })
	if len(items) > 0 {
		a.result("ack", a.q.Ack(ctx, items))
	}
}
