package outbox

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// Sink is a system the relay delivers events to.
type Sink interface {
	// Deliver sends evs in order and returns how many of them, from the
	// front, the target acknowledged. With an error, the events after those
	// were not acknowledged, though some may have arrived: the relay sends
	// them again, with the same IDs.
	Deliver(ctx context.Context, evs []storetype.Event) (int, error)
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

// pipeline sends the CloudEvent of each event with send, which queues it
// without waiting for the target, then flush (if set) sends what is
// queued, then wait takes each acknowledgement in order. It returns how
// many events, from the front, were acknowledged.
func pipeline[A any](evs []storetype.Event, send func(storetype.Event, []byte) (A, error), flush func(), wait func(A) error) (int, error) {
	acks := make([]A, 0, len(evs))
	var sendErr error
	for _, e := range evs {
		b, err := Encode(e)
		if err == nil {
			var a A
			if a, err = send(e, b); err == nil {
				acks = append(acks, a)
				continue
			}
		}
		sendErr = err
		break
	}
	if flush != nil {
		flush()
	}
	for i, a := range acks {
		if err := wait(a); err != nil {
			return i, err
		}
	}
	return len(acks), sendErr
}
