package sqlfile

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// SinkSteps are a store's statements of AdvanceSink: the sink's new
// position, a new dead letter, the removal of one a replay delivered.
// Each runs its statement (sqlc's) or queues it in a batch.
type SinkSteps struct {
	Advance func(ctx context.Context, sink string, position int64) error
	Put     func(ctx context.Context, sink string, d storetype.DeadLetter) error
	Delete  func(ctx context.Context, sink string, seq int64) error
}

// AdvanceSink runs the steps of p with s, in order, until one fails: the
// sink's new position, each new dead letter, and the removal of each one
// a replay delivered.
func AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams, s SinkSteps) error {
	if err := s.Advance(ctx, p.Sink, p.Position); err != nil {
		return err
	}
	for _, d := range p.Dead {
		if err := s.Put(ctx, p.Sink, d); err != nil {
			return err
		}
	}
	for _, seq := range p.Replayed {
		if err := s.Delete(ctx, p.Sink, seq); err != nil {
			return err
		}
	}
	return nil
}
