package outbox_test

import (
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// amqpBroker returns the URL of LAPSE_TEST_AMQP and a channel on it.
func amqpBroker(t testing.TB) (url string, ch *amqp.Channel) {
	t.Helper()
	url = serviceURL(t, "LAPSE_TEST_AMQP")
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { conn.Close() })
	ch, err = conn.Channel()
	if err != nil {
		t.Fatalf("channel: %v", err)
	}
	return url, ch
}

// bindQueue declares exchange (topic, auto-deleted) with an exclusive
// queue bound to every key, and returns the queue's deliveries.
func bindQueue(t testing.TB, ch *amqp.Channel, exchange string) <-chan amqp.Delivery {
	t.Helper()
	if err := ch.ExchangeDeclare(exchange, "topic", false, true, false, false, nil); err != nil {
		t.Fatalf("declare exchange: %v", err)
	}
	q, err := ch.QueueDeclare("", false, true, true, false, nil)
	if err != nil {
		t.Fatalf("declare queue: %v", err)
	}
	if err := ch.QueueBind(q.Name, "#", exchange, false, nil); err != nil {
		t.Fatalf("bind: %v", err)
	}
	msgs, err := ch.Consume(q.Name, "", true, true, false, false, nil)
	if err != nil {
		t.Fatalf("consume: %v", err)
	}
	return msgs
}

// consume reads n messages, checking each one's properties.
func consume(t testing.TB, msgs <-chan amqp.Delivery, n int) []outboxtest.Event {
	t.Helper()
	var out []outboxtest.Event
	timeout := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case m := <-msgs:
			e := outboxtest.Decode(t, m.Body)
			if m.RoutingKey != e.Type || m.MessageId != e.ID || m.Type != e.Type || m.DeliveryMode != amqp.Persistent || m.ContentType != outbox.ContentType {
				t.Fatalf("message of %s: routing key %q, message id %q, type %q, delivery mode %d, content type %q; want the event's type and ID, persistent, %s",
					e.ID, m.RoutingKey, m.MessageId, m.Type, m.DeliveryMode, m.ContentType, outbox.ContentType)
			}
			out = append(out, e)
		case <-timeout:
			t.Fatalf("messages: got %d, want %d", len(out), n)
		}
	}
	return out
}

// TestAMQP: every event is published once, confirmed, in feed order.
func TestAMQP(t *testing.T) {
	url, ch := amqpBroker(t)
	exchange := unique("lapse-test")
	msgs := bindQueue(t, ch, exchange)
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, outbox.Named{Name: "mq", Type: "amqp", Sink: outbox.NewAMQP(url, exchange)}))
	got := consume(t, msgs, len(want))
	waitFor(t, 5*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "mq").Lag == 0 })
	outboxtest.CheckOnce(t, "delivery", want, got)
}

// TestAMQPMissingExchange: publishing to an exchange that does not exist
// fails with the broker's reason and is retried on a new connection; once
// the exchange is declared everything arrives.
func TestAMQPMissingExchange(t *testing.T) {
	url, ch := amqpBroker(t)
	exchange := unique("lapse-test")
	st, want := storeWithHistory(t, 10, 1)
	r := startRelay(t, relayConfig(st, outbox.Named{Name: "mq", Type: "amqp", Sink: outbox.NewAMQP(url, exchange)}))
	waitFor(t, 5*time.Second, "failed attempts", func() bool { return sinkStatus(t, r, "mq").Failures >= 2 })
	if s := sinkStatus(t, r, "mq"); !strings.Contains(s.LastError, "NOT_FOUND") {
		t.Fatalf("last error: got %q, want the broker's NOT_FOUND", s.LastError)
	}
	// Declared with a queue behind it in one step, through an alternate
	// exchange, so that no confirmed message finds no queue.
	msgs := bindQueue(t, ch, exchange+"-alt")
	if err := ch.ExchangeDeclare(exchange, "topic", false, false, false, false, amqp.Table{"alternate-exchange": exchange + "-alt"}); err != nil {
		t.Fatalf("declare exchange: %v", err)
	}
	t.Cleanup(func() { ch.ExchangeDelete(exchange, false, false) })
	outboxtest.Check(t, want, consume(t, msgs, len(want)))
}
