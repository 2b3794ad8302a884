package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SinkState reads a sink's position, lag and dead-letter counts.
func (e *executor) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := e.queryRow(ctx, "SinkState", sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one round trip.
func (e *executor) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	b := &pgx.Batch{}
	sqlfile.AdvanceSink(ctx, p, sqlfile.AsIs, func(_ context.Context, name string, args ...any) (*pgx.QueuedQuery, error) {
		return b.Queue(queries.Get(name), args...), nil
	})
	return e.q.SendBatch(ctx, b).Close()
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (e *executor) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := e.query(ctx, "DeadLetters", p.Sink, p.After, p.QueuedOnly, p.Limit)
	if err != nil {
		return nil, err
	}
	out := []storetype.DeadLetter{}
	var d storetype.DeadLetter
	ev := &d.Event
	_, err = pgx.ForEachRow(rows, []any{&ev.Seq, &ev.ID, &ev.Type, &ev.Subject, &ev.Time, &ev.Data, &d.Attempts, &d.Error, &d.FailedAt, &d.Queued}, func() error {
		out = append(out, d)
		return nil
	})
	return out, err
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (e *executor) ReplayDeadLetters(ctx context.Context, sink string) (int64, error) {
	return e.sqlc().ReplayDeadLetters(ctx, sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (e *executor) PruneEvents(ctx context.Context, through int64) (int64, error) {
	return sqlfile.ScanInt64(e.queryRow(ctx, "PruneEvents", through))
}
