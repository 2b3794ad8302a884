package postgres_test

import (
	"sync"
	"testing"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/migratetest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestOpenTogether: instances starting at once on an empty schema all
// open it, one migrating while the others wait (one applies every
// migration, the others none), and a reopened schema keeps its data.
func TestOpenTogether(t *testing.T) { openTogether(t, pgtest.SchemaURL(t)) }

// openTogether runs TestOpenTogether on the empty database at u.
func openTogether(t *testing.T, u string) {
	ctx := t.Context()
	const instances = 4
	stores := make([]*postgres.Driver, instances)
	errs := make([]error, instances)
	changes := make([]storetype.SchemaChange, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			migrated := func(c storetype.SchemaChange) { changes[i] = c }
			stores[i], errs[i] = postgres.Open(ctx, u, postgres.Options{OnMigrated: migrated})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: Open: %v", i, err)
		}
		if err := stores[i].Ready(ctx); err != nil {
			t.Fatalf("instance %d: Ready: %v", i, err)
		}
	}
	tp := storetest.Template(t, store.New(stores[0], store.Options{}), t0, nil)
	c, err := store.New(stores[1], store.Options{}).Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	for _, s := range stores {
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}

	s := open(t, u, postgres.Options{})
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("reopened: Ready: %v", err)
	}
	got, err := s.Coupon(ctx, c.ID)
	if err != nil || got.Status != coupon.Unused || got.UserID != "u1" {
		t.Fatalf("reopened: Coupon: got %+v (err %v), want %s unused for u1", got, err, c.ID)
	}
	migratetest.Together(t, changes)
}
