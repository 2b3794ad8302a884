package engine

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/internal/quantile"
)

// Pace shapes the drains to what users feel. It hears how long each
// user's write took (Observe, which store.Hooks.OnUserWrite calls), keeps
// the p99 of those that met no storm as the idle baseline, and holds the
// p99 of the writes that meet one within budget × that baseline: each
// write over budget slows the drains by paceDown, and each within speeds
// them up by paceUp, a step so small that the two cancel where paceTail
// of the writes are over budget. So it tracks the p99 itself. An earlier
// Pace judged the p98 of 50 writes at a time and settled where one
// judgement in four was over budget; a storm's p99 over all its writes
// came out above what most judgements saw (PostgreSQL 100 k, two runs of
// each: users' p99 18.7 and 24.8 ms at 5.5 and 15.9 k/s, 1.9 and 2.1 ×
// idle; tracking the p99, 11.6 and 11.3 ms at 1.4 and 3.2 k/s).
//
// Its speed turns two knobs, one after the other: the drains' batch
// (down to minPaceBatch) and the share of their time they spend in
// batches (down to minPaceShare), resting between batches for the rest.
// Which first is the Pace's Knob: on SQLite users wait for the one writer
// behind the batch in flight, so a shorter batch is a shorter wait; on
// PostgreSQL and MySQL they wait for the CPU and I/O the drains take,
// which only a smaller share gives back (users' p99 on PostgreSQL was
// 2.1-2.3 × idle at batches of 50 and 1000 alike). With no user writing,
// the drains run flat out; a storm that meets users flat out starts slow
// (its first full batch cuts the speed by paceStartCut) and speeds up
// from there.
//
// A write meets the drains while a batch is in flight, within paceQuiet
// of the last batch or within paceCalm of the last full one (a storm's:
// more was due than it took). So the writes between the short batches
// of a steady trickle (the expiry of a busy day) make the baseline, and
// so do those late in a slowed storm's long rests (at a 64th of the
// time a 20 ms batch rests 1.26 s): the baseline follows what the store
// gives users between a storm's batches. Holding it through the rests
// at what it was before the storm was tried: the store stays slower
// through a storm than before it, between batches too, and the pace sat
// at its least speed (a 200 k storm on MariaDB drained at about 220
// coupons/s where this pace drained 4.1 k/s).
//
// A Pace hears the users of its own process only: with many instances,
// each paces its drains by what its own users feel.
type Pace struct {
	budget float64
	first  Knob
	now    func() time.Time
	max    int // the engine's batch size: the pace's full speed

	mu         sync.Mutex
	speed      float64 // 1: flat out, down to the least batch at the least share
	batch      int
	share      float64
	draining   int       // batches in flight
	lastEnd    time.Time // when the last batch ended
	lastFull   time.Time // when the last full batch ended
	lastUser   time.Time // when the last user write ended
	idle       ring      // writes that met no drain
	fresh      bool      // idle has grown since idleP99 was taken
	felt       ring      // the latest writes that met one
	unreported int       // writes that met one since the last report
	reason     string
	metrics    *Metrics
	// idleP99 is the baseline the writes are judged by; feltP99 the p99
	// of felt at the last report.
	idleP99, feltP99 time.Duration
}

// Pace's reasons for its current speed, the label of lapse_drain_pace.
const (
	paceNoUsers   = "no_users"    // no user wrote within paceUsersGone: flat out
	paceMeasuring = "measuring"   // too few idle writes to judge by yet
	paceStarting  = "starting"    // a storm met users: started slow
	paceOver      = "over_budget" // the latest writes' p99 is over budget
	paceUnder     = "under_budget"
)

var paceReasons = []string{paceNoUsers, paceMeasuring, paceStarting, paceOver, paceUnder}

const (
	// minPaceBatch and minPaceShare are how far a Pace slows the drains.
	minPaceBatch = 20
	minPaceShare = 1.0 / 64
	// paceTail is the share of the writes that meet the drains a Pace
	// lets go over budget: a p99's. (Half of it, tried, held a 100 k
	// storm on PostgreSQL at the least speed, 150 coupons/s, for 11
	// minutes: the writes' own tail over minutes took it all.)
	paceTail = 0.01
	// paceDown is how much one write over budget slows the drains.
	paceDown = 0.75
	// paceReport is how many writes that met a drain a Pace hears between
	// reports of its reason and of the p99 of the latest paceFelt of them.
	paceReport = 50
	paceFelt   = 500
	// paceIdleWrites is how many of the latest idle writes make the
	// baseline, and paceIdleMin how many it needs.
	paceIdleWrites = 500
	paceIdleMin    = 50
	// paceQuiet is how long after a batch, and paceCalm after a full one,
	// a write still counts as having met the drains.
	paceQuiet = 100 * time.Millisecond
	paceCalm  = time.Second
	// paceUsersGone is how long without a user write makes a Pace run the
	// drains flat out.
	paceUsersGone = time.Second
	// paceStartCut is how much slower than flat out a storm that meets
	// users starts.
	paceStartCut = 8
)

// paceUp is how much one write within budget speeds the drains up: with
// paceTail of the writes over budget, the steps cancel.
var paceUp = math.Pow(1/paceDown, paceTail/(1-paceTail))

// Knob is what a Pace turns first to slow the drains.
type Knob int

const (
	// BatchFirst shortens the batches first: for a store whose users
	// wait for one writer (SQLite).
	BatchFirst Knob = iota
	// ShareFirst rests longer between batches first: for a store whose
	// users and drains share CPU and I/O (PostgreSQL, MySQL).
	ShareFirst
)

// NewPace returns a Pace holding users' write p99 within budget × idle
// (budget > 1), turning first the knob first, measured on the clock now
// (the real one, not the engine's replayable clock).
func NewPace(budget float64, first Knob, now func() time.Time) *Pace {
	return &Pace{budget: budget, first: first, now: now, speed: 1, share: 1, reason: paceNoUsers}
}

// start binds p to the engine's batch size and metrics; a nil p stays nil.
func (p *Pace) start(batch int, m *Metrics) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.max, p.batch, p.metrics = batch, batch, m
	p.metrics.pace(p.batch, p.share, p.reason)
}

// Observe records one user's write that took d and ended now.
func (p *Pace) Observe(d time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	end := p.now()
	p.lastUser = end
	if start := end.Add(-d); p.draining == 0 && start.Sub(p.lastEnd) > paceQuiet && start.Sub(p.lastFull) > paceCalm {
		p.idle.add(d, paceIdleWrites)
		p.fresh = true
		return
	}
	p.felt.add(d, paceFelt)
	p.unreported++
	report := p.unreported >= paceReport
	if report {
		p.unreported = 0
	}
	if len(p.idle.d) < paceIdleMin {
		if report {
			p.set(p.speed, paceMeasuring, true)
		}
		return
	}
	if p.fresh {
		p.idleP99, p.fresh = p.idle.quantile(0.99), false
	}
	limit := time.Duration(p.budget * float64(p.idleP99))
	step := paceUp
	if d > limit {
		step = paceDown
	}
	reason := p.reason
	if report {
		p.feltP99 = p.felt.quantile(0.99)
		p.metrics.paceJudged(p.idleP99, p.feltP99)
		reason = paceUnder
		if p.feltP99 > limit {
			reason = paceOver
		}
	}
	p.set(p.speed*step, reason, report)
}

// set moves to speed v, kept between the least batch at the least share
// and 1, for reason: the first knob takes v down to its least, the other
// the rest. It tells the metrics if publish: at a report or a new start,
// not on every write a user makes.
func (p *Pace) set(v float64, reason string, publish bool) {
	least := min(1, float64(minPaceBatch)/float64(p.max)) // the least batch, of the whole
	p.speed = min(max(v, least*minPaceShare), 1)
	if p.first == BatchFirst {
		b := max(p.speed, least)
		p.batch, p.share = max(int(math.Round(b*float64(p.max))), min(minPaceBatch, p.max)), max(p.speed/b, minPaceShare)
	} else {
		s := max(p.speed, minPaceShare)
		p.batch, p.share = max(int(math.Round(p.speed/s*float64(p.max))), min(minPaceBatch, p.max)), s
	}
	p.reason = reason
	if publish {
		p.metrics.pace(p.batch, p.share, reason)
	}
}

// PaceState is a Pace's speed at one moment, and why.
type PaceState struct {
	// Batch is the rows a drain's batch may take, Share the share of
	// their time the drains may spend in batches.
	Batch  int
	Share  float64
	Reason string
	// Idle and Felt are the users' write p99 at the last report: of
	// the writes that met no drain, and of the latest paceFelt that met
	// one (0 before the first).
	Idle, Felt time.Duration
}

// State returns p's speed now, and why.
func (p *Pace) State() PaceState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PaceState{Batch: p.batch, Share: p.share, Reason: p.reason, Idle: p.idleP99, Felt: p.feltP99}
}

// begin starts a batch and returns its size: limit, or less while users
// feel the drains.
func (p *Pace) begin(limit int) int {
	if p == nil {
		return limit
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draining++
	if p.now().Sub(p.lastUser) > paceUsersGone && p.speed < 1 {
		p.set(1, paceNoUsers, true)
	}
	return min(limit, p.batch)
}

// end ends a batch that took d, full if more was due than it took, and
// returns how long to rest before the next, as the pace's share asks.
func (p *Pace) end(d time.Duration, full bool) time.Duration {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draining--
	p.lastEnd = p.now()
	if full {
		if p.lastEnd.Sub(p.lastFull) > paceCalm && p.lastEnd.Sub(p.lastUser) <= paceUsersGone && p.speed == 1 {
			p.startStorm()
		}
		p.lastFull = p.lastEnd
	}
	return RestAfter(d, p.share)
}

// startStorm slows a storm that met users flat out to its start,
// paceStartCut slower, from where writes within budget speed it up
// again. Flat out, the drains held users over budget until they were
// slowed, and those writes were the storm's p99 (a 300 k storm on
// SQLite: 3.7-7.5 ms in its first half second, 1.5-3 ms once slowed,
// idle 2.3 ms).
func (p *Pace) startStorm() {
	p.set(1.0/paceStartCut, paceStarting, true)
}

// ring holds the latest durations, up to a cap.
type ring struct {
	d    []time.Duration
	next int
}

// add records d, over the oldest once n are held.
func (r *ring) add(d time.Duration, n int) {
	if len(r.d) < n {
		r.d = append(r.d, d)
		return
	}
	r.d[r.next] = d
	r.next = (r.next + 1) % n
}

// quantile returns the q-quantile of the durations held (nearest rank).
func (r *ring) quantile(q float64) time.Duration {
	s := slices.Clone(r.d)
	slices.Sort(s)
	return quantile.Of(s, q)
}
