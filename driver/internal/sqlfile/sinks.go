package sqlfile

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// AdvanceSink runs the statements of AdvanceSink p with exec (a driver
// executor's, or one that queues them in a batch), in order, until one
// fails: the sink's new position, each new dead letter, with its times as
// at writes them, and the removal of each one a replay delivered.
func AdvanceSink[X any](ctx context.Context, p storetype.AdvanceSinkParams, at func(time.Time) any,
	exec func(ctx context.Context, name string, args ...any) (X, error)) error {
	if _, err := exec(ctx, "AdvanceSink", p.Sink, p.Position); err != nil {
		return err
	}
	for _, d := range p.Dead {
		ev := d.Event
		if _, err := exec(ctx, "PutDeadLetter", p.Sink, ev.Seq, ev.ID, ev.Type, ev.Subject, at(ev.Time), string(ev.Data),
			d.Attempts, d.Error, at(d.FailedAt)); err != nil {
			return err
		}
	}
	for _, seq := range p.Replayed {
		if _, err := exec(ctx, "DeleteDeadLetter", p.Sink, seq); err != nil {
			return err
		}
	}
	return nil
}

// AsIs writes a time as it is, a time.Time, as the database servers'
// drivers take it.
func AsIs(t time.Time) any { return t }
