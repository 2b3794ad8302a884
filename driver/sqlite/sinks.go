package sqlite

import (
	"context"

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
	if _, err := t.exec("AdvanceSink", p.Sink, p.Position); err != nil {
		return err
	}
	for _, d := range p.Dead {
		e := d.Event
		if _, err := t.exec("PutDeadLetter", p.Sink, e.Seq, e.ID, e.Type, e.Subject, ms(e.Time), string(e.Data),
			d.Attempts, d.Error, ms(d.FailedAt)); err != nil {
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
	rows, err := s.read(ctx, "DeadLetters", p.Sink, p.After, p.QueuedOnly, p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.DeadLetter, error) {
		var (
			d         storetype.DeadLetter
			t, failed int64
			data      string
		)
		e := &d.Event
		err := row.Scan(&e.Seq, &e.ID, &e.Type, &e.Subject, &t, &data, &d.Attempts, &d.Error, &failed, &d.Queued)
		e.Time, e.Data, d.FailedAt = at(t), []byte(data), at(failed)
		return d, err
	})
}

// ReplayDeadLetters queues every dead letter of sink for redelivery.
func (t *tx) ReplayDeadLetters(sink string) (int64, error) {
	return t.execCount("ReplayDeadLetters", sink)
}

// PruneEvents deletes the records ending at or before through and
// returns how many events they held.
func (t *tx) PruneEvents(through int64) (int64, error) {
	rows, err := t.query("PruneEvents", through)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var total int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, rows.Err()
}
