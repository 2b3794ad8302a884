package engine

import (
	"math"
	"math/rand/v2"
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

// TestPace drives a Pace through a storm: each write that meets a batch
// over budget slows the drains by paceDown, batch first and then share,
// each within budget (even just within) speeds them up by paceUp, and
// they run flat out as soon as no user writes.
func TestPace(t *testing.T) {
	c := &paceClock{t: time.Unix(1e9, 0)}
	p := NewPace(1.5, BatchFirst, c.now)
	p.start(1000, nil)
	want := func(what string, batch int, share float64, reason string) {
		t.Helper()
		if s := p.State(); s.Batch != batch || math.Abs(s.Share-share) > 1e-9 || s.Reason != reason {
			t.Fatalf("%s: batch %d share %g (%s), want %d %g (%s)", what, s.Batch, s.Share, s.Reason, batch, share, reason)
		}
	}

	// A drain before any idle write: nothing to judge by.
	if got := p.begin(1000); got != 1000 {
		t.Fatalf("first batch %d rows, want 1000", got)
	}
	users(p, c, paceReport, 50*time.Millisecond)
	want("no baseline", 1000, 1, paceMeasuring)
	p.end(time.Second, false)

	// An idle baseline: writes of 1 ms, well after the last batch, a short
	// one.
	c.t = c.t.Add(time.Second)
	users(p, c, 100, time.Millisecond)
	want("idle writes", 1000, 1, paceMeasuring)

	// Writes of 5 ms meet each batch: over 1.5 ms, so each cuts the
	// speed by paceDown: the batch down to minPaceBatch, then the share.
	p.begin(1000)
	users(p, c, 1, 5*time.Millisecond)
	want("one write over budget", 750, 1, paceMeasuring)
	users(p, c, 12, 5*time.Millisecond)
	want("13 writes over budget", 24, 1, paceMeasuring) // 0.75^13 = 0.0238
	users(p, c, 3, 5*time.Millisecond)
	speed := math.Pow(paceDown, 16)
	want("16 writes over budget", minPaceBatch, speed/0.02, paceMeasuring)
	if rest := p.end(100*time.Millisecond, true); rest != RestAfter(100*time.Millisecond, speed/0.02) {
		t.Fatalf("rest after a batch at share %g: %s", speed/0.02, rest)
	}
	users(p, c, paceReport-16, 5*time.Millisecond)
	want("at its slowest", minPaceBatch, minPaceShare, paceOver)
	// The felt p99 is of the latest paceFelt writes that met a drain,
	// the 50 ms ones before the baseline too.
	if s := p.State(); s.Idle != time.Millisecond || s.Felt != 50*time.Millisecond {
		t.Fatalf("reported idle %s and felt %s, want 1ms and 50ms", s.Idle, s.Felt)
	}

	// 1.5 ms is just within budget: each such write gives back paceUp,
	// the share first. paceFelt of them make the reported p99 within.
	p.begin(1000)
	speed = minPaceBatch / 1000.0 * minPaceShare
	for range paceFelt {
		users(p, c, 1, 1500*time.Microsecond)
		speed *= paceUp
	}
	want("within budget", minPaceBatch, speed/0.02, paceUnder)
	for range 1500 {
		users(p, c, 1, time.Millisecond)
		speed *= paceUp
	}
	want("well within budget", int(math.Round(speed*1000)), 1, paceUnder)
	p.end(0, true)

	// Right after a full batch, a write counts as meeting the storm, even
	// with no batch in flight: it moves no baseline.
	idle := len(p.idle.d)
	users(p, c, 1, time.Second)
	want("just after a storm's batch", int(math.Round(speed*paceDown*1000)), 1, paceUnder)
	if len(p.idle.d) != idle {
		t.Fatalf("writes right after a full batch grew the baseline from %d to %d writes", idle, len(p.idle.d))
	}

	// No user for over a second: the next batch runs flat out.
	c.t = c.t.Add(2 * paceUsersGone)
	if got := p.begin(1000); got != 1000 {
		t.Fatalf("batch with no users %d rows, want 1000", got)
	}
	want("no users", 1000, 1, paceNoUsers)
}

// TestPaceHoldsTheTail: users whose writes go over budget the more often
// the faster the drains run (one in five flat out, in proportion below)
// hold a Pace at the speed where paceTail of them do, whichever knob it
// turns first: the writes' p99 through a long storm is within budget,
// where a p98 judged 50 writes at a time let 2 % through.
func TestPaceHoldsTheTail(t *testing.T) {
	for _, first := range []Knob{BatchFirst, ShareFirst} {
		c := &paceClock{t: time.Unix(1e9, 0)}
		p := NewPace(1.5, first, c.now)
		p.start(1000, nil)
		users(p, c, 100, time.Millisecond)
		p.begin(1000)
		r := rand.New(rand.NewPCG(1, 2))
		over, n := 0, 200000
		var speeds []float64
		for i := range n {
			d := time.Millisecond
			if r.Float64() < 0.2*p.speed {
				d = 2 * time.Millisecond
			}
			users(p, c, 1, d)
			if i >= n/10 {
				speeds = append(speeds, p.speed)
				if d > time.Millisecond {
					over++
				}
			}
		}
		share := float64(over) / float64(n-n/10)
		slices.Sort(speeds)
		if share < 0.8*paceTail || share > 1.2*paceTail {
			t.Errorf("knob %d: %.4f of the writes over budget, want %.4f ± 20 %%", first, share, paceTail)
		}
		if median := speeds[len(speeds)/2]; median < 0.03 || median > 0.07 {
			t.Errorf("knob %d: median speed %.3f, want about 0.05 (0.2 × speed = paceTail)", first, median)
		}
	}
}

// TestPaceShareFirst: a Pace that turns the share first takes it down to
// minPaceShare before it shortens the batch, and speeding up gives the
// batch back before the share.
func TestPaceShareFirst(t *testing.T) {
	c := &paceClock{t: time.Unix(1e9, 0)}
	p := NewPace(1.5, ShareFirst, c.now)
	p.start(100, nil)
	users(p, c, 100, time.Millisecond) // the idle baseline
	p.begin(100)
	var got []float64
	for _, n := range []int{1, 13, 1, 10} {
		users(p, c, n, 5*time.Millisecond)
		got = append(got, float64(p.batch), math.Round(p.share*1e4)/1e4)
	}
	// 0.75, then 0.75^14 = 0.0178, 0.75^15 = 0.0134 (under 1/64: the
	// batch gives 0.86 of itself), and the least, 20 rows at 1/64.
	want := []float64{100, 0.75, 100, 0.0178, 86, 0.0156, 20, 0.0156}
	if !slices.Equal(got, want) {
		t.Fatalf("over budget: batch and share %v, want %v", got, want)
	}
	for p.share == minPaceShare {
		if p.batch < 20 || p.batch > 100 {
			t.Fatalf("speeding up at the least share: batch %d", p.batch)
		}
		users(p, c, 1, time.Millisecond)
	}
	if p.batch != 100 {
		t.Fatalf("share given back (%g) with the batch at %d, want it whole first", p.share, p.batch)
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
