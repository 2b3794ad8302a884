package main

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/store"
)

// reminderEvent is a reminder.due event, its data decoded.
type reminderEvent struct {
	Subject string
	Data    store.ReminderEventData
}

// reminders reads the whole feed and returns the reminder.due events by
// user, failing on a second one for a user.
func (s *server) reminders(t *testing.T) map[string]reminderEvent {
	t.Helper()
	return remindersIn(t, follow(store.EventReminderDue).read(t, s))
}

// remindersIn decodes the reminder.due events by user.
func remindersIn(t *testing.T, events map[string]client.Event) map[string]reminderEvent {
	t.Helper()
	out := make(map[string]reminderEvent, len(events))
	for user, e := range events {
		r := reminderEvent{Subject: e.Subject}
		if err := json.Unmarshal(e.Data, &r.Data); err != nil {
			t.Fatalf("%s: reminder data %s: %v", e.Subject, e.Data, err)
		}
		out[user] = r
	}
	return out
}

// remindStall is how long waitReminders waits for one more reminder: a
// lost reminder shows as a stall, a slow machine only as a slower climb
// (under CI's load three PostgreSQL instances took minutes after a kill).
const remindStall = time.Minute

// waitReminders polls until at least n users have been reminded; it fails
// once no new reminder came for remindStall, printing the logs of ss.
func waitReminders(t *testing.T, s *server, n int, ss ...*server) map[string]reminderEvent {
	t.Helper()
	f := follow(store.EventReminderDue)
	last, progress := -1, time.Now()
	for {
		got := f.read(t, s)
		if len(got) >= n {
			return remindersIn(t, got)
		}
		if len(got) > last {
			last, progress = len(got), time.Now()
		}
		if time.Since(progress) > remindStall {
			logs := s.log.String()
			for _, o := range ss {
				if o != s {
					logs += "\n--- another instance:\n" + o.log.String()
				}
			}
			t.Fatalf("%d users reminded, want %d; none more for %s; logs:\n%s", len(got), n, remindStall, logs)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestRemindersAsANewUser is the issue's "done when", through the binary:
// coupons living 10s reminded 5s before they expire; five users claim
// three each, one of them redeems one; about 5s later there are exactly
// five reminder.due events, each listing its user's unused coupons.
func TestRemindersAsANewUser(t *testing.T) {
	onEach(t, remindersAsANewUser)
}

// remindersAsANewUser is TestRemindersAsANewUser on be.
func remindersAsANewUser(t *testing.T, be backend) {
	s := start(t, be.store(t))
	ctx := t.Context()
	tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "¥5 off", Value: 500,
		Validity: client.Validity{Duration: client.Duration(10 * time.Second)}, Reminders: []client.Duration{client.Duration(5 * time.Second)}})).On(t)
	claimed := map[string][]client.Coupon{}
	for i := range 5 {
		user := fmt.Sprintf("u%d", i)
		for range 3 {
			claimed[user] = append(claimed[user], clienttest.Must(s.api.Claim(ctx, user, client.ClaimParams{TemplateID: tpl.ID})).On(t))
		}
	}
	clienttest.Must(s.api.Redeem(ctx, claimed["u0"][1].ID, client.RedeemParams{OrderID: "o1"})).On(t)
	claimed["u0"] = append(claimed["u0"][:1], claimed["u0"][2])

	waitReminders(t, s, 5)
	// Past the last coupon's crossing, nothing more comes.
	time.Sleep(time.Until(claimed["u4"][2].ExpiresAt.Add(-5*time.Second + 500*time.Millisecond)))
	got := s.reminders(t)
	if len(got) != 5 {
		t.Fatalf("reminder.due events: got %d, want 5", len(got))
	}
	for user, cs := range claimed {
		r := got[user]
		if r.Data.UserID != user || r.Data.Channel != "in_app" || r.Data.Lead != "5s" || !r.Data.ExpiringSoon || len(r.Data.Coupons) != len(cs) {
			t.Fatalf("%s: got %+v, want an in_app reminder of lead 5s listing %d coupons", user, r, len(cs))
		}
		listed := map[string]int64{}
		for _, c := range r.Data.Coupons {
			listed[c.ID] = c.Value
		}
		for _, c := range cs {
			if listed[c.ID] != 500 {
				t.Fatalf("%s: got coupons %+v, want %s worth 500 among them", user, r.Data.Coupons, c.ID)
			}
		}
	}
}

// TestKill9RemindersSendOnce kills lapse while it sends a storm of
// reminders due in the same instant, in small batches; after a restart
// every user has been reminded exactly once. On PostgreSQL and MariaDB
// three instances share the work and one of them is killed.
func TestKill9RemindersSendOnce(t *testing.T) {
	onEach(t, func(t *testing.T, be backend) {
		db := be.store(t)
		n, instances, batch := 10000, 1, "5"
		if be.name != sqliteBackend.name {
			n, instances, batch = 3000, 3, "50"
		}
		var ss []*server
		if instances == 1 {
			ss = []*server{start(t, db, "--batch-size", batch)}
		} else {
			ss = startShared(t, db, instances, "--batch-size", batch)
		}
		s := ss[0]
		endsAt := time.Now().Add(be.lead + 10*time.Second)
		tpl := clienttest.Must(s.api.CreateTemplate(t.Context(), client.NewTemplate{Name: "storm", Value: 100,
			Validity: client.Validity{EndsAt: endsAt}, Reminders: []client.Duration{client.Duration(10 * time.Second)}})).On(t)
		s.issue(t, tpl.ID, n)
		if time.Until(endsAt.Add(-10*time.Second)) <= 0 {
			t.Fatalf("seeding outlasted the crossing: nothing was tested")
		}
		s.waitEventAfter(t, "the first reminder", s.cursor(t))
		s.killMidway(t, be, db, store.EventReminderDue, n)
		if instances == 1 {
			s = start(t, db)
		} else {
			s = ss[1] // the survivors take over the dead one's shards
		}
		got := waitReminders(t, s, n, ss[1:]...)
		for user, r := range got {
			if len(r.Data.Coupons) != 1 {
				t.Fatalf("%s: got %d coupons, want 1", user, len(r.Data.Coupons))
			}
		}
	})
}
