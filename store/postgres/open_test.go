package postgres_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/postgres/pgtest"
)

// TestOpenTogether: instances starting at once on an empty schema all
// open it, one migrating while the others wait, and a reopened schema
// keeps its data and is not migrated again.
func TestOpenTogether(t *testing.T) {
	ctx := t.Context()
	u := pgtest.SchemaURL(t)
	const instances = 4
	stores := make([]*store.DB, instances)
	errs := make([]error, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(ctx, u, postgres.Options{})
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
	tp := template(t, stores[0])
	c, err := stores[1].Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
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
	files, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatalf("read migrations: %v", err)
	}
	var rows, version int
	if err := pgtest.Connect(t, u).QueryRow(context.Background(), "SELECT count(*), max(version) FROM schema_migrations").Scan(&rows, &version); err != nil {
		t.Fatalf("schema_migrations: %v", err)
	}
	// The newest file's number: numbers are handed out ahead, so they may
	// have gaps.
	newest, err := strconv.Atoi(strings.SplitN(files[len(files)-1].Name(), "_", 2)[0])
	if err != nil {
		t.Fatalf("migration %s: %v", files[len(files)-1].Name(), err)
	}
	if rows != len(files) || version != newest {
		t.Fatalf("schema_migrations: got %d rows up to version %d, want %d rows up to %d", rows, version, len(files), newest)
	}
}
