package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SinkState reads a sink's position, lag and dead-letter counts.
func (s *Driver) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := s.queryRow(ctx, "SinkState", sink, sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// AdvanceSink stores a sink's new position, its new dead letters and the
// removal of those a replay delivered, in one transaction.
func (t *tx) AdvanceSink(p storetype.AdvanceSinkParams) error {
	if _, err := t.exec("AdvanceSink", p.Sink, p.Position); err != nil {
		return err
	}
	for _, d := range p.Dead {
		e := d.Event
		if _, err := t.exec("PutDeadLetter", p.Sink, e.Seq, e.ID, e.Type, e.Subject, e.Time, string(e.Data),
			d.Attempts, d.Error, d.FailedAt); err != nil {
			return err
		}
	}
	for _, seq := range p.Replayed {
		if _, err := t.exec("DeleteDeadLetter", p.Sink, seq); err != nil {
			return err
		}
	}
	return nil
}

// DeadLetters lists a sink's dead letters after p.After, in feed order.
func (s *Driver) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	rows, err := s.query(ctx, "DeadLetters", p.Sink, p.After, p.QueuedOnly, p.Limit)
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
func (t *tx) ReplayDeadLetters(sink string) (int64, error) {
	return rowsAffected(t.exec("ReplayDeadLetters", sink))
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (t *tx) PruneEvents(through int64) (int64, error) {
	var n int64
	if err := t.queryRow("PrunedCount", through).Scan(&n); err != nil {
		return 0, err
	}
	_, err := t.exec("PruneEvents", through)
	return n, err
}

// rowsAffected is how many rows a statement changed.
func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
