package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// Template creates, for a backend's own tests, a template of 24h coupons
// claimable from a day before at, edited by edit if not nil.
func Template(t testing.TB, s store.Store, at time.Time, edit func(*coupon.Template)) coupon.Template {
	t.Helper()
	tp := coupon.Template{Name: "t", Value: 100, StartsAt: at.Add(-24 * time.Hour), Duration: 24 * time.Hour}
	if edit != nil {
		edit(&tp)
	}
	got, err := s.CreateTemplate(t.Context(), store.CreateTemplateParams{Template: tp, Now: tp.StartsAt})
	if err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	return got
}
