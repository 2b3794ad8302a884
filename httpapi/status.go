package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/lapsehq/lapse/storetype"
	dto "github.com/prometheus/client_model/go"
)

// sampleJSON is one series of a metric: a counter's or gauge's value, or
// a histogram's count of observations with its cumulative buckets as
// [upper bound, count] pairs (the +Inf bucket is the count).
type sampleJSON struct {
	Labels  map[string]string `json:"labels"`
	Value   float64           `json:"value"`
	Buckets [][2]float64      `json:"buckets,omitempty"`
}

// leaseJSON is one shard's lease as stored.
type leaseJSON struct {
	Shard     int    `json:"shard"`
	Holder    string `json:"holder"`
	Token     int64  `json:"token"`
	ExpiresAt string `json:"expires_at"`
	Held      bool   `json:"held"`
}

// instanceJSON is one instance seen lately: its clock skew against the
// database's as it last measured it (null before it measures), when, and
// the shards it holds.
type instanceJSON struct {
	Name   string  `json:"name"`
	SeenAt string  `json:"seen_at"`
	SkewMS *int64  `json:"skew_ms"`
	SkewAt *string `json:"skew_at"`
	Shards []int   `json:"shards"`
}

// statusJSON answers GET /v1/console/status.
type statusJSON struct {
	Time      string                  `json:"time"`
	DBTime    string                  `json:"db_time"`
	Instance  string                  `json:"instance"`
	Embedded  bool                    `json:"embedded"`
	Metrics   map[string][]sampleJSON `json:"metrics"`
	Leases    []leaseJSON             `json:"leases"`
	Instances []instanceJSON          `json:"instances"`
}

// status serves GET /v1/console/status: this instance's lapse_* metrics
// (transitions, lag histograms, backlog, sweeper repairs, clock skew,
// shards held), every shard's lease read from the shared store, held or
// not on the database's clock, and every instance seen within three
// lease TTLs with its last measured clock skew and the shards it holds.
func (s *server) status(w http.ResponseWriter, r *http.Request) {
	dbNow, err := s.store.Clock(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	leases, err := s.store.ShardLeases(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	instances, err := s.store.Instances(r.Context(), 3*s.leaseTTL)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := statusJSON{Time: formatTime(s.now()), DBTime: formatTime(dbNow), Instance: s.instance, Embedded: s.embedded,
		Metrics: map[string][]sampleJSON{}, Leases: make([]leaseJSON, 0, len(leases)),
		Instances: make([]instanceJSON, 0, len(instances))}
	for _, l := range leases {
		out.Leases = append(out.Leases, leaseJSON{Shard: l.Shard, Holder: l.Holder, Token: l.Token,
			ExpiresAt: formatTime(l.ExpiresAt), Held: l.Held(dbNow)})
	}
	for _, in := range instances {
		out.Instances = append(out.Instances, instanceOf(in, leases, dbNow))
	}
	if s.gatherer != nil {
		families, err := s.gatherer.Gather()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, mf := range families {
			if strings.HasPrefix(mf.GetName(), "lapse_") {
				out.Metrics[mf.GetName()] = samples(mf)
			}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// samples turns a metric family into its series.
func samples(mf *dto.MetricFamily) []sampleJSON {
	out := make([]sampleJSON, 0, len(mf.GetMetric()))
	for _, m := range mf.GetMetric() {
		sm := sampleJSON{Labels: map[string]string{}}
		for _, l := range m.GetLabel() {
			sm.Labels[l.GetName()] = l.GetValue()
		}
		switch {
		case m.Counter != nil:
			sm.Value = m.GetCounter().GetValue()
		case m.Gauge != nil:
			sm.Value = m.GetGauge().GetValue()
		case m.Histogram != nil:
			sm.Value = float64(m.GetHistogram().GetSampleCount())
			for _, b := range m.GetHistogram().GetBucket() {
				sm.Buckets = append(sm.Buckets, [2]float64{b.GetUpperBound(), float64(b.GetCumulativeCount())})
			}
		}
		out = append(out, sm)
	}
	return out
}

// instanceOf is in as the status shows it, with the shards of leases it
// holds at dbNow.
func instanceOf(in storetype.Instance, leases []storetype.ShardLease, dbNow time.Time) instanceJSON {
	out := instanceJSON{Name: in.Name, SeenAt: formatTime(in.SeenAt), Shards: []int{}}
	if !in.SkewAt.IsZero() {
		ms, at := in.Skew.Milliseconds(), formatTime(in.SkewAt)
		out.SkewMS, out.SkewAt = &ms, &at
	}
	for _, l := range leases {
		if l.Holder == in.Name && l.Held(dbNow) {
			out.Shards = append(out.Shards, l.Shard)
		}
	}
	return out
}
