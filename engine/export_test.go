package engine

import (
	"github.com/lapsehq/lapse/storetype"
	"github.com/prometheus/client_golang/prometheus"
)

// RepairsOf exposes the sweeper repair counter of kind to tests.
func RepairsOf(m *Metrics, kind storetype.TimerKind) prometheus.Counter {
	return m.repairs.WithLabelValues(string(kind))
}

// TransitionsOf exposes the transition counter of an event type to tests.
func TransitionsOf(m *Metrics, typ string) prometheus.Counter {
	return m.transitions.WithLabelValues(typ)
}

// SkewOf exposes the clock skew gauge to tests.
func SkewOf(m *Metrics) prometheus.Gauge { return m.skew }

// SkewBoundOf exposes the clock skew bound gauge to tests.
func SkewBoundOf(m *Metrics) prometheus.Gauge { return m.skewBound }

// PrunedOf exposes the pruned idempotency keys counter to tests.
func PrunedOf(m *Metrics) prometheus.Counter { return m.pruned }

// ArchivedOf exposes the archived rows counter of a table to tests.
func ArchivedOf(m *Metrics, table string) prometheus.Counter {
	return m.archived.WithLabelValues(table)
}

// HeldOf exposes the leases an engine holds to tests.
func HeldOf(e *Engine) []storetype.Lease { return e.leases.Held() }

// DriftOf exposes the reconciliation drift gauge of a check to tests.
func DriftOf(m *Metrics, check string) prometheus.Gauge { return m.drift.WithLabelValues(check) }

// PaceOf exposes the pace's batch and share gauges to tests.
func PaceOf(m *Metrics) (batch, share prometheus.Gauge) { return m.paceBatch, m.paceShare }
