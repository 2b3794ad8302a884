package sqlfile

import (
	"testing"
	"testing/fstest"
)

func TestLoadQueries(t *testing.T) {
	fsys := fstest.MapFS{
		"q/a.sql": {Data: []byte("-- leading comment\n-- name: One\nSELECT 1;\n\n-- name: Two\nSELECT\n  2;\n")},
	}
	q, err := LoadQueries(fsys, "q/*.sql")
	if err != nil {
		t.Fatalf("LoadQueries: %v", err)
	}
	if got, want := q.Get("One"), "SELECT 1;"; got != want {
		t.Fatalf("One: got %q, want %q", got, want)
	}
	if got, want := q.Get("Two"), "SELECT\n  2;"; got != want {
		t.Fatalf("Two: got %q, want %q", got, want)
	}
	dup := fstest.MapFS{"a.sql": {Data: []byte("-- name: X\nA\n-- name: X\nB\n")}}
	if _, err := LoadQueries(dup, "*.sql"); err == nil {
		t.Fatalf("duplicate name: got nil error, want one")
	}
}

func TestLoadMigrationsOrder(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0002_b.sql": {Data: []byte("B")},
		"m/0001_a.sql": {Data: []byte("A")},
	}
	ms, err := LoadMigrations(fsys, "m")
	if err != nil {
		t.Fatalf("LoadMigrations: %v", err)
	}
	if len(ms) != 2 || ms[0].SQL != "A" || ms[1].Version != 2 {
		t.Fatalf("got %+v, want 0001 then 0002", ms)
	}
	for _, bad := range []fstest.MapFS{
		{"m/0001_a.sql": {Data: []byte("A")}, "m/0003_c.sql": {Data: []byte("C")}},
		{"m/0002_b.sql": {Data: []byte("B")}},
		{"m/0001_a.sql": {Data: []byte("A")}, "m/1_b.sql": {Data: []byte("B")}},
		{"m/0000_a.sql": {Data: []byte("A")}},
		{"m/init.sql": {Data: []byte("A")}},
	} {
		if _, err := LoadMigrations(bad, "m"); err == nil {
			t.Fatalf("migrations %v: got nil error, want one", bad)
		}
	}
}
