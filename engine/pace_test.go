package engine

import (
	"slices"
	"testing"
	"time"
)

// paceClock is a Pace's clock the test moves.
type paceClock struct{ t time.Time }

func (c *paceClock) now() time.Time { return c.t }

// users records n user writes of d each, a millisecond apart.
func users(p *Pace, c *paceClock, n int, d time.Duration) {
	for range n {
		c.t = c.t.Add(time.Millisecond)
		p.Observe(d)
	}
}

// TestPace drives a Pace through a storm: it slows the drains step by
// step while the writes that meet a batch are over budget, batch first and
// then share, speeds back up while they are within it, even just within,
// and runs flat out as soon as no user writes.
func TestPace(t *testing.T) {
	c := &paceClock{t: time.Unix(1e9, 0)}
	p := NewPace(1.5, BatchFirst, c.now)
	p.start(1000, nil)
	want := func(what string, batch int, share float64, reason string) {
		t.Helper()
		if s := p.State(); s.Batch != batch || s.Share != share || s.Reason != reason {
			t.Fatalf("%s: batch %d share %g (%s), want %d %g (%s)", what, s.Batch, s.Share, s.Reason, batch, share, reason)
		}
	}

	// A drain before any idle write: nothing to judge by.
	if got := p.begin(1000); got != 1000 {
		t.Fatalf("first batch %d rows, want 1000", got)
	}
	users(p, c, paceJudge, 50*time.Millisecond)
	want("no baseline", 1000, 1, paceMeasuring)
	p.end(time.Second, false)

	// An idle baseline: writes of 1 ms, well after the last batch, a short
	// one.
	c.t = c.t.Add(time.Second)
	users(p, c, 100, time.Millisecond)
	want("idle writes", 1000, 1, paceMeasuring)

	// Writes of 5 ms meet each batch: over 1.5 ms, so each judgement
	// halves the batch, down to minPaceBatch, then the share.
	batches := []int{500, 250, 125, 62, 31, 20, 20, 20}
	shares := []float64{1, 1, 1, 1, 1, 1, 0.5, 0.25}
	for i := range batches {
		n := p.begin(1000)
		users(p, c, paceJudge, 5*time.Millisecond)
		want("over budget", batches[i], shares[i], paceOver)
		if rest := p.end(100*time.Millisecond, true); rest != time.Duration(float64(100*time.Millisecond)*(1-shares[i])/shares[i]) {
			t.Fatalf("rest after a batch at share %g: %s", shares[i], rest)
		}
		if i > 0 && n != batches[i-1] {
			t.Fatalf("batch %d ran %d rows, want %d", i, n, batches[i-1])
		}
	}

	if s := p.State(); s.Idle != time.Millisecond || s.Felt != 5*time.Millisecond {
		t.Fatalf("judged by idle %s and felt %s, want 1ms and 5ms", s.Idle, s.Felt)
	}

	// 1.5 ms is just within budget: each judgement gives back a quarter
	// of a step, share first.
	p.begin(1000)
	for share := 0.25; share < 1; {
		share = min(share*paceRise, 1)
		users(p, c, paceJudge, 1500*time.Microsecond)
		want("within budget", 20, share, paceUnder)
	}
	users(p, c, paceJudge, time.Millisecond)
	want("under budget", 25, 1, paceUnder)
	p.end(0, true)

	// Right after a full batch, a write counts as meeting the storm, even
	// with no batch in flight: it moves no baseline.
	idle := len(p.idle.d)
	users(p, c, paceJudge, time.Second)
	want("just after a storm's batch", 20, 1, paceOver)
	if len(p.idle.d) != idle {
		t.Fatalf("writes right after a full batch grew the baseline from %d to %d writes", idle, len(p.idle.d))
	}
	p.set(25, 1, paceUnder)

	// One lone slow write among the judged (the 98th percentile is the
	// second slowest) does not slow the drains.
	c.t = c.t.Add(time.Second)
	p.begin(1000)
	users(p, c, paceJudge-1, time.Millisecond)
	users(p, c, 1, time.Second)
	want("one outlier", 31, 1, paceUnder)

	// No user for over a second: the next batch runs flat out.
	p.set(20, 0.25, paceOver)
	p.end(0, true)
	c.t = c.t.Add(2 * paceUsersGone)
	if got := p.begin(1000); got != 1000 {
		t.Fatalf("batch with no users %d rows, want 1000", got)
	}
	want("no users", 1000, 1, paceNoUsers)
}

// TestPaceShareFirst: a Pace that turns the share first halves it down to
// minPaceShare before it shortens the batch, and speeding up gives the
// batch back before the share.
func TestPaceShareFirst(t *testing.T) {
	c := &paceClock{t: time.Unix(1e9, 0)}
	p := NewPace(1.5, ShareFirst, c.now)
	p.start(100, nil)
	users(p, c, 100, time.Millisecond) // the idle baseline
	p.begin(100)
	var got []float64
	for range 9 {
		users(p, c, paceJudge, 5*time.Millisecond)
		got = append(got, float64(p.batch), p.share)
	}
	want := []float64{100, 0.5, 100, 0.25, 100, 0.125, 100, 0.0625, 100, 0.03125, 100, minPaceShare, 50, minPaceShare, 25, minPaceShare, 20, minPaceShare}
	if !slices.Equal(got, want) {
		t.Fatalf("over budget: batch and share %v, want %v", got, want)
	}
	got = got[:0]
	for range 6 {
		users(p, c, paceJudge, time.Millisecond)
		got = append(got, float64(p.batch), p.share)
	}
	want = []float64{25, minPaceShare, 31, minPaceShare, 38, minPaceShare, 47, minPaceShare, 58, minPaceShare, 72, minPaceShare}
	if !slices.Equal(got, want) {
		t.Fatalf("within budget: batch and share %v, want %v", got, want)
	}
	for p.batch < 100 {
		users(p, c, paceJudge, time.Millisecond)
	}
	users(p, c, paceJudge, time.Millisecond)
	if p.share != minPaceShare*paceRise {
		t.Fatalf("with the batch whole again: share %g, want it given back next, %g", p.share, minPaceShare*paceRise)
	}
}

// TestPaceNil: a nil Pace paces nothing.
func TestPaceNil(t *testing.T) {
	var p *Pace
	p.start(1000, nil)
	p.Observe(time.Second)
	if got := p.begin(700); got != 700 {
		t.Fatalf("nil pace batch %d, want 700", got)
	}
	if got := p.end(time.Second, true); got != 0 {
		t.Fatalf("nil pace rest %s, want 0", got)
	}
}

// TestPaceStormStart: the first full batch of a storm that meets users
// slows the drains to their start, a cut of paceStartCut on the first
// knob; a batch that was not full, one within a storm, or one no user
// meets leaves the pace flat out.
func TestPaceStormStart(t *testing.T) {
	for _, c := range []struct {
		name        string
		first       Knob
		full        bool
		since       time.Duration // since the last full batch
		usersWrote  bool
		batch       int
		share       float64
		wantStarted bool
	}{
		{"batch first", BatchFirst, true, 2 * paceCalm, true, 1000 / paceStartCut, 1, true},
		{"share first", ShareFirst, true, 2 * paceCalm, true, 1000, 1.0 / paceStartCut, true},
		{"a trickle's batch", BatchFirst, false, 2 * paceCalm, true, 1000, 1, false},
		{"within a storm", BatchFirst, true, paceCalm / 2, true, 1000, 1, false},
		{"no users", BatchFirst, true, 2 * paceCalm, false, 1000, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &paceClock{t: time.Unix(1e9, 0)}
			p := NewPace(1.5, c.first, clk.now)
			p.start(1000, nil)
			p.begin(1000)
			p.end(time.Millisecond, true)
			clk.t = clk.t.Add(c.since - time.Millisecond)
			if c.usersWrote {
				p.Observe(time.Millisecond)
			}
			clk.t = clk.t.Add(time.Millisecond)
			p.begin(1000)
			rest := p.end(10*time.Millisecond, c.full)
			s := p.State()
			if s.Batch != c.batch || s.Share != c.share || (s.Reason == paceStarting) != c.wantStarted {
				t.Fatalf("batch %d share %g (%s), want %d %g (started %v)", s.Batch, s.Share, s.Reason, c.batch, c.share, c.wantStarted)
			}
			if want := RestAfter(10*time.Millisecond, c.share); rest != want {
				t.Fatalf("rest %s, want %s", rest, want)
			}
		})
	}
}
