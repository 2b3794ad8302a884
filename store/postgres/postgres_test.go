package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/storetest"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// schemaURL creates a fresh schema on LAPSE_TEST_POSTGRES, dropped when t
// ends, and returns the URL of the database with search_path set to it
// and the schema's name as application_name, so that a test can find its
// own sessions in pg_stat_activity. It skips t when the variable is unset.
func schemaURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("LAPSE_TEST_POSTGRES")
	if base == "" {
		t.Skip("LAPSE_TEST_POSTGRES is unset: set it to a PostgreSQL URL (postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL store tests")
	}
	b := make([]byte, 8)
	rand.Read(b)
	schema := "lapse_test_" + hex.EncodeToString(b)
	admin := connect(t, base)
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// connect opens one plain connection, closed when t ends.
func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// open opens a store on url, closed when t ends.
func open(t testing.TB, url string, opts postgres.Options) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, schemaURL(t), postgres.Options{})
	})
}

func TestHooks(t *testing.T) {
	storetest.RunHooks(t, func(t *testing.T, h store.Hooks) store.Store {
		return open(t, schemaURL(t), postgres.Options{Hooks: h})
	})
}

// template creates a 24h template claimable from a day before t0.
func template(t *testing.T, s store.Store) coupon.Template {
	t.Helper()
	tp := coupon.Template{Name: "t", Value: 100, StartsAt: t0.Add(-24 * time.Hour), Duration: 24 * time.Hour}
	got, err := s.CreateTemplate(t.Context(), store.CreateTemplateParams{Template: tp, Now: tp.StartsAt})
	if err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	return got
}
