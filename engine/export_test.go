package engine

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/store"
)

// RepairsOf exposes the sweeper repair counter of kind to tests.
func RepairsOf(m *Metrics, kind store.TimerKind) prometheus.Counter {
	return m.repairs.WithLabelValues(string(kind))
}
