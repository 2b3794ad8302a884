package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one transaction.
func (e *executor) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	q := e.sq()
	return sqlfile.AdvanceSink(ctx, p, sqlfile.SinkSteps{
		Advance: func(ctx context.Context, sink string, position int64) error {
			return q.AdvanceSink(ctx, dbsqlc.AdvanceSinkParams{Name: sink, Position: position})
		},
		Put: func(ctx context.Context, sink string, d storetype.DeadLetter) error {
			ev := d.Event
			return q.PutDeadLetter(ctx, dbsqlc.PutDeadLetterParams{
				Sink: sink, Seq: ev.Seq, ID: ev.ID, Type: ev.Type, Subject: ev.Subject, Time: ev.Time, Data: string(ev.Data),
				Attempts: int32(d.Attempts), Error: d.Error, FailedAt: d.FailedAt,
			})
		},
		Delete: func(ctx context.Context, sink string, seq int64) error {
			return q.DeleteDeadLetter(ctx, dbsqlc.DeleteDeadLetterParams{Sink: sink, Seq: seq})
		},
	})
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (e *executor) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := e.sq().DeadLetters(ctx, dbsqlc.DeadLettersParams{
		Sink: p.Sink, After: p.After, QueuedOnly: p.QueuedOnly, Limit: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, func(r dbsqlc.DeadLettersRow) (storetype.DeadLetter, error) {
		return storetype.DeadLetter{
			Event:    storetype.Event{Seq: r.Seq, ID: r.ID, Type: r.Type, Subject: r.Subject, Time: r.Time, Data: []byte(r.Data)},
			Attempts: int(r.Attempts), Error: r.Error, FailedAt: r.FailedAt, Queued: r.Queued,
		}, nil
	})
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (e *executor) ReplayDeadLetters(ctx context.Context, sink string) (int64, error) {
	return e.sq().ReplayDeadLetters(ctx, sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (e *executor) PruneEvents(ctx context.Context, through int64) (int64, error) {
	seq := sql.NullInt64{Int64: through, Valid: true}
	n, err := e.sq().PrunedCount(ctx, seq)
	if err != nil {
		return 0, err
	}
	return n, e.sq().PruneEvents(ctx, seq)
}
