package sqlfile

import (
	"context"
	"database/sql"
	"errors"
	"testing"
)

// TestTakeOne: a row there is read and deleted; no row is not an error
// and deletes nothing; another read error is returned as it is.
func TestTakeOne(t *testing.T) {
	rows := map[string]int{"a": 1}
	readErr := errors.New("read failed")
	get := func(_ context.Context, k string) (int, error) {
		if k == "broken" {
			return 0, readErr
		}
		n, ok := rows[k]
		if !ok {
			return 0, sql.ErrNoRows
		}
		return n, nil
	}
	del := func(_ context.Context, k string) error { delete(rows, k); return nil }
	ctx := t.Context()
	if n, ok, err := TakeOne(ctx, "a", get, del); n != 1 || !ok || err != nil || len(rows) != 0 {
		t.Fatalf("take a: %d, %v, %v, left %v; want 1, true, nil, none", n, ok, err, rows)
	}
	if _, ok, err := TakeOne(ctx, "a", get, del); ok || err != nil {
		t.Fatalf("take a again: %v, %v; want false, nil", ok, err)
	}
	if _, ok, err := TakeOne(ctx, "broken", get, del); ok || !errors.Is(err, readErr) {
		t.Fatalf("take broken: %v, %v; want false, the read's error", ok, err)
	}
}
