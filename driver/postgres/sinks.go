package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SinkState reads a sink's position, lag and dead-letter counts.
func (s *Driver) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := s.readRow(ctx, "SinkState", sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one transaction.
func (t *tx) AdvanceSink(p storetype.AdvanceSinkParams) error {
	b := &pgx.Batch{}
	b.Queue(queries.Get("AdvanceSink"), p.Sink, p.Position)
	for _, d := range p.Dead {
		e := d.Event
		b.Queue(queries.Get("PutDeadLetter"), p.Sink, e.Seq, e.ID, e.Type, e.Subject, e.Time, string(e.Data),
			d.Attempts, d.Error, d.FailedAt)
	}
	for _, seq := range p.Replayed {
		b.Queue(queries.Get("DeleteDeadLetter"), p.Sink, seq)
	}
	return t.pg.SendBatch(t.ctx, b).Close()
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (s *Driver) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := s.read(ctx, "DeadLetters", p.Sink, p.After, p.QueuedOnly, p.Limit)
	if err != nil {
		return nil, err
	}
	out := []storetype.DeadLetter{}
	var d storetype.DeadLetter
	e := &d.Event
	_, err = pgx.ForEachRow(rows, []any{&e.Seq, &e.ID, &e.Type, &e.Subject, &e.Time, &e.Data, &d.Attempts, &d.Error, &d.FailedAt, &d.Queued}, func() error {
		out = append(out, d)
		return nil
	})
	return out, err
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (t *tx) ReplayDeadLetters(sink string) (int64, error) {
	tag, err := t.exec("ReplayDeadLetters", sink)
	return tag.RowsAffected(), err
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (t *tx) PruneEvents(through int64) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("PruneEvents", through))
}
