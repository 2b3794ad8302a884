package mysql_test

import (
	"errors"
	"testing"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/mysql"
)

// TestIDsCompareBytes: an ID with a trailing space is another ID. MariaDB's
// utf8mb4_bin pads with spaces, so before migration 0004 "c " found "c".
func TestIDsCompareBytes(t *testing.T) {
	s := open(t, freshDB(t), mysql.Options{})
	tp := template(t, s, nil)
	c := claim(t, s, tp.ID, "alice")

	for _, id := range []string{c.ID + " ", c.ID + "  ", c.ID + "\t"} {
		if got, err := s.Coupon(t.Context(), id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Coupon(%q): got %+v, %v; want ErrNotFound", id, got, err)
		}
		_, err := s.Transition(t.Context(), store.TransitionParams{CouponID: id, Action: coupon.Void, Reason: "r", Now: t0})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("void %q: got %v, want ErrNotFound", id, err)
		}
	}
	if got, err := s.Coupon(t.Context(), c.ID); err != nil || got.Status != coupon.Unused {
		t.Fatalf("Coupon(%q) after the voids of other IDs: got %v, %v; want it unused", c.ID, got.Status, err)
	}
	if _, err := s.Template(t.Context(), store.TemplateParams{ID: tp.ID + " ", Now: t0}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Template(%q): got %v, want ErrNotFound", tp.ID+" ", err)
	}

	for _, user := range []string{"alice ", "alice  "} {
		cs, err := s.UserCoupons(t.Context(), store.UserCouponsParams{UserID: user, Now: t0})
		if err != nil || len(cs) != 0 {
			t.Fatalf("UserCoupons(%q): got %d coupons, %v; want none", user, len(cs), err)
		}
	}
	// "alice " is a user of her own: her claim does not count against
	// alice's per-user limit, and each lists only her own.
	mine := claim(t, s, tp.ID, "alice ")
	for user, want := range map[string]string{"alice": c.ID, "alice ": mine.ID} {
		cs, err := s.UserCoupons(t.Context(), store.UserCouponsParams{UserID: user, Now: t0})
		if err != nil || len(cs) != 1 || cs[0].ID != want || cs[0].UserID != user {
			t.Fatalf("UserCoupons(%q): got %+v, %v; want only %s", user, cs, err, want)
		}
	}

	if _, err := s.PutSKU(t.Context(), store.PutSKUParams{SKU: "sku", Stock: 1, Now: t0}); err != nil {
		t.Fatalf("PutSKU: %v", err)
	}
	if got, err := s.SKU(t.Context(), "sku "); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf(`SKU("sku "): got %+v, %v; want ErrNotFound`, got, err)
	}
}
