package timer

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Key names one durable group timer: a kind (e.g. "coupon.expire") and its due instant.
type Key struct {
	Kind string
	Due  time.Time
}

// bufferSize is the capacity of the delivery channel.
const bufferSize = 1024

// id is a Key's identity for deduplication: two Keys with the same kind and
// the same due millisecond are one timer.
type id struct {
	kind string
	ms   int64
}

// entry is a held key and the number of the tick at which it falls due.
type entry struct {
	key  Key
	tick int64
}

// Wheel is a hashed timing wheel of slots slots, each covering one tick.
// Tick n is the instant origin+n*tick; a key due at D belongs to the first
// tick at or after D and sits in slot tick%slots, tagged with that tick
// number so that keys of later rounds in the same slot wait their turn.
// A background goroutine visits the slots one tick at a time and sends the
// keys that are due on C.
type Wheel struct {
	tick   time.Duration
	now    func() time.Time
	origin time.Time
	c      chan Key

	mu      sync.Mutex
	buckets [][]entry
	index   map[id]struct{} // every key held, in a bucket or in ready
	ready   []Key           // due keys waiting for room on c, oldest first
	cursor  int64           // last tick processed
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewWheel returns a stopped wheel of slots slots of width tick that reads
// the time from now (time.Now if nil). It panics if tick or slots is not
// positive.
func NewWheel(tick time.Duration, slots int, now func() time.Time) *Wheel {
	if tick <= 0 || slots <= 0 {
		panic("timer: NewWheel needs a positive tick and slot count")
	}
	if now == nil {
		now = time.Now
	}
	return &Wheel{
		tick:    tick,
		now:     now,
		origin:  now(),
		c:       make(chan Key, bufferSize),
		buckets: make([][]entry, slots),
		index:   make(map[id]struct{}),
	}
}

// Horizon returns tick*slots: how far ahead the wheel accepts keys.
func (w *Wheel) Horizon() time.Duration {
	return w.tick * time.Duration(len(w.buckets))
}

// Add schedules k. It reports false (and keeps nothing) when k.Due is beyond
// now+Horizon (a loader will offer it again later). Adding the same Key twice
// keeps one entry and reports true. A key already due (Due <= now) fires on
// the next tick. Safe for concurrent use.
func (w *Wheel) Add(k Key) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if k.Due.After(w.now().Add(w.Horizon())) {
		return false
	}
	kid := id{k.Kind, k.Due.UnixMilli()}
	if _, ok := w.index[kid]; ok {
		return true
	}
	w.index[kid] = struct{}{}
	w.place(k, max(w.ceilTick(k.Due), w.cursor+1))
	return true
}

// Len is the number of keys held, including due keys not yet taken by C.
func (w *Wheel) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.index)
}

// C delivers keys as they fall due; never before k.Due on the wheel's clock.
// It is closed when the wheel stops.
func (w *Wheel) C() <-chan Key {
	return w.c
}

// Start runs the wheel until Stop or until ctx is done; it returns at once.
// It fails if the wheel was already started.
func (w *Wheel) Start(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil {
		return errors.New("timer: wheel already started")
	}
	ctx, w.cancel = context.WithCancel(ctx)
	w.done = make(chan struct{})
	go w.run(ctx)
	return nil
}

// Stop stops the wheel and waits for its goroutine to exit. It is safe to
// call more than once, and before Start.
func (w *Wheel) Stop() {
	w.mu.Lock()
	cancel, done := w.cancel, w.done
	w.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

func (w *Wheel) run(ctx context.Context) {
	defer close(w.done)
	defer close(w.c)
	t := time.NewTimer(w.untilNextTick())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.advance()
		t.Reset(w.untilNextTick())
	}
}

// untilNextTick is the wait until the tick after the cursor, kept within
// [tick/16, tick] so that a clock that jumps or stalls neither spins the
// loop nor stops retries of a full channel.
func (w *Wheel) untilNextTick() time.Duration {
	w.mu.Lock()
	next := w.origin.Add(time.Duration(w.cursor+1) * w.tick)
	w.mu.Unlock()
	return min(max(next.Sub(w.now()), w.tick/16), w.tick)
}

// advance retries the keys waiting for room on c, then visits every slot
// from the cursor up to the current tick (at most one full turn when the
// wheel fell behind) and delivers the keys due by now.
func (w *Wheel) advance() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	w.retry()
	target := w.floorTick(now)
	steps := min(target-w.cursor, int64(len(w.buckets)))
	var late []Key
	for n := w.cursor + 1; n <= w.cursor+steps; n++ {
		i := n % int64(len(w.buckets))
		keep := w.buckets[i][:0]
		for _, e := range w.buckets[i] {
			switch {
			case e.tick > target: // a later round
				keep = append(keep, e)
			case e.key.Due.After(now): // only if the clock went back
				late = append(late, e.key)
			default:
				w.deliver(e.key)
			}
		}
		clear(w.buckets[i][len(keep):])
		if len(keep) == 0 {
			keep = nil
		}
		w.buckets[i] = keep
	}
	if target > w.cursor {
		w.cursor = target
	}
	for _, k := range late {
		w.place(k, w.cursor+1)
	}
}

// deliver sends k on c without blocking, or queues it in ready behind the
// keys already waiting there.
func (w *Wheel) deliver(k Key) {
	if len(w.ready) == 0 {
		select {
		case w.c <- k:
			delete(w.index, id{k.Kind, k.Due.UnixMilli()})
			return
		default:
		}
	}
	w.ready = append(w.ready, k)
}

// retry sends as many waiting keys as c has room for, oldest first.
func (w *Wheel) retry() {
	sent := 0
	for _, k := range w.ready {
		select {
		case w.c <- k:
			delete(w.index, id{k.Kind, k.Due.UnixMilli()})
			sent++
			continue
		default:
		}
		break
	}
	n := copy(w.ready, w.ready[sent:])
	clear(w.ready[n:])
	w.ready = w.ready[:n]
	if n == 0 {
		w.ready = nil
	}
}

// place puts k in the slot of tick n.
func (w *Wheel) place(k Key, n int64) {
	i := n % int64(len(w.buckets))
	w.buckets[i] = append(w.buckets[i], entry{k, n})
}

// ceilTick is the number of the first tick at or after t.
func (w *Wheel) ceilTick(t time.Time) int64 {
	d := t.Sub(w.origin)
	n := int64(d / w.tick)
	if d%w.tick > 0 {
		n++
	}
	return n
}

// floorTick is the number of the last tick at or before t.
func (w *Wheel) floorTick(t time.Time) int64 {
	d := t.Sub(w.origin)
	n := int64(d / w.tick)
	if d%w.tick < 0 {
		n--
	}
	return n
}
