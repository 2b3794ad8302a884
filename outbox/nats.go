package outbox

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/lapsehq/lapse/storetype"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATS publishes events to JetStream on subject <prefix>.<event type>,
// with Nats-Msg-Id set to the event ID so that the server drops a
// redelivery within the stream's duplicate window. A stream must capture
// the subjects; a message is acknowledged when JetStream stored it. It
// connects on first use; the client reconnects on its own after that.
type NATS struct {
	url    string
	prefix string

	mu sync.Mutex // guards the connection against Close
	nc *nats.Conn
	js jetstream.JetStream
}

// NewNATS returns a sink publishing under prefix on the server at url.
func NewNATS(url, prefix string) *NATS {
	return &NATS{url: url, prefix: prefix}
}

// Deliver publishes evs asynchronously and waits for their acks, in order.
func (s *NATS) Deliver(ctx context.Context, evs []storetype.Event) (int, error) {
	js, err := s.jetStream()
	if err != nil {
		return 0, err
	}
	return pipeline(evs,
		func(e storetype.Event, b []byte) (jetstream.PubAckFuture, error) {
			msg := nats.NewMsg(s.prefix + "." + e.Type)
			msg.Data = b
			msg.Header.Set("Content-Type", ContentType)
			f, err := js.PublishMsgAsync(msg, jetstream.WithMsgID(e.ID))
			if err != nil {
				return nil, fmt.Errorf("nats publish: %w", err)
			}
			return f, nil
		},
		nil,
		func(f jetstream.PubAckFuture) error {
			select {
			case <-f.Ok():
				return nil
			case err := <-f.Err():
				return fmt.Errorf("nats publish: %w", err)
			case <-ctx.Done():
				return ctx.Err()
			}
		})
}

// jetStream returns the JetStream context, connecting if needed.
func (s *NATS) jetStream() (jetstream.JetStream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.js != nil {
		return s.js, nil
	}
	nc, err := nats.Connect(s.url, nats.Name("lapse"), nats.MaxReconnects(-1), nats.ErrorHandler(logAsync))
	if err != nil {
		return nil, fmt.Errorf("nats connect: %w", err)
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(10*time.Second))
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("nats jetstream: %w", err)
	}
	s.nc, s.js = nc, js
	return js, nil
}

// logAsync logs an error the NATS client meets outside a call (a slow
// consumer, a permission refused) to slog's default, lapse serve's log,
// in place of the client's own line on stderr.
func logAsync(_ *nats.Conn, _ *nats.Subscription, err error) {
	slog.Default().Warn("outbox: nats", slog.Any("err", err))
}

// Close closes the connection.
func (s *NATS) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nc != nil {
		s.nc.Close()
	}
	s.nc, s.js = nil, nil
	return nil
}
