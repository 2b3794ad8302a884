package sqlite_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// BenchmarkReminderStorm measures the reminder planner on a storm: coupons
// (LAPSE_STORM of them, default 20,000) whose 24h lead falls due within
// the same hour, held perUser to a user. It claims them all, each claim
// planning its coupon's reminder in its transaction, then sends every
// reminder in batches of 1,000 as the engine's drain does, and reports
// claims/s (with planning), reminders/s sent, and coupons/s: the coupons
// those reminders list.
//
//	LAPSE_STORM=1000000 go test ./driver/sqlite -run '^$' -bench ReminderStorm -benchtime 1x -timeout 3h
func BenchmarkReminderStorm(b *testing.B) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("LAPSE_STORM")); err == nil && v > 0 {
		n = v
	}
	for _, perUser := range []int{10, 1} {
		b.Run(fmt.Sprintf("coupons=%d/per_user=%d", n, perUser), func(b *testing.B) {
			for range b.N {
				s := open(b, tempPath(b), sqlite.Options{})
				tp := storetest.Template(b, s, t0, func(tp *coupon.Template) { tp.Duration, tp.Reminders = 48*time.Hour, []time.Duration{24 * time.Hour} })
				start := time.Now()
				for i := range n {
					claimAt(b, s, tp.ID, fmt.Sprintf("u%07d", i%(n/perUser)), t0.Add(time.Duration(i)*time.Hour/time.Duration(n)))
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "claims/s")
				start, done := time.Now(), 0
				for {
					d, err := s.SendDueReminders(b.Context(), storetype.DueParams{Now: t0.Add(25 * time.Hour), Limit: 1000})
					if err != nil {
						b.Fatalf("SendDueReminders: %v", err)
					}
					if done += len(d.Due); len(d.Due) < 1000 {
						break
					}
				}
				elapsed := time.Since(start).Seconds()
				sent, listed := countReminders(b, s)
				if done != n/perUser || sent != n/perUser || listed != n {
					b.Fatalf("sent %d of %d reminders listing %d coupons, want %d listing %d", sent, done, listed, n/perUser, n)
				}
				b.ReportMetric(float64(sent)/elapsed, "reminders/s")
				b.ReportMetric(float64(listed)/elapsed, "coupons/s")
			}
		})
	}
}

// BenchmarkClaimPlanning measures what planning reminders adds to a
// claim: claims of templates with no lead time, one, and three, by users
// holding ten coupons each.
func BenchmarkClaimPlanning(b *testing.B) {
	for _, leads := range [][]time.Duration{nil, {24 * time.Hour}, {72 * time.Hour, 24 * time.Hour, time.Hour}} {
		b.Run(fmt.Sprintf("leads=%d", len(leads)), func(b *testing.B) {
			s := open(b, tempPath(b), sqlite.Options{})
			tp := storetest.Template(b, s, t0, func(tp *coupon.Template) { tp.Duration, tp.Reminders = 96*time.Hour, leads })
			for i := range b.N {
				claimAt(b, s, tp.ID, fmt.Sprintf("u%07d", i/10), t0.Add(time.Duration(i)*time.Millisecond))
			}
		})
	}
}

func claimAt(b *testing.B, s *store.DB, tplID, user string, at time.Time) {
	if _, err := s.Claim(b.Context(), store.ClaimParams{TemplateID: tplID, UserID: user, Now: at}); err != nil {
		b.Fatalf("claim by %s at %s: %v", user, at, err)
	}
}

// countReminders counts the reminder.due events and the coupons they list.
func countReminders(b *testing.B, s *store.DB) (reminders, coupons int) {
	b.Helper()
	var after int64
	for {
		evs, err := s.Events(b.Context(), store.EventsParams{After: after, Limit: 10000})
		if err != nil {
			b.Fatalf("events: %v", err)
		}
		if len(evs) == 0 {
			return reminders, coupons
		}
		for _, e := range evs {
			if e.Type != store.EventReminderDue {
				continue
			}
			var d store.ReminderEventData
			if err := json.Unmarshal(e.Data, &d); err != nil {
				b.Fatalf("reminder data: %v", err)
			}
			reminders, coupons = reminders+1, coupons+len(d.Coupons)
		}
		after = evs[len(evs)-1].Seq
	}
}
