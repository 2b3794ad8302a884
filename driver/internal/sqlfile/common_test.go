package sqlfile

import (
	"context"
	"slices"
	"testing"
)

// TestSharedQueries: SharedQueries names every query Common runs, and
// only those.
func TestSharedQueries(t *testing.T) {
	var ran []string
	record := func(_ context.Context, name string, _ ...any) { ran = append(ran, name) }
	c := NewCommon(func(ctx context.Context, name string, args ...any) Scanner {
		record(ctx, name, args...)
		return noRows{}
	})
	ctx := t.Context()
	c.SinkState(ctx, "s")
	slices.Sort(ran)
	want := slices.Sorted(slices.Values(SharedQueries))
	if !slices.Equal(ran, want) {
		t.Errorf("sqlfile ran %v, SharedQueries are %v", ran, want)
	}
}

// noRows is a result of no rows, and a row that scans nothing.
type noRows struct{}

func (noRows) Next() bool        { return false }
func (noRows) Scan(...any) error { return nil }
func (noRows) Err() error        { return nil }
