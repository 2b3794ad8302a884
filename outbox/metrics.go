package outbox

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the relay's Prometheus collectors.
type metrics struct {
	deliveredTotal *prometheus.CounterVec
	failures       *prometheus.CounterVec
	dead           *prometheus.CounterVec
	pruned         prometheus.Counter
}

var (
	lagDesc  = prometheus.NewDesc("lapse_outbox_lag_events", "Events in the feed after the sink's position.", []string{"sink"}, nil)
	deadDesc = prometheus.NewDesc("lapse_outbox_dead_letters", "Dead letters the sink holds: until a replay delivers them.", []string{"sink"}, nil)
)

// newMetrics registers the relay's collectors on reg, if set: counters
// per sink, and each sink's lag and dead letters read from the store at
// scrape time.
func newMetrics(reg prometheus.Registerer, r *Relay) *metrics {
	perSink := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"sink"})
	}
	m := &metrics{
		deliveredTotal: perSink("lapse_outbox_delivered_total", "Events a sink acknowledged, replays and duplicates included."),
		failures:       perSink("lapse_outbox_failures_total", "Failed delivery attempts."),
		dead: perSink("lapse_outbox_dead_lettered_total",
			"Events put in a sink's dead letters, after their attempts or parked behind an earlier one of their subject."),
		pruned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lapse_outbox_pruned_total",
			Help: "Events deleted from the outbox by retention.",
		}),
	}
	for _, run := range r.runners {
		m.deliveredTotal.WithLabelValues(run.Name)
		m.failures.WithLabelValues(run.Name)
		m.dead.WithLabelValues(run.Name)
	}
	if reg != nil {
		reg.MustRegister(m.deliveredTotal, m.failures, m.dead, m.pruned, &stateCollector{r: r})
	}
	return m
}

func (m *metrics) delivered(sink string, n int) {
	if n > 0 {
		m.deliveredTotal.WithLabelValues(sink).Add(float64(n))
	}
}

func (m *metrics) failed(sink string) { m.failures.WithLabelValues(sink).Inc() }

func (m *metrics) deadLettered(sink string, n int) {
	if n > 0 {
		m.dead.WithLabelValues(sink).Add(float64(n))
	}
}

// stateCollector reads each sink's state from the store once per scrape,
// so that its lag grows while it is stuck and its dead letters show until
// a replay delivers them.
type stateCollector struct{ r *Relay }

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- lagDesc
	ch <- deadDesc
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, run := range c.r.runners {
		st, err := c.r.cfg.Store.SinkState(ctx, run.Name)
		if err != nil {
			ch <- prometheus.NewInvalidMetric(lagDesc, err)
			continue
		}
		ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, float64(st.Lag), run.Name)
		ch <- prometheus.MustNewConstMetric(deadDesc, prometheus.GaugeValue, float64(st.DeadLetters), run.Name)
	}
}
