package outbox

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// Sink is a system the relay delivers events to.
type Sink interface {
	// Deliver sends evs in order and returns how many of them, from the
	// front, the target acknowledged. With an error, the events after those
	// were not acknowledged, though some may have arrived: the relay sends
	// them again, with the same IDs.
	Deliver(ctx context.Context, evs []store.Event) (int, error)
	// Close releases the sink's connections.
	Close() error
}

// Named is a sink with the name its position is kept under and its type
// (webhook, redis, amqp, nats), as GET /v1/sinks shows them.
type Named struct {
	Name string
	Type string
	Sink Sink
}
