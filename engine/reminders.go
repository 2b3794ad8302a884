package engine

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// ReminderMetrics count what the store did to reminders. A nil
// *ReminderMetrics records nothing.
type ReminderMetrics struct {
	planned prometheus.Counter
	sent    *prometheus.CounterVec
	dropped *prometheus.CounterVec
	leftOut *prometheus.CounterVec
}

// NewReminderMetrics registers the reminder counters on reg.
func NewReminderMetrics(reg prometheus.Registerer) *ReminderMetrics {
	m := &ReminderMetrics{
		planned: counter("lapse_reminders_planned_total", "Reminders planned: one per user, lead time and window."),
		sent:    counterVec("lapse_reminders_sent_total", "Reminders sent as reminder.due events, by channel (sms, push, in_app).", "channel"),
		dropped: counterVec("lapse_reminders_dropped_total", "Reminders not sent, by reason (empty: no coupon left to remind; daily_cap).", "reason"),
		leftOut: counterVec("lapse_reminder_coupons_dropped_total", "Coupons left out of their reminder when it came due, by reason (used, locked, expired, voided, reminded).", "reason"),
	}
	for _, ch := range remind.Channels {
		m.sent.WithLabelValues(string(ch))
	}
	for _, why := range []string{remind.DropEmpty, remind.DropDailyCap} {
		m.dropped.WithLabelValues(why)
	}
	reg.MustRegister(m.planned, m.sent, m.dropped, m.leftOut)
	return m
}

// Record counts one commit's reminders: the store hook.
func (m *ReminderMetrics) Record(c store.ReminderCounts) {
	if m == nil {
		return
	}
	m.planned.Add(float64(c.Planned))
	for ch, n := range c.Sent {
		m.sent.WithLabelValues(string(ch)).Add(float64(n))
	}
	for why, n := range c.Dropped {
		m.dropped.WithLabelValues(why).Add(float64(n))
	}
	for why, n := range c.LeftOut {
		m.leftOut.WithLabelValues(why).Add(float64(n))
	}
}
