package engine_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestArchivesPeriodically: every ArchiveInterval the engine moves the
// coupons terminal for longer than ArchiveAfter to the archive, and no
// other, and counts them; they are still found by ID.
func TestArchivesPeriodically(t *testing.T) {
	inBubble(t, engine.Config{ArchiveAfter: time.Hour, ArchiveInterval: time.Minute}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Duration: 24 * time.Hour})
		void := func() coupon.Coupon {
			c := r.claim(t, tp.ID, "u")
			c, err := r.st.Transition(context.Background(), store.TransitionParams{CouponID: c.ID, Action: coupon.Void, Now: time.Now()})
			if err != nil {
				t.Fatalf("void: %v", err)
			}
			return c
		}
		old := []coupon.Coupon{void(), void()}
		r.claim(t, tp.ID, "u") // unused: stays
		time.Sleep(30 * time.Minute)
		young := void()
		r.start(t)
		counter := engine.ArchivedOf(r.metrics, store.ArchivedCoupons)
		time.Sleep(29 * time.Minute) // the old ones are 59 minutes old
		synctest.Wait()
		wantValue(t, counter, 0, "archived before ArchiveAfter")
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		wantValue(t, counter, 2, "archived")
		cs, err := r.st.UserCoupons(context.Background(), storetype.UserCouponsParams{UserID: "u", Now: time.Now(), Limit: storetype.MaxWalletPage})
		if err != nil || len(cs) != 2 {
			t.Fatalf("hot wallet: got %d coupons (%v), want the unused and the young voided", len(cs), err)
		}
		for _, c := range append(old, young) {
			r.wantStatus(t, c.ID, coupon.Voided, "coupon "+c.ID+" by ID")
		}
	})
}

// TestLeaderArchives: of two instances sharing a PostgreSQL or MySQL
// store, the one holding shard 0 archives, alone, every coupon the pair
// expired, and each is still found by ID.
func TestLeaderArchives(t *testing.T) {
	for _, s := range sharedStores {
		t.Run(s.name, func(t *testing.T) {
			url := s.url(t)
			cfg := engine.Config{Now: time.Now, LoadInterval: 200 * time.Millisecond, ArchiveAfter: time.Millisecond, ArchiveInterval: 100 * time.Millisecond}
			ca, cb := cfg, cfg
			ca.Holder, cb.Holder = "a", "b"
			a, b := startWith(t, s, url, ca), startWith(t, s, url, cb)
			waitBalanced(t, a, b)
			if !a.eng.Leads() {
				a, b = b, a
			}
			const n = 100
			issueDue(t, a.st, n, time.Now().Add(time.Second))
			waitAllExpired(t, a, n, 15*time.Second)
			lead, other := engine.ArchivedOf(a.metrics, store.ArchivedCoupons), engine.ArchivedOf(b.metrics, store.ArchivedCoupons)
			deadline := time.Now().Add(15 * time.Second)
			for testutil.ToFloat64(lead) < n && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if got, others := testutil.ToFloat64(lead), testutil.ToFloat64(other); got != n || others != 0 {
				t.Fatalf("archived: leader %v, other %v; want %d and 0", got, others, n)
			}
			for _, e := range outboxtest.Feed(t, b.st) {
				if e.Type != store.EventCouponExpired {
					continue
				}
				if c, err := b.st.Coupon(t.Context(), e.Subject); err != nil || c.Status != coupon.Expired {
					t.Fatalf("archived %s by ID: got %s, %v; want expired", e.Subject, c.Status, err)
				}
			}
		})
	}
}
