package store

import (
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/storetype"
)

// Outage tells of the database's outages (storetype.IsUnavailable) once
// each, for the loops that call the store every tick (the engine's, the
// outbox relay's): one line when the first call fails, one with its
// duration when a call next succeeds, and the metrics
// lapse_store_outages_total and lapse_store_unavailable, in place of an
// error per tick. The loops retry as they do after any error, and resume
// when the database is back. One Outage is shared by the loops of a
// process; its methods are safe to call concurrently. A nil *Outage
// takes no error: its caller logs each as it comes.
type Outage struct {
	log     *slog.Logger
	outages prometheus.Counter
	down    prometheus.Gauge
	mu      sync.Mutex
	since   time.Time // when the outage began; zero while the store serves
}

// NewOutage returns an Outage logging to log and, if reg is set,
// registering its metrics on it.
func NewOutage(log *slog.Logger, reg prometheus.Registerer) *Outage {
	o := &Outage{
		log: log,
		outages: prometheus.NewCounter(prometheus.CounterOpts{Name: "lapse_store_outages_total",
			Help: "Outages of the database the loops met (unreachable, restarting, no primary), each counted once."}),
		down: prometheus.NewGauge(prometheus.GaugeOpts{Name: "lapse_store_unavailable",
			Help: "1 while the loops find the database unavailable, 0 once a call succeeds."}),
	}
	if reg != nil {
		reg.MustRegister(o.outages, o.down)
	}
	return o
}

// Failed reports whether err is an outage, which o then logs (once per
// outage) so that the caller logs nothing of it; the caller logs any
// other error itself.
func (o *Outage) Failed(err error) bool {
	if o == nil || !storetype.IsUnavailable(err) {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.since.IsZero() {
		o.since = time.Now()
		o.outages.Inc()
		o.down.Set(1)
		o.log.Error("store: database unavailable; the loops retry until it answers", slog.Any("err", err))
	}
	return true
}

// Served ends the outage under way, if any, as a call succeeded.
func (o *Outage) Served() {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.since.IsZero() {
		return
	}
	o.log.Info("store: database available again", slog.Duration("outage", time.Since(o.since).Round(time.Millisecond)))
	o.since = time.Time{}
	o.down.Set(0)
}
