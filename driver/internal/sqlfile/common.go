package sqlfile

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// Common is the statements every SQL driver runs alike, with the same
// named query and arguments on each store, written once: an executor
// embeds it (see NewCommon), and its methods are the executor's.
type Common struct {
	queryRow func(ctx context.Context, name string, args ...any) Scanner
}

// NewCommon returns the Common statements run with a driver executor's
// queryRow, which runs a named query (queries.Get) where the executor
// runs them: in its transaction, or outside one.
func NewCommon[S Scanner](queryRow func(ctx context.Context, name string, args ...any) S) Common {
	return Common{queryRow: func(ctx context.Context, name string, args ...any) Scanner {
		return queryRow(ctx, name, args...)
	}}
}

// SinkState reads a sink's position, lag and dead-letter counts.
func (c Common) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := c.queryRow(ctx, "SinkState", sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// SharedQueries names the queries sqlfile runs by name, those of the
// Common statements: each driver has them all in its queries.
var SharedQueries = []string{"SinkState"}
