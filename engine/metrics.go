package engine

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/store"
)

// Metrics are the engine's Prometheus collectors. A nil *Metrics records
// nothing.
type Metrics struct {
	lag         *prometheus.HistogramVec
	transitions *prometheus.CounterVec
	repairs     *prometheus.CounterVec
	failures    *prometheus.CounterVec
}

// NewMetrics registers the engine's collectors, and gauges read from st at
// scrape time (due backlog, outbox size), on reg.
func NewMetrics(reg prometheus.Registerer, st store.Store, now func() time.Time) *Metrics {
	m := &Metrics{
		lag: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "lapse_expiry_lag_seconds",
			Help:    "Stored transition time minus due time, by timer kind.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"kind"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lapse_transitions_total",
			Help: "Committed transitions, by event type.",
		}, []string{"type"}),
		repairs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lapse_sweeper_repairs_total",
			Help: "Due items the sweeper transitioned because no trigger had.",
		}, []string{"kind"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lapse_drain_failures_total",
			Help: "Drain batches that failed and were retried.",
		}, []string{"kind"}),
	}
	reg.MustRegister(m.lag, m.transitions, m.repairs, m.failures, &statsCollector{st: st, now: now})
	return m
}

// Committed counts the events of a commit by type: the store hook for
// transitions made anywhere in this process.
func (m *Metrics) Committed(types []string) {
	if m == nil {
		return
	}
	for _, t := range types {
		m.transitions.WithLabelValues(t).Inc()
	}
}

func (m *Metrics) drained(kind store.TimerKind, now time.Time, due []time.Time, sweeping bool) {
	if m == nil || len(due) == 0 {
		return
	}
	h := m.lag.WithLabelValues(string(kind))
	for _, d := range due {
		h.Observe(now.Sub(d).Seconds())
	}
	if sweeping {
		m.repairs.WithLabelValues(string(kind)).Add(float64(len(due)))
	}
}

func (m *Metrics) drainFailed(kind store.TimerKind) {
	if m != nil {
		m.failures.WithLabelValues(string(kind)).Inc()
	}
}

// statsCollector reads the store's gauges once per scrape.
type statsCollector struct {
	st  store.Store
	now func() time.Time
}

var (
	backlogDesc = prometheus.NewDesc("lapse_due_backlog", "Items due but not yet transitioned.", nil, nil)
	outboxDesc  = prometheus.NewDesc("lapse_outbox_events", "Events held in the outbox.", nil, nil)
)

func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- backlogDesc
	ch <- outboxDesc
}

func (c *statsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := c.st.Stats(ctx, c.now())
	if err != nil {
		ch <- prometheus.NewInvalidMetric(backlogDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(backlogDesc, prometheus.GaugeValue, float64(s.DueBacklog))
	ch <- prometheus.MustNewConstMetric(outboxDesc, prometheus.GaugeValue, float64(s.Outbox))
}
