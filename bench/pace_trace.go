package bench

import (
	"time"

	"github.com/lapsehq/lapse/engine"
)

// PacePoint is the pace of lapse's drain (its first instance's) T seconds
// after T0: what engine.Pace.State reports.
type PacePoint struct {
	T      float64 `json:"t"`
	Batch  int     `json:"batch"`
	Share  float64 `json:"share"`
	Reason string  `json:"reason"`
	// IdleP99 and FeltP99 are the users' write p99 at the pace's last
	// report, in seconds: of the writes that met no drain (its baseline),
	// of the latest that met one.
	IdleP99 float64 `json:"idle_p99"`
	FeltP99 float64 `json:"felt_p99"`
}

// paceTrace samples a pace every sampleEvery until it is stopped.
type paceTrace struct {
	at     []time.Time
	states []engine.PaceState
	stop   chan struct{}
	done   chan struct{}
}

// tracePace starts sampling pace.
func tracePace(pace *engine.Pace) *paceTrace {
	t := &paceTrace{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(t.done)
		tick := time.NewTicker(sampleEvery)
		defer tick.Stop()
		for {
			t.at, t.states = append(t.at, time.Now()), append(t.states, pace.State())
			select {
			case <-t.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return t
}

// end stops the sampling, once, and returns the samples, timed from
// origin (T0).
func (t *paceTrace) end(origin time.Time) []PacePoint {
	select {
	case <-t.stop:
	default:
		close(t.stop)
	}
	<-t.done
	pts := make([]PacePoint, len(t.at))
	for i, s := range t.states {
		pts[i] = PacePoint{T: t.at[i].Sub(origin).Seconds(), Batch: s.Batch, Share: s.Share, Reason: s.Reason,
			IdleP99: s.Idle.Seconds(), FeltP99: s.Felt.Seconds()}
	}
	return pts
}
