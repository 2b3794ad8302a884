package timer

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const tick = 10 * time.Millisecond

// startWheel starts a wheel of tick width on the bubble's clock and stops it
// when the test ends.
func startWheel(t *testing.T, slots int) *Wheel {
	t.Helper()
	w := NewWheel(tick, slots, time.Now)
	if err := w.Start(t.Context()); err != nil {
		t.Fatalf("Start: got %v, want nil", err)
	}
	t.Cleanup(w.Stop)
	return w
}

// mustAdd adds k and fails the test if the wheel refuses it.
func mustAdd(t *testing.T, w *Wheel, k Key) {
	t.Helper()
	if got, want := w.Add(k), true; got != want {
		t.Fatalf("Add(%v): got %v, want %v", k, got, want)
	}
}

// receive takes n keys from w within limit of fake time, failing the test
// if any arrives before its due instant, and returns each with the instant
// it arrived.
func receive(t *testing.T, w *Wheel, n int, limit time.Duration) map[Key]time.Time {
	t.Helper()
	got := make(map[Key]time.Time, n)
	deadline := time.After(limit)
	for len(got) < n {
		select {
		case k := <-w.C():
			now := time.Now()
			if now.Before(k.Due) {
				t.Fatalf("key %v delivered early: got %v, want >= %v", k, now, k.Due)
			}
			if _, dup := got[k]; dup {
				t.Fatalf("key %v delivered twice", k)
			}
			got[k] = now
		case <-deadline:
			t.Fatalf("keys received after %v: got %d, want %d", limit, len(got), n)
		}
	}
	return got
}

// expectNothing fails the test if any key arrives within d.
func expectNothing(t *testing.T, w *Wheel, d time.Duration) {
	t.Helper()
	select {
	case k := <-w.C():
		t.Fatalf("unexpected key: got %v at %v, want none", k, time.Now())
	case <-time.After(d):
	}
}

// checkOnTime fails the test unless every key in got was one of want and
// arrived at most one tick after its due instant (or, if it was due when
// added at added, on the first tick after that).
func checkOnTime(t *testing.T, want []Key, got map[Key]time.Time, added time.Time) {
	t.Helper()
	for _, k := range want {
		at, ok := got[k]
		if !ok {
			t.Fatalf("key %v not delivered", k)
		}
		if late, limit := at.Sub(k.Due), tick; k.Due.After(added) && late > limit {
			t.Fatalf("key %v late: got %v after due, want <= %v", k, late, limit)
		}
	}
}

func TestFiresOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := startWheel(t, 64)
		start := time.Now()
		var keys []Key
		for _, d := range []time.Duration{
			time.Microsecond, time.Millisecond, 9 * time.Millisecond, tick,
			tick + 1500*time.Microsecond, 15 * time.Millisecond, 99 * time.Millisecond,
			333*time.Millisecond + 333*time.Microsecond, w.Horizon() - time.Millisecond, w.Horizon(),
		} {
			k := Key{"coupon.expire", start.Add(d)}
			mustAdd(t, w, k)
			keys = append(keys, k)
		}
		if got, want := w.Len(), len(keys); got != want {
			t.Fatalf("Len after Add: got %d, want %d", got, want)
		}
		got := receive(t, w, len(keys), w.Horizon()+2*tick)
		checkOnTime(t, keys, got, start)
		if got, want := w.Len(), 0; got != want {
			t.Fatalf("Len after delivery: got %d, want %d", got, want)
		}
		expectNothing(t, w, w.Horizon())
	})
}

func TestManyKeysSameDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := startWheel(t, 64)
		start := time.Now()
		due := start.Add(123 * time.Millisecond)
		var keys []Key
		for i := range bufferSize {
			k := Key{fmt.Sprintf("kind.%d", i), due}
			mustAdd(t, w, k)
			keys = append(keys, k)
		}
		got := receive(t, w, len(keys), time.Second)
		checkOnTime(t, keys, got, start)
		for _, k := range keys {
			if at, want := got[k], got[keys[0]]; !at.Equal(want) {
				t.Fatalf("key %v: got delivery at %v, want %v like the others", k, at, want)
			}
		}
	})
}

func TestHorizon(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := NewWheel(tick, 100, time.Now)
		if got, want := w.Horizon(), time.Second; got != want {
			t.Fatalf("Horizon: got %v, want %v", got, want)
		}
		now := time.Now()
		if got, want := w.Add(Key{"far", now.Add(time.Second + time.Millisecond)}), false; got != want {
			t.Fatalf("Add beyond horizon: got %v, want %v", got, want)
		}
		if got, want := w.Len(), 0; got != want {
			t.Fatalf("Len after refused Add: got %d, want %d", got, want)
		}
		if got, want := w.Add(Key{"edge", now.Add(time.Second)}), true; got != want {
			t.Fatalf("Add at horizon: got %v, want %v", got, want)
		}
		if got, want := w.Len(), 1; got != want {
			t.Fatalf("Len after accepted Add: got %d, want %d", got, want)
		}
	})
}

// TestManyRounds feeds a small wheel keys at its horizon for many turns, so
// every slot holds keys of the current and the next round at once.
func TestManyRounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const slots = 4
		w := startWheel(t, slots)
		const n = 200 // added 7ms apart: 35 turns of the wheel
		keys := make(chan Key, 2*n)
		go func() {
			defer close(keys)
			for i := range n {
				now := time.Now()
				for _, d := range []time.Duration{w.Horizon(), w.Horizon() - time.Duration(i%40+1)*time.Millisecond} {
					k := Key{fmt.Sprintf("k%d", i), now.Add(d)}
					if got, want := w.Add(k), true; got != want {
						t.Errorf("Add(%v): got %v, want %v", k, got, want)
						return
					}
					keys <- k
				}
				time.Sleep(7 * time.Millisecond)
			}
		}()
		got := make(map[Key]time.Time)
		for i := 0; i < 2*n; {
			select {
			case k := <-w.C():
				now := time.Now()
				if now.Before(k.Due) {
					t.Fatalf("key %v delivered early: got %v, want >= %v", k, now, k.Due)
				}
				got[k] = now
				i++
			case <-time.After(time.Second):
				t.Fatalf("keys received: got %d, want %d", len(got), 2*n)
			}
		}
		var want []Key
		for k := range keys {
			want = append(want, k)
		}
		if got, want := len(got), len(want); got != want {
			t.Fatalf("distinct keys received: got %d, want %d", got, want)
		}
		checkOnTime(t, want, got, time.Time{})
	})
}

func TestAlreadyDueFiresOnNextTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		w := startWheel(t, 64)
		mustAdd(t, w, Key{"past", start.Add(-time.Hour)})
		mustAdd(t, w, Key{"now", start})
		got := receive(t, w, 2, time.Second)
		for k, at := range got {
			if got, want := at, start.Add(tick); !got.Equal(want) {
				t.Fatalf("key %v: got delivery at %v, want %v", k, got, want)
			}
		}

		time.Sleep(15 * time.Millisecond) // mid-way through the second tick
		k := Key{"past", time.Now().Add(-time.Millisecond)}
		mustAdd(t, w, k)
		got = receive(t, w, 1, time.Second)
		if got, want := got[k], start.Add(3*tick); !got.Equal(want) {
			t.Fatalf("key %v: got delivery at %v, want %v", k, got, want)
		}
	})
}

func TestDuplicateAddFiresOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := startWheel(t, 64)
		due := time.Now().Add(50 * time.Millisecond)
		k := Key{"coupon.expire", due}
		mustAdd(t, w, k)
		mustAdd(t, w, k)
		mustAdd(t, w, Key{"coupon.expire", due.Add(100 * time.Microsecond)}) // same millisecond
		if got, want := w.Len(), 1; got != want {
			t.Fatalf("Len after duplicate Add: got %d, want %d", got, want)
		}
		other := Key{"coupon.remind", due}
		mustAdd(t, w, other)
		if got, want := w.Len(), 2; got != want {
			t.Fatalf("Len after Add of another kind: got %d, want %d", got, want)
		}
		got := receive(t, w, 2, time.Second)
		if _, ok := got[k]; !ok {
			t.Fatalf("key %v: got not delivered, want delivered", k)
		}
		expectNothing(t, w, w.Horizon())

		// Once delivered, the same key may be scheduled again.
		mustAdd(t, w, k)
		got = receive(t, w, 1, time.Second)
		if _, ok := got[k]; !ok {
			t.Fatalf("key %v re-added: got not delivered, want delivered", k)
		}
	})
}

func TestStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		NewWheel(tick, 8, time.Now).Stop() // never started

		w := NewWheel(tick, 8, time.Now)
		if err := w.Start(t.Context()); err != nil {
			t.Fatalf("Start: got %v, want nil", err)
		}
		if err := w.Start(t.Context()); err == nil {
			t.Fatalf("second Start: got nil, want an error")
		}
		w.Stop()
		w.Stop()
		if _, ok := <-w.C(); ok {
			t.Fatalf("C open after Stop: got open, want closed")
		}

		ctx, cancel := context.WithCancel(t.Context())
		w = NewWheel(tick, 8, time.Now)
		if err := w.Start(ctx); err != nil {
			t.Fatalf("Start: got %v, want nil", err)
		}
		cancel()
		if _, ok := <-w.C(); ok {
			t.Fatalf("C open after cancel: got open, want closed")
		}
		w.Stop()
	})
}

func TestFullChannelLosesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := startWheel(t, 64)
		start := time.Now()
		const n = 5 * bufferSize
		for i := range n {
			mustAdd(t, w, Key{fmt.Sprint(i), start.Add(time.Duration(i%500) * time.Millisecond)})
		}
		time.Sleep(2 * time.Second) // nobody reads
		if got, want := len(w.C()), bufferSize; got != want {
			t.Fatalf("keys buffered in C: got %d, want %d", got, want)
		}
		if got, want := w.Len(), n-bufferSize; got != want {
			t.Fatalf("Len while C is full: got %d, want %d", got, want)
		}
		late := Key{"late", time.Now()}
		mustAdd(t, w, late) // Add must not block on a full C
		got := receive(t, w, n+1, time.Second)
		if _, ok := got[late]; !ok {
			t.Fatalf("key %v: got not delivered, want delivered", late)
		}
		if got, want := w.Len(), 0; got != want {
			t.Fatalf("Len after draining: got %d, want %d", got, want)
		}
	})
}

// TestInjectedClock runs the wheel on a clock that moves only when told to:
// nothing may fire until that clock reaches the due instant, however much
// time passes, and once it is a tick past due the key fires on the next
// turn of the loop.
func TestInjectedClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		clock := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		set := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
		now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }

		w := NewWheel(tick, 64, now)
		if err := w.Start(t.Context()); err != nil {
			t.Fatalf("Start: got %v, want nil", err)
		}
		defer w.Stop()
		k := Key{"coupon.expire", now().Add(55 * time.Millisecond)}
		mustAdd(t, w, k)

		expectNothing(t, w, time.Second)
		set(54 * time.Millisecond)
		expectNothing(t, w, time.Second)
		set(time.Millisecond + tick) // one tick past due
		set0 := time.Now()
		select {
		case got := <-w.C():
			if got != k {
				t.Fatalf("key: got %v, want %v", got, k)
			}
			if waited := time.Since(set0); waited > tick {
				t.Fatalf("delivery after clock reached due: got %v, want <= %v", waited, tick)
			}
		case <-time.After(time.Second):
			t.Fatalf("key %v: got not delivered, want delivered", k)
		}
	})
}

func TestConcurrentAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := startWheel(t, 64)
		start := time.Now()
		const workers, each = 8, 100
		var wg sync.WaitGroup
		for g := range workers {
			wg.Go(func() {
				for i := range each {
					// Every worker adds the same keys, and one of its own.
					w.Add(Key{fmt.Sprint(i), start.Add(time.Duration(i) * time.Millisecond)})
					if i == g {
						w.Add(Key{fmt.Sprint("own", g), start.Add(time.Duration(i) * time.Millisecond)})
					}
				}
			})
		}
		wg.Wait()
		if got, want := w.Len(), each+workers; got != want {
			t.Fatalf("Len: got %d, want %d", got, want)
		}
		receive(t, w, each+workers, time.Second)
		expectNothing(t, w, w.Horizon())
	})
}

// BenchmarkAddDeliver adds 100k keys (25 kinds, 4000 due instants spread
// over the horizon) to a 4096-slot wheel and turns it until all are
// delivered, on a clock stepped by hand.
func BenchmarkAddDeliver(b *testing.B) {
	const n, kinds = 100_000, 25
	origin := time.Unix(0, 0)
	keys := make([]Key, n)
	for i := range keys {
		keys[i] = Key{fmt.Sprint("kind.", i%kinds), origin.Add(time.Duration(i/kinds) * tick)}
	}
	for b.Loop() {
		clock := origin
		w := NewWheel(tick, 4096, func() time.Time { return clock })
		for _, k := range keys {
			w.Add(k)
		}
		for got := 0; got < n; {
			clock = clock.Add(tick)
			w.advance()
			for len(w.c) > 0 {
				<-w.c
				got++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
}
