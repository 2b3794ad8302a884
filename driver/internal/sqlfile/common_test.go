package sqlfile

import (
	"context"
	"slices"
	"testing"

	"github.com/lapsehq/lapse/storetype"
)

// TestSharedQueries: SharedQueries names every query Common and
// AdvanceSink run, and only those.
func TestSharedQueries(t *testing.T) {
	var ran []string
	record := func(_ context.Context, name string, _ ...any) { ran = append(ran, name) }
	c := NewCommon(func(ctx context.Context, name string, args ...any) Scanner {
		record(ctx, name, args...)
		return noRows{}
	})
	ctx := t.Context()
	c.SinkState(ctx, "s")
	AdvanceSink(ctx, storetype.AdvanceSinkParams{Dead: make([]storetype.DeadLetter, 1), Replayed: []int64{1}}, AsIs,
		func(ctx context.Context, name string, args ...any) (int64, error) {
			record(ctx, name, args...)
			return 0, nil
		})
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
