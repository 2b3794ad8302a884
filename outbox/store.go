package outbox

import (
	"context"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Store is what the relay calls of the store (*store.DB implements it):
// the feed, each sink's stored state, and the dead letters.
type Store interface {
	// Events reads the feed after a cursor, in commit order (runner.go).
	Events(ctx context.Context, p store.EventsParams) ([]storetype.Event, error)
	// SinkState, AdvanceSink and DeadLetters keep a sink's position and
	// dead letters (runner.go, metrics.go).
	SinkState(ctx context.Context, sink string) (storetype.SinkState, error)
	AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error
	DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error)
	// ReplayDeadLetters queues a sink's dead letters again (Relay.Replay).
	ReplayDeadLetters(ctx context.Context, p store.ReplayDeadLettersParams) (int64, error)
	// PruneEvents deletes what every sink delivered (prune.go).
	PruneEvents(ctx context.Context, p store.PruneParams) (int64, error)
}
