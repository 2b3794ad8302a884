package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one round trip.
func (e *executor) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	b := &pgx.Batch{}
	sqlfile.AdvanceSink(ctx, p, sqlfile.SinkSteps{
		Advance: func(_ context.Context, sink string, position int64) error {
			b.Queue(queries.Get("AdvanceSink"), sink, position)
			return nil
		},
		Put: func(_ context.Context, sink string, d storetype.DeadLetter) error {
			ev := d.Event
			b.Queue(queries.Get("PutDeadLetter"), sink, ev.Seq, ev.ID, ev.Type, ev.Subject, ev.Time, string(ev.Data),
				d.Attempts, d.Error, d.FailedAt)
			return nil
		},
		Delete: func(_ context.Context, sink string, seq int64) error {
			b.Queue(queries.Get("DeleteDeadLetter"), sink, seq)
			return nil
		},
	})
	return e.q.SendBatch(ctx, b).Close()
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (e *executor) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := e.sqlc().DeadLetters(ctx, dbsqlc.DeadLettersParams{
		Sink: p.Sink, After: p.After, QueuedOnly: p.QueuedOnly, PageSize: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, func(r dbsqlc.DeadLettersRow) (storetype.DeadLetter, error) {
		return storetype.DeadLetter{
			Event:    storetype.Event{Seq: r.Seq, ID: r.ID, Type: r.Type, Subject: r.Subject, Time: r.Time, Data: r.Data},
			Attempts: int(r.Attempts), Error: r.Error, FailedAt: r.FailedAt, Queued: r.Queued,
		}, nil
	})
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (e *executor) ReplayDeadLetters(ctx context.Context, sink string) (int64, error) {
	return e.sqlc().ReplayDeadLetters(ctx, sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (e *executor) PruneEvents(ctx context.Context, through int64) (int64, error) {
	return e.sqlc().PruneEvents(ctx, &through)
}
