package engine

import (
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/internal/quantile"
)

// Pace shapes the drains to what users feel. It hears how long each
// user's write took (Observe, which store.Hooks.OnUserWrite calls), keeps
// the p99 of those that met no storm as the idle baseline, and judges the
// writes that met one: while their p99 is over budget × the baseline, each
// judgement halves one of two knobs, and once that is at its least the
// other: the drains' batch (down to minPaceBatch) and the share of their
// time they spend in batches (down to minPaceShare), resting between
// batches for the rest. Which first is the Pace's Knob: on SQLite users
// wait for the one writer behind the batch in flight, so a shorter batch
// is a shorter wait; on PostgreSQL and MySQL they wait for the CPU and
// I/O the drains take, which only a smaller share gives back (users' p99
// on PostgreSQL was 2.1-2.3 × idle at batches of 50 and 1000 alike).
// While users are within budget, each judgement gives back a quarter of
// a step, the last knob turned first. With no user writing, the drains
// run flat out; a storm that meets users flat out starts slow (its first
// full batch cuts the first knob by paceStartCut) and speeds up from
// there.
//
// It speeds up on every judgement within budget, not only on those well
// under it: a p98 of 50 sub-millisecond writes is noisy, and a Pace that
// waited for one well under sat at its slowest through whole 1 M storms
// (5.8k-7.8k coupons/s, users' p99 under idle) about one run in two.
// Halving and giving back a quarter, it settles where about one
// judgement in four finds users over budget.
//
// A write meets the drains while a batch is in flight, within paceQuiet
// of the last batch or within paceCalm of the last full one (a storm's:
// more was due than it took). So the writes between the short batches
// of a steady trickle (the expiry of a busy day) make the baseline, and
// none of a storm's, whose rests can be long, does.
//
// A Pace hears the users of its own process only: with many instances,
// each paces its drains by what its own users feel.
type Pace struct {
	budget float64
	first  Knob
	now    func() time.Time
	max    int // the engine's batch size: the pace's full speed

	mu       sync.Mutex
	batch    int
	share    float64
	draining int       // batches in flight
	lastEnd  time.Time // when the last batch ended
	lastFull time.Time // when the last full batch ended
	lastUser time.Time // when the last user write ended
	idle     ring      // writes that met no drain
	busy     ring      // writes that met one, since the last judgement
	reason   string
	metrics  *Metrics
	// idleP99 and feltP99 are what the last judgement judged by.
	idleP99, feltP99 time.Duration
}

// Pace's reasons for its current speed, the label of lapse_drain_pace.
const (
	paceNoUsers   = "no_users"    // no user wrote within paceUsersGone: flat out
	paceMeasuring = "measuring"   // too few idle writes to judge by yet
	paceStarting  = "starting"    // a storm met users: started slow
	paceOver      = "over_budget" // users' p99 over budget: slowing down
	paceUnder     = "under_budget"
)

var paceReasons = []string{paceNoUsers, paceMeasuring, paceStarting, paceOver, paceUnder}

const (
	// minPaceBatch and minPaceShare are how far a Pace slows the drains.
	minPaceBatch = 20
	minPaceShare = 1.0 / 64
	// paceJudge is how many writes that met a drain a Pace judges at once,
	// by their 98th percentile (the second slowest): the p99 of a user's
	// checkout, robust to one outlier.
	paceJudge = 50
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
	// paceRise is by how much a Pace speeds up: slower than it slows
	// down, so that it spends most of its time within budget.
	paceRise = 1.25
)

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
	return &Pace{budget: budget, first: first, now: now, share: 1, reason: paceNoUsers}
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
		return
	}
	p.busy.add(d, paceJudge)
	if len(p.busy.d) == paceJudge {
		p.judge()
	}
}

// judge compares the writes that met a drain with the baseline, steps the
// pace and starts the next judgement afresh.
func (p *Pace) judge() {
	defer func() { p.busy = ring{} }()
	if len(p.idle.d) < paceIdleMin {
		p.set(p.batch, p.share, paceMeasuring)
		return
	}
	idle, felt := p.idle.quantile(0.99), p.busy.quantile(0.98)
	p.idleP99, p.feltP99 = idle, felt
	p.metrics.paceJudged(idle, felt)
	limit := time.Duration(p.budget * float64(idle))
	batchFirst := p.first == BatchFirst
	switch {
	case felt > limit && (batchFirst && p.batch > minPaceBatch || !batchFirst && p.share <= minPaceShare):
		p.set(max(p.batch/2, minPaceBatch), p.share, paceOver)
	case felt > limit:
		p.set(p.batch, max(p.share/2, minPaceShare), paceOver)
	case batchFirst && p.share < 1 || !batchFirst && p.batch == p.max:
		p.set(p.batch, min(paceRise*p.share, 1), paceUnder)
	default:
		p.set(min(max(int(paceRise*float64(p.batch)), p.batch+1), p.max), p.share, paceUnder)
	}
}

// PaceState is a Pace's speed at one moment, and why.
type PaceState struct {
	// Batch is the rows a drain's batch may take, Share the share of
	// their time the drains may spend in batches.
	Batch  int
	Share  float64
	Reason string
	// Idle and Felt are the users' write p99 of the last judgement: of
	// the writes that met no drain, and of those that met one (0 before
	// the first).
	Idle, Felt time.Duration
}

// State returns p's speed now, and why.
func (p *Pace) State() PaceState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PaceState{Batch: p.batch, Share: p.share, Reason: p.reason, Idle: p.idleP99, Felt: p.feltP99}
}

// set moves to batch and share for reason.
func (p *Pace) set(batch int, share float64, reason string) {
	p.batch, p.share, p.reason = batch, share, reason
	p.metrics.pace(batch, share, reason)
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
	if p.now().Sub(p.lastUser) > paceUsersGone && (p.batch < p.max || p.share < 1) {
		p.busy = ring{}
		p.set(p.max, 1, paceNoUsers)
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
		if p.lastEnd.Sub(p.lastFull) > paceCalm && p.lastEnd.Sub(p.lastUser) <= paceUsersGone && p.batch == p.max && p.share == 1 {
			p.startStorm()
		}
		p.lastFull = p.lastEnd
	}
	return RestAfter(d, p.share)
}

// startStorm slows a storm that met users flat out to its start:
// paceStartCut slower on the first knob, from where judgements within
// budget speed it up again. Flat out, the drains held users over budget
// for the judgement or two it took to slow them, and those writes were
// the storm's p99 (a 300 k storm on SQLite: 3.7-7.5 ms in its first half
// second, 1.5-3 ms once slowed, idle 2.3 ms).
func (p *Pace) startStorm() {
	if p.first == BatchFirst {
		p.set(max(p.max/paceStartCut, minPaceBatch), 1, paceStarting)
		return
	}
	p.set(p.max, 1.0/paceStartCut, paceStarting)
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
