package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SinkState reads a sink's position, lag and dead-letter counts.
func (e *executor) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := e.queryRow(ctx, "SinkState", sink, sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one transaction.
func (e *executor) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	return sqlfile.AdvanceSink(ctx, p, sqlfile.AsIs, e.exec)
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (e *executor) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := e.query(ctx, "DeadLetters", p.Sink, p.After, p.QueuedOnly, p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.DeadLetter, error) {
		var (
			d    storetype.DeadLetter
			data string
		)
		e := &d.Event
		err := row.Scan(&e.Seq, &e.ID, &e.Type, &e.Subject, &e.Time, &data, &d.Attempts, &d.Error, &d.FailedAt, &d.Queued)
		e.Data = []byte(data)
		return d, err
	})
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (e *executor) ReplayDeadLetters(ctx context.Context, sink string) (int64, error) {
	return e.sq().ReplayDeadLetters(ctx, sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (e *executor) PruneEvents(ctx context.Context, through int64) (int64, error) {
	var n int64
	if err := e.queryRow(ctx, "PrunedCount", through).Scan(&n); err != nil {
		return 0, err
	}
	return n, e.sq().PruneEvents(ctx, sql.NullInt64{Int64: through, Valid: true})
}
