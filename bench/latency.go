package bench

import (
	"slices"
	"sync"
	"time"
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

// sample is one user operation: when it started, how long it took.
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

// OpStats summarises the latencies of some user operations, in seconds.
type OpStats struct {
	N int `json:"n"`
	// Failed counts operations refused or failed; their latency counts too.
	Failed int     `json:"failed"`
	P50    float64 `json:"p50"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

// summarize returns the stats of all of ss and of each operation in it.
func summarize(ss []sample) (OpStats, map[string]OpStats) {
	byOp := map[string]OpStats{}
	for o, name := range opNames {
		byOp[name] = stats(filter(ss, func(s sample) bool { return s.op == op(o) }))
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
	slices.Sort(took)
	st.P50, st.P99, st.Max = seconds(quantile(took, 0.50)), seconds(quantile(took, 0.99)), seconds(quantile(took, 1))
	return st
}

// quantile returns the nearest-rank q-quantile of sorted, 0 if it is empty.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func seconds(d time.Duration) float64 { return d.Seconds() }

// Point is one point of a plotted series: T seconds since T0.
type Point struct {
	T float64 `json:"t"`
	V float64 `json:"v"`
}

// p99Series returns the p99 latency, in seconds, of the samples started in
// each step-wide window from origin+from to origin+to; empty windows are
// left out.
func p99Series(ss []sample, origin time.Time, from, to, step time.Duration) []Point {
	var out []Point
	for w := from; w < to; w += step {
		in := filter(ss, func(s sample) bool {
			d := s.start.Sub(origin)
			return d >= w && d < w+step
		})
		if len(in) == 0 {
			continue
		}
		out = append(out, Point{T: seconds(w + step/2), V: stats(in).P99})
	}
	return out
}
