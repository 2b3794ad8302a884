package mysql_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestIDsCompareBytes: an ID with a trailing space is another ID.
// MariaDB's utf8mb4_bin pads with spaces, so before migration 0005 "c "
// found "c". The store refuses such IDs as input; the driver, read with
// them, finds nothing.
func TestIDsCompareBytes(t *testing.T) {
	url := freshDB(t)
	d := openDriver(t, url, mysql.Options{}).Executor()
	s := open(t, url, mysql.Options{})
	tp := storetest.Template(t, s, t0, nil)
	c := claim(t, s, tp.ID, "alice")
	ctx := t.Context()

	for _, id := range []string{c.ID + " ", c.ID + "  ", c.ID + "\t"} {
		if got, err := d.Coupon(ctx, driver.CouponParams{ID: id}); !errors.Is(err, storetype.ErrNotFound) {
			t.Fatalf("Coupon(%q): got %+v, %v; want ErrNotFound", id, got, err)
		}
		_, err := s.Transition(ctx, store.TransitionParams{CouponID: id, Action: coupon.Void, Reason: "r", Now: t0})
		var invalid *coupon.InvalidError
		if !errors.As(err, &invalid) {
			t.Fatalf("void %q: got %v, want it refused as input", id, err)
		}
	}
	if got, err := s.Coupon(ctx, c.ID); err != nil || got.Status != coupon.Unused {
		t.Fatalf("Coupon(%q) after the voids of other IDs: got %v, %v; want it unused", c.ID, got.Status, err)
	}
	if _, _, err := d.TemplateInfo(ctx, driver.TemplateInfoParams{ID: tp.ID + " ", Now: t0}); !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf("TemplateInfo(%q): got %v, want ErrNotFound", tp.ID+" ", err)
	}
	for _, user := range []string{"alice ", "alice  "} {
		cs, err := d.UserCoupons(ctx, storetype.UserCouponsParams{UserID: user, Now: t0, Limit: storetype.MaxWalletPage})
		if err != nil || len(cs) != 0 {
			t.Fatalf("UserCoupons(%q): got %d coupons, %v; want none", user, len(cs), err)
		}
	}
	if _, err := s.PutSKU(ctx, store.PutSKUParams{SKU: "sku", Stock: 1, Now: t0}); err != nil {
		t.Fatalf("PutSKU: %v", err)
	}
	if got, err := d.StockBuckets(ctx, "sku "); err != nil || len(got) != 0 {
		t.Fatalf(`StockBuckets("sku "): got %+v, %v; want none`, got, err)
	}
}

// TestByteIDsMigration: migration 0005 converts what was stored before it,
// IDs of up to 255 four-byte characters among it, and keeps it readable.
func TestByteIDsMigration(t *testing.T) {
	dbURL := freshDB(t)
	if err := mysql.MigrateTo(t.Context(), dbURL, 4); err != nil {
		t.Fatalf("migrate to 4: %v", err)
	}
	user := strings.Repeat("😀", 255) // 1,020 bytes, the most VARCHAR(255) took
	raw := rawDB(t, dbURL)
	for _, q := range []string{
		`INSERT INTO templates (id, name, value, min_spend, starts_at, duration_ms, per_user_limit, total, issued, reminders, created_at)
		 VALUES ('tpl_1', 't', 100, 0, '2026-11-10 00:00:00', 86400000, 0, 0, 1, '[]', '2026-11-10 00:00:00')`,
		`INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
		 VALUES ('cpn_1', 'tpl_1', '` + user + `', 'unused', '2026-11-11 00:00:00', '2026-11-12 00:00:00', '2026-11-11 00:00:00', 1)`,
	} {
		if _, err := raw.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	s := open(t, dbURL, mysql.Options{})
	c, err := s.Coupon(t.Context(), "cpn_1")
	if err != nil || c.UserID != user {
		t.Fatalf("Coupon after the migration: got user %q, %v; want the 255 emoji", c.UserID, err)
	}
	if _, err := s.Coupon(t.Context(), "cpn_1 "); !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf(`Coupon("cpn_1 ") after the migration: got %v, want ErrNotFound`, err)
	}
	cs, err := s.UserCoupons(t.Context(), storetype.UserCouponsParams{UserID: user, Now: t0, Limit: storetype.MaxWalletPage})
	if err != nil || len(cs) != 1 {
		t.Fatalf("UserCoupons after the migration: got %d, %v; want 1", len(cs), err)
	}
}
