package outbox

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/lapsehq/lapse/storetype"
	amqp "github.com/rabbitmq/amqp091-go"
)

// AMQP publishes events to a RabbitMQ exchange, which must exist: routing
// key the event type, persistent, with publisher confirms. A message is
// acknowledged when the broker confirms it (whether a queue is bound is
// the exchange's business). It connects on first use and again after any
// failure.
type AMQP struct {
	url      string
	exchange string

	mu     sync.Mutex // guards the connection against Close
	conn   *amqp.Connection
	ch     *amqp.Channel
	closed chan *amqp.Error // the channel's close reason
}

// NewAMQP returns a sink publishing to exchange on the broker at url.
func NewAMQP(url, exchange string) *AMQP {
	return &AMQP{url: url, exchange: exchange}
}

// Deliver publishes evs and waits for their confirms, in order. Any
// failure drops the connection, so the next delivery dials again.
func (a *AMQP) Deliver(ctx context.Context, evs []storetype.Event) (int, error) {
	ch, err := a.channel()
	if err != nil {
		return 0, err
	}
	n, err := pipeline(evs,
		func(e storetype.Event, b []byte) (*amqp.DeferredConfirmation, error) {
			dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, a.exchange, e.Type, false, false, amqp.Publishing{
				ContentType:  ContentType,
				DeliveryMode: amqp.Persistent,
				MessageId:    e.ID,
				Type:         e.Type,
				Timestamp:    e.Time,
				AppId:        "lapse",
				Body:         b,
			})
			if err != nil {
				return nil, fmt.Errorf("amqp publish: %w", err)
			}
			return dc, nil
		},
		nil,
		func(dc *amqp.DeferredConfirmation) error {
			ok, err := dc.WaitContext(ctx)
			if err != nil || !ok {
				return fmt.Errorf("amqp confirm: %w", a.orNack(err))
			}
			return nil
		})
	if err != nil {
		a.reset()
	}
	return n, err
}

// orNack explains a negative confirm: the channel's close reason if it
// was closed (a missing exchange closes it), else a nack.
func (a *AMQP) orNack(err error) error {
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	select {
	case e, ok := <-a.closed:
		if ok && e != nil {
			return e
		}
	default:
	}
	return errors.New("nacked by the broker")
}

// channel returns the open channel in confirm mode, dialing if needed.
func (a *AMQP) channel() (*amqp.Channel, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ch != nil && !a.ch.IsClosed() {
		return a.ch, nil
	}
	a.closeLocked()
	conn, err := amqp.Dial(a.url)
	if err != nil {
		return nil, fmt.Errorf("amqp dial: %w", err)
	}
	ch, err := conn.Channel()
	if err == nil {
		err = ch.Confirm(false)
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("amqp channel: %w", err)
	}
	a.conn, a.ch, a.closed = conn, ch, ch.NotifyClose(make(chan *amqp.Error, 1))
	return ch, nil
}

// reset drops the connection so that the next delivery dials again.
func (a *AMQP) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closeLocked()
}

func (a *AMQP) closeLocked() {
	if a.conn != nil {
		a.conn.Close()
	}
	a.conn, a.ch, a.closed = nil, nil, nil
}

// Close closes the connection.
func (a *AMQP) Close() error {
	a.reset()
	return nil
}
