package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Metrics are the engine's Prometheus collectors. A nil *Metrics records
// nothing.
type Metrics struct {
	lag         *prometheus.HistogramVec
	transitions *prometheus.CounterVec
	closes      *prometheus.CounterVec
	repairs     *prometheus.CounterVec
	failures    *prometheus.CounterVec
	checks      *prometheus.CounterVec
	unconfirmed prometheus.Counter
	held        prometheus.Gauge
	lost        prometheus.Counter
	skew        prometheus.Gauge
	skewBound   prometheus.Gauge
	pruned      prometheus.Counter
	operations  *prometheus.CounterVec
	archived    *prometheus.CounterVec
	prunedRows  *prometheus.CounterVec
	drift       *prometheus.GaugeVec
	paceBatch   prometheus.Gauge
	paceShare   prometheus.Gauge
	paceReason  *prometheus.GaugeVec
	paceFelt    *prometheus.GaugeVec
}

// NewMetrics registers the engine's collectors, and gauges read from st at
// scrape time (due backlog, outbox size), on reg.
func NewMetrics(reg prometheus.Registerer, st StatsReader, now func() time.Time) *Metrics {
	m := &Metrics{
		lag: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "lapse_lag_seconds",
			Help:    "Stored transition time minus due time, by kind: coupon.expire (expiry lag), coupon.release (lock TTL), order.close (close lag).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"kind"}),
		transitions: counterVec("lapse_transitions_total", "Committed transitions, by event type.", "type"),
		closes:      counterVec("lapse_order_closes_total", "Orders closed, by reason (timeout, cancelled).", "reason"),
		checks:      counterVec("lapse_payment_checks_total", "Payment-status hook calls, by result (paid, unpaid, error).", "result"),
		unconfirmed: counter("lapse_order_unconfirmed_closes_total", "Orders closed on timeout after the payment hook failed for the whole grace."),
		repairs:     counterVec("lapse_sweeper_repairs_total", "Due items the sweeper transitioned because no trigger had.", "kind"),
		failures:    counterVec("lapse_drain_failures_total", "Drain batches that failed and were retried.", "kind"),
		held:        gauge("lapse_shards_held", "Shards of the due work this instance holds a lease on (distributed mode)."),
		lost:        counter("lapse_lease_lost_total", "Drains refused because their shard lease had expired or changed hands: they wrote nothing."),
		skew:        gauge("lapse_clock_skew_seconds", "This instance's clock minus the database's (distributed mode)."),
		skewBound:   gauge("lapse_clock_skew_bound_seconds", "The clock skew past which this instance fires nothing, --max-clock-skew (distributed mode; 0 otherwise)."),
		pruned:      counter("lapse_idempotency_keys_pruned_total", "Idempotency keys deleted once older than the idempotency TTL."),
		operations:  counterVec("lapse_operation_coupons_total", "Coupons a bulk operation of this instance changed, by kind (void, extend); a locked coupon voided when its lock ends is not counted.", "kind"),
		archived:    counterVec("lapse_archived_rows_total", "Rows moved to the archive, by table (coupons, orders).", "table"),
		prunedRows:  counterVec("lapse_pruned_rows_total", "Rows deleted as history, by kind (idempotency_keys, reminders).", "kind"),
		drift:       gaugeVec("lapse_reconcile_drift", "Drift the last reconciliation found, by check (repaired or not); exported once reconciliation runs.", "check"),
		paceBatch:   gauge("lapse_drain_pace_batch", "Rows per drain batch the pace allows now (--storm-user-budget; the batch size without it)."),
		paceShare:   gauge("lapse_drain_pace_share", "Share of their time the drains may spend in batches now, resting the rest (1: flat out)."),
		paceReason:  gaugeVec("lapse_drain_pace", "Why the drains run at their pace: 1 on the current reason (no_users, measuring, starting, over_budget, under_budget).", "reason"),
		paceFelt:    gaugeVec("lapse_drain_pace_user_p99_seconds", "Users' write p99 at the pace's last report: of the writes that met no drain (idle, its baseline) and of the latest 500 that met one (draining).", "of"),
	}
	for _, table := range []string{store.ArchivedCoupons, store.ArchivedOrders} {
		m.archived.WithLabelValues(table)
	}
	for _, kind := range []string{prunedKeys, store.PrunedReminders} {
		m.prunedRows.WithLabelValues(kind)
	}
	reg.MustRegister(m.lag, m.transitions, m.closes, m.repairs, m.failures, m.checks, m.unconfirmed,
		m.held, m.lost, m.skew, m.skewBound, m.pruned, m.operations, m.archived, m.prunedRows, m.drift,
		m.paceBatch, m.paceShare, m.paceReason, m.paceFelt, &statsCollector{st: st, now: now})
	return m
}

// pace records the drains' pace and why.
func (m *Metrics) pace(batch int, share float64, reason string) {
	if m == nil {
		return
	}
	m.paceBatch.Set(float64(batch))
	m.paceShare.Set(share)
	for _, r := range paceReasons {
		m.paceReason.WithLabelValues(r).Set(0)
	}
	m.paceReason.WithLabelValues(reason).Set(1)
}

// paceJudged records the users' p99 at a pace's report: its baseline and
// the p99 of the writes that met a drain.
func (m *Metrics) paceJudged(idle, draining time.Duration) {
	if m == nil {
		return
	}
	m.paceFelt.WithLabelValues("idle").Set(idle.Seconds())
	m.paceFelt.WithLabelValues("draining").Set(draining.Seconds())
}

// Committed counts the events of a commit: the store hook for transitions
// made anywhere in this process.
func (m *Metrics) Committed(events []storetype.Event) {
	if m == nil {
		return
	}
	for _, e := range events {
		m.transitions.WithLabelValues(e.Type).Inc()
		if e.Type == store.EventOrderClosed {
			var d store.OrderEventData
			if json.Unmarshal(e.Data, &d) == nil {
				m.closes.WithLabelValues(d.Reason).Inc()
			}
		}
	}
}

// operationBatch counts the n coupons a batch of a bulk operation of
// kind changed.
func (m *Metrics) operationBatch(kind storetype.OperationKind, n int64) {
	if m != nil {
		m.operations.WithLabelValues(string(kind)).Add(float64(n))
	}
}

// track exports the series of a kind of work the engine drains from the
// start, at zero, so that an alert on their increase sees the first one.
func (m *Metrics) track(kind storetype.TimerKind) {
	if m != nil {
		m.lag.WithLabelValues(string(kind))
		m.repairs.WithLabelValues(string(kind))
		m.failures.WithLabelValues(string(kind))
	}
}

// trackReconcile exports the drift of every check from the start, at
// zero: the engine reconciles.
func (m *Metrics) trackReconcile() {
	if m != nil {
		m.reconciled(nil)
	}
}

// reconciled records the drift counts of a reconciliation per check.
func (m *Metrics) reconciled(counts map[string]int64) {
	if m != nil {
		for _, check := range store.Checks {
			m.drift.WithLabelValues(check).Set(float64(counts[check]))
		}
	}
}

// trackPayments exports the payment check series from the start, at
// zero: the engine asks a payment hook.
func (m *Metrics) trackPayments() {
	if m != nil {
		for _, result := range []string{"paid", "unpaid", "error"} {
			m.checks.WithLabelValues(result)
		}
	}
}

func (m *Metrics) paymentCheck(paid bool, err error) {
	if m == nil {
		return
	}
	result := "unpaid"
	switch {
	case err != nil:
		result = "error"
	case paid:
		result = "paid"
	}
	m.checks.WithLabelValues(result).Inc()
}

func (m *Metrics) unconfirmedClose() {
	if m != nil {
		m.unconfirmed.Inc()
	}
}

func (m *Metrics) drained(kind storetype.TimerKind, now time.Time, due []time.Time, sweeping bool) {
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

func (m *Metrics) shardsHeld(n int) {
	if m != nil {
		m.held.Set(float64(n))
	}
}

func (m *Metrics) leaseLost() {
	if m != nil {
		m.lost.Inc()
	}
}

func (m *Metrics) clockSkew(d time.Duration) {
	if m != nil {
		m.skew.Set(d.Seconds())
	}
}

func (m *Metrics) clockSkewBound(d time.Duration) {
	if m != nil {
		m.skewBound.Set(d.Seconds())
	}
}

// prunedKeys is the kind of lapse_pruned_rows_total that counts
// idempotency keys.
const prunedKeys = "idempotency_keys"

func (m *Metrics) requestsPruned(n int64) {
	if m != nil {
		m.pruned.Add(float64(n))
		m.prunedRows.WithLabelValues(prunedKeys).Add(float64(n))
	}
}

// Archived counts the rows one archive batch moved or pruned: the store
// hook OnArchived, which hears the batches of every archive run in this
// process, the engine's and those asked over the API.
func (m *Metrics) Archived(what string, n int64) {
	switch {
	case m == nil:
	case what == store.PrunedReminders:
		m.prunedRows.WithLabelValues(what).Add(float64(n))
	default:
		m.archived.WithLabelValues(what).Add(float64(n))
	}
}

func (m *Metrics) drainFailed(kind storetype.TimerKind) {
	if m != nil {
		m.failures.WithLabelValues(string(kind)).Inc()
	}
}

// statsCollector reads the store's gauges once per scrape.
type statsCollector struct {
	st  StatsReader
	now func() time.Time
}

var (
	backlogDesc    = prometheus.NewDesc("lapse_due_backlog", "Items due but not yet transitioned.", nil, nil)
	outboxDesc     = prometheus.NewDesc("lapse_outbox_events", "Events held in the outbox.", nil, nil)
	openOrdersDesc = prometheus.NewDesc("lapse_open_orders", "Unpaid orders.", nil, nil)
)

func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- backlogDesc
	ch <- outboxDesc
	ch <- openOrdersDesc
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
	ch <- prometheus.MustNewConstMetric(openOrdersDesc, prometheus.GaugeValue, float64(s.OpenOrders))
}

// counter, counterVec, gauge and gaugeVec make the collector of a name,
// its help and, for a vector, its one label.
func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

func counterVec(name, help, label string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
}

func gauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
}

func gaugeVec(name, help, label string) *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{label})
}
