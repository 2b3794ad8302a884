package sqlfile

import (
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// AdvanceSink hands the statements of AdvanceSink p to run, in order,
// until one fails: the sink's new position, each new dead letter, with
// its times as at writes them, and the removal of each one a replay
// delivered.
func AdvanceSink(p storetype.AdvanceSinkParams, at func(time.Time) any, run func(name string, args ...any) error) error {
	if err := run("AdvanceSink", p.Sink, p.Position); err != nil {
		return err
	}
	for _, d := range p.Dead {
		ev := d.Event
		if err := run("PutDeadLetter", p.Sink, ev.Seq, ev.ID, ev.Type, ev.Subject, at(ev.Time), string(ev.Data),
			d.Attempts, d.Error, at(d.FailedAt)); err != nil {
			return err
		}
	}
	for _, seq := range p.Replayed {
		if err := run("DeleteDeadLetter", p.Sink, seq); err != nil {
			return err
		}
	}
	return nil
}

// AsIs writes a time as it is, a time.Time, as the database servers'
// drivers take it.
func AsIs(t time.Time) any { return t }
