package engine_test

import (
	"context"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
)

// TestArchivesPeriodically: every ArchiveInterval the engine moves the
// coupons terminal for longer than ArchiveAfter to the archive, and no
// other, and counts them; they are still found by ID.
func TestArchivesPeriodically(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := setup(t, filepath.Join(t.TempDir(), "lapse.db"), engine.Config{ArchiveAfter: time.Hour, ArchiveInterval: time.Minute})
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
		if err := r.eng.Start(context.Background()); err != nil {
			t.Fatalf("start: %v", err)
		}
		counter := engine.ArchivedOf(r.metrics, store.ArchivedCoupons)
		time.Sleep(29 * time.Minute) // the old ones are 59 minutes old
		synctest.Wait()
		if got := testutil.ToFloat64(counter); got != 0 {
			t.Fatalf("archived before ArchiveAfter: got %v, want 0", got)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if got := testutil.ToFloat64(counter); got != 2 {
			t.Fatalf("archived: got %v, want 2", got)
		}
		cs, err := r.st.UserCoupons(context.Background(), store.UserCouponsParams{UserID: "u", Now: time.Now()})
		if err != nil || len(cs) != 2 {
			t.Fatalf("hot wallet: got %d coupons (%v), want the unused and the young voided", len(cs), err)
		}
		for _, c := range append(old, young) {
			if got := r.status(t, c.ID); got != coupon.Voided {
				t.Fatalf("coupon %s by ID: got %s, want voided", c.ID, got)
			}
		}
	})
}
