package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one transaction.
func (e *executor) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	q := e.q()
	return sqlfile.AdvanceSink(ctx, p, sqlfile.SinkSteps{
		Advance: func(ctx context.Context, sink string, position int64) error {
			return q.AdvanceSink(ctx, dbsqlc.AdvanceSinkParams{Name: sink, Position: position})
		},
		Put: func(ctx context.Context, sink string, d storetype.DeadLetter) error {
			ev := d.Event
			return q.PutDeadLetter(ctx, dbsqlc.PutDeadLetterParams{
				Sink: sink, Seq: ev.Seq, ID: ev.ID, Type: ev.Type, Subject: ev.Subject, Time: ms(ev.Time), Data: string(ev.Data),
				Attempts: int64(d.Attempts), Error: d.Error, FailedAt: ms(d.FailedAt),
			})
		},
		Delete: func(ctx context.Context, sink string, seq int64) error {
			return q.DeleteDeadLetter(ctx, dbsqlc.DeleteDeadLetterParams{Sink: sink, Seq: seq})
		},
	})
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (e *executor) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := e.q().DeadLetters(ctx, dbsqlc.DeadLettersParams{
		Sink: p.Sink, After: p.After, QueuedOnly: p.QueuedOnly, PageSize: int64(p.Limit),
	})
	return sqlfile.Convert(rows, err, func(r dbsqlc.DeadLettersRow) (storetype.DeadLetter, error) {
		return storetype.DeadLetter{
			Event:    storetype.Event{Seq: r.Seq, ID: r.ID, Type: r.Type, Subject: r.Subject, Time: at(r.Time), Data: []byte(r.Data)},
			Attempts: int(r.Attempts), Error: r.Error, FailedAt: at(r.FailedAt), Queued: r.Queued != 0,
		}, nil
	})
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (e *executor) ReplayDeadLetters(ctx context.Context, sink string) (int64, error) {
	return e.q().ReplayDeadLetters(ctx, sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (e *executor) PruneEvents(ctx context.Context, through int64) (int64, error) {
	ns, err := e.q().PruneEvents(ctx, through)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, n := range ns {
		total += n
	}
	return total, nil
}
