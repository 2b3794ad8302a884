package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// reminded is one reminder.due event with its data.
type reminded struct {
	at   time.Time
	data store.ReminderEventData
}

// reminders returns every reminder.due event, by user, failing on one that
// lists a (coupon, lead) pair an earlier one did.
func (r *rig) reminders(t *testing.T) map[string][]reminded {
	t.Helper()
	out := map[string][]reminded{}
	seen := map[string]bool{}
	for _, e := range r.ofType(t, store.EventReminderDue) {
		var d store.ReminderEventData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("reminder data %s: %v", e.Data, err)
		}
		for _, c := range d.Coupons {
			if seen[c.ID+"/"+d.Lead] {
				t.Fatalf("coupon %s reminded twice of lead %s", c.ID, d.Lead)
			}
			seen[c.ID+"/"+d.Lead] = true
		}
		out[e.Subject] = append(out[e.Subject], reminded{at: e.Time, data: d})
	}
	return out
}

func (r *rig) putUser(t *testing.T, id, zone string, channels ...remind.Channel) {
	t.Helper()
	if _, err := r.st.PutUser(context.Background(), store.PutUserParams{User: remind.User{ID: id, Timezone: zone, Channels: channels}, Now: time.Now()}); err != nil {
		t.Fatalf("put user %s: %v", id, err)
	}
}

// TestRemindersDoneWhen is the scenario on the engine: coupons
// living 10s reminded 5s before; five users claim three each, one redeems
// one; about 5s later each user has one reminder, on time, listing the
// coupons still unused.
func TestRemindersDoneWhen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rmReg := prometheus.NewRegistry()
		rm := engine.NewReminderMetrics(rmReg)
		r := setupWith(t, dbPath(t), engine.Config{}, store.Options{Hooks: store.Hooks{OnReminders: rm.Record}})
		tp := r.template(t, coupon.Template{Duration: 10 * time.Second, Reminders: []time.Duration{5 * time.Second}})
		r.start(t)
		users := []string{"u0", "u1", "u2", "u3", "u4"}
		first := time.Now().Add(5 * time.Second)
		for _, u := range users {
			for range 3 {
				r.claim(t, tp.ID, u)
				time.Sleep(10 * time.Millisecond)
			}
		}
		cs, err := r.st.UserCoupons(context.Background(), storetype.UserCouponsParams{UserID: "u0", Now: time.Now(), Limit: storetype.MaxWalletPage})
		if err != nil {
			t.Fatalf("u0's coupons: %v", err)
		}
		if _, err := r.st.Transition(context.Background(), store.TransitionParams{CouponID: cs[1].ID, Action: coupon.Redeem, OrderID: "o1", Now: time.Now()}); err != nil {
			t.Fatalf("redeem: %v", err)
		}
		time.Sleep(time.Until(first) - time.Millisecond)
		synctest.Wait()
		if got := len(r.reminders(t)); got != 0 {
			t.Fatalf("1ms before the first crossing: got reminders for %d users, want none", got)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		got := r.reminders(t)
		if len(got) != len(users) {
			t.Fatalf("users reminded: got %d, want %d", len(got), len(users))
		}
		for _, u := range users {
			want := 3
			if u == "u0" {
				want = 2
			}
			rs := got[u]
			if len(rs) != 1 || len(rs[0].data.Coupons) != want || rs[0].data.Channel != "in_app" || rs[0].data.Lead != "5s" || !rs[0].data.ExpiringSoon {
				t.Fatalf("%s: got %+v, want one in_app reminder of lead 5s listing %d coupons", u, rs, want)
			}
			due := time.Time(rs[0].data.Coupons[0].ExpiresAt).Add(-5 * time.Second)
			if rs[0].at.Before(due) || rs[0].at.Sub(due) > 2*tick {
				t.Fatalf("%s: reminded at %s, want within %s of %s", u, rs[0].at, 2*tick, due)
			}
		}
		for _, c := range []struct {
			reg    *prometheus.Registry
			name   string
			labels []string
			want   float64
		}{
			{rmReg, "lapse_reminders_planned_total", nil, 5},
			{rmReg, "lapse_reminders_sent_total", []string{"channel", "in_app"}, 5},
			{rmReg, "lapse_reminders_sent_total", []string{"channel", "sms"}, 0},
			{rmReg, "lapse_reminder_coupons_dropped_total", []string{"reason", "used"}, 1},
			{r.reg, "lapse_lag_seconds", []string{"kind", string(storetype.TimerRemind)}, 5},
		} {
			if got := metric(t, c.reg, c.name, c.labels...); got != c.want {
				t.Fatalf("%s%v: got %v, want %v", c.name, c.labels, got, c.want)
			}
		}
	})
}

// metric returns the value of a counter, or the count of a histogram, of
// name whose labels include the given name, value pairs; 0 if none.
func metric(t *testing.T, reg *prometheus.Registry, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			match := true
			for i := 0; i+1 < len(labels); i += 2 {
				match = match && have[labels[i]] == labels[i+1]
			}
			if !match {
				continue
			}
			if h := m.GetHistogram(); h != nil {
				return float64(h.GetSampleCount())
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

// TestReminderPolicyThroughEngine runs the channel policy on the engine's
// clock: quiet hours in the user's timezone (waited out, or got ahead of
// when the coupon expires first), sms for a reminder worth it, push, and
// the daily cap.
func TestReminderPolicyThroughEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rmReg := prometheus.NewRegistry()
		rm := engine.NewReminderMetrics(rmReg)
		cfg := engine.Config{Wheel: timer.NewWheel(time.Second, 4096, time.Now), SweepInterval: time.Hour}
		r := setupWith(t, dbPath(t), cfg, store.Options{Hooks: store.Hooks{OnReminders: rm.Record}})
		start := time.Now() // 08:00 in Shanghai
		r.putUser(t, "night", "Asia/Shanghai", remind.SMS, remind.Push, remind.InApp)
		r.putUser(t, "early", "Asia/Shanghai", remind.Push)
		day := 24 * time.Hour
		rich := r.template(t, coupon.Template{Value: 6000, Duration: 40 * time.Hour, Reminders: []time.Duration{day}})
		short := r.template(t, coupon.Template{Duration: 20 * time.Hour, Reminders: []time.Duration{4 * time.Hour}})
		daily := r.template(t, coupon.Template{Duration: 2 * day, Reminders: []time.Duration{day}})
		r.start(t)
		r.claim(t, rich.ID, "night")  // crosses at midnight in Shanghai, expires the next
		r.claim(t, short.ID, "early") // crosses at midnight in Shanghai, expires at 04:00
		for range 4 {
			r.claim(t, daily.ID, "busy") // UTC, in_app: no quiet hours
			time.Sleep(2 * time.Hour)
		}
		time.Sleep(time.Until(start.Add(31 * time.Hour)))
		synctest.Wait()

		got := r.reminders(t)
		want := map[string][]struct {
			at      time.Duration
			channel remind.Channel
		}{
			"night": {{day, remind.SMS}},                            // 08:00 in Shanghai, the quiet end
			"early": {{13*time.Hour + 59*time.Minute, remind.Push}}, // 21:59 in Shanghai, before the quiet hours
			"busy":  {{day, remind.InApp}, {26 * time.Hour, remind.InApp}, {28 * time.Hour, remind.InApp}},
		}
		if len(got) != len(want) {
			t.Fatalf("users reminded: got %d, want %d", len(got), len(want))
		}
		for user, ws := range want {
			if len(got[user]) != len(ws) {
				t.Fatalf("%s: got %d reminders, want %d", user, len(got[user]), len(ws))
			}
			for i, w := range ws {
				g, due := got[user][i], start.Add(w.at)
				if g.data.Channel != string(w.channel) || g.at.Before(due) || g.at.Sub(due) > 2*time.Second {
					t.Fatalf("%s reminder %d: got %s at %s, want %s at %s", user, i, g.data.Channel, g.at, w.channel, due)
				}
			}
		}
		for _, c := range []struct {
			name   string
			labels []string
			want   float64
		}{
			{"lapse_reminders_planned_total", nil, 6},
			{"lapse_reminders_sent_total", []string{"channel", "sms"}, 1},
			{"lapse_reminders_sent_total", []string{"channel", "push"}, 1},
			{"lapse_reminders_sent_total", []string{"channel", "in_app"}, 3},
			{"lapse_reminders_dropped_total", []string{"reason", "daily_cap"}, 1},
		} {
			if got := metric(t, rmReg, c.name, c.labels...); got != c.want {
				t.Fatalf("%s%v: got %v, want %v", c.name, c.labels, got, c.want)
			}
		}
	})
}

// TestRemindersRestartAndInstances plans reminders while no engine runs,
// then starts two instances on the same database past their due time:
// both sweep and fire timers, yet each reminder goes out once; a restart
// later sends nothing again.
func TestRemindersRestartAndInstances(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := dbPath(t)
		r := setup(t, path, engine.Config{})
		tp := r.template(t, coupon.Template{Duration: time.Hour, Reminders: []time.Duration{30 * time.Minute}})
		const users = 30
		for i := range users {
			r.claim(t, tp.ID, fmt.Sprintf("u%d", i))
			r.claim(t, tp.ID, fmt.Sprintf("u%d", i))
		}
		r.st.Close()
		time.Sleep(45 * time.Minute)

		a := setup(t, path, engine.Config{BatchSize: 7})
		b := setup(t, path, engine.Config{BatchSize: 7})
		for _, x := range []*rig{a, b} {
			x.start(t)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		check := func(what string, got map[string][]reminded) {
			t.Helper()
			if len(got) != users {
				t.Fatalf("%s: users reminded: got %d, want %d", what, len(got), users)
			}
			for u, rs := range got {
				if len(rs) != 1 || len(rs[0].data.Coupons) != 2 {
					t.Fatalf("%s: %s: got %+v, want one reminder of 2 coupons", what, u, rs)
				}
			}
		}
		check("two instances", a.reminders(t))
		a.eng.Stop()
		b.eng.Stop()

		c := setup(t, path, engine.Config{})
		c.start(t)
		time.Sleep(time.Hour)
		synctest.Wait()
		check("after a restart", c.reminders(t))
	})
}
