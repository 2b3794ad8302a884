package bench

import (
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/internal/quantile"
)

// op is a kind of user operation.
type op int

// The user operations, each one store call the API makes for it.
const (
	opRead   op = iota // GET /v1/users/{id}/coupons
	opLock             // POST /v1/coupons/{id}/lock
	opRedeem           // POST /v1/coupons/{id}/redeem
)

var opNames = [...]string{opRead: "read", opLock: "lock", opRedeem: "redeem"}

// sample is one timed thing: a user operation (when it started, how long
// it took), or an order's close (its deadline, and how late it closed).
type sample struct {
	start  time.Time
	took   time.Duration
	op     op
	failed bool
}

// recorder collects the samples of the user load. Safe for concurrent use.
type recorder struct {
	mu      sync.Mutex
	samples []sample
}

func (r *recorder) add(s sample) {
	r.mu.Lock()
	r.samples = append(r.samples, s)
	r.mu.Unlock()
}

// between returns the samples that started in [from, to).
func (r *recorder) between(from, to time.Time) []sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []sample
	for _, s := range r.samples {
		if !s.start.Before(from) && s.start.Before(to) {
			out = append(out, s)
		}
	}
	return out
}

// Quantiles are the median, the 99th percentile and the maximum of some
// durations, in seconds.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// quantilesOf sorts ds and returns their quantiles, zero if ds is empty.
func quantilesOf(ds []time.Duration) Quantiles {
	slices.Sort(ds)
	return Quantiles{P50: seconds(quantile.Of(ds, 0.50)), P99: seconds(quantile.Of(ds, 0.99)), Max: seconds(quantile.Of(ds, 1))}
}

// OpStats summarises the latencies of some user operations, in seconds.
type OpStats struct {
	N int `json:"n"`
	// Failed counts operations refused or failed; their latency counts too.
	Failed int `json:"failed"`
	Quantiles
}

// idleWindow is the span of the windows an idle phase reports the p99
// of one by one.
const idleWindow = 5 * time.Second

// windowP99s returns the p99 of rec's samples in each whole idleWindow
// from from to to, in order.
func windowP99s(rec *recorder, from, to time.Time) []float64 {
	var p99s []float64
	for w := from; !w.Add(idleWindow).After(to); w = w.Add(idleWindow) {
		p99s = append(p99s, stats(rec.between(w, w.Add(idleWindow))).P99)
	}
	return p99s
}

// summarize returns the stats of all of ss and of each operation in it.
func summarize(ss []sample) (OpStats, map[string]OpStats) {
	byOp := map[string]OpStats{}
	for o, name := range opNames {
		if st := stats(filter(ss, func(s sample) bool { return s.op == op(o) })); st.N > 0 {
			byOp[name] = st
		}
	}
	return stats(ss), byOp
}

func filter(ss []sample, keep func(sample) bool) []sample {
	var out []sample
	for _, s := range ss {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

func stats(ss []sample) OpStats {
	st := OpStats{N: len(ss)}
	took := make([]time.Duration, len(ss))
	for i, s := range ss {
		took[i] = s.took
		if s.failed {
			st.Failed++
		}
	}
	st.Quantiles = quantilesOf(took)
	return st
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// Point is one point of a plotted series: T seconds since T0.
type Point struct {
	T float64 `json:"t"`
	V float64 `json:"v"`
}

// series returns the quantile pick chooses, in seconds, of the samples
// started in each step-wide window from origin+from to origin+to; empty
// windows are left out.
func series(ss []sample, origin time.Time, from, to, step time.Duration, pick func(Quantiles) float64) []Point {
	var out []Point
	for w := from; w < to; w += step {
		in := filter(ss, func(s sample) bool {
			d := s.start.Sub(origin)
			return d >= w && d < w+step
		})
		if len(in) == 0 {
			continue
		}
		out = append(out, Point{T: seconds(w + step/2), V: pick(stats(in).Quantiles)})
	}
	return out
}

// p50 and p99 pick a quantile for series.
func p50(q Quantiles) float64 { return q.P50 }
func p99(q Quantiles) float64 { return q.P99 }
