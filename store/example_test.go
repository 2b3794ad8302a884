package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Open a store, create a template, claim a coupon, and let it expire: the
// store moves it, and writes its event, only once it is due.
func Example() {
	dir, _ := os.MkdirTemp("", "lapse-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	d, err := sqlite.Open(ctx, filepath.Join(dir, "lapse.db"), sqlite.Options{})
	if err != nil {
		panic(err)
	}
	s := store.New(d, store.Options{})
	defer s.Close()

	now := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	tp, _ := s.CreateTemplate(ctx, store.CreateTemplateParams{Now: now,
		Template: coupon.Template{Name: "¥20 off", Value: 2000, StartsAt: now, Duration: time.Hour}})
	c, _ := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})

	early, _ := s.ExpireDue(ctx, storetype.DueParams{Now: c.ExpiresAt.Add(-time.Millisecond), Limit: 100})
	due, _ := s.ExpireDue(ctx, storetype.DueParams{Now: c.ExpiresAt, Limit: 100})
	got, _ := s.Coupon(ctx, c.ID)
	fmt.Println(len(early.Due), len(due.Due), got.Status)
	// Output: 0 1 expired
}
