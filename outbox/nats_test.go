package outbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// natsServer connects to LAPSE_TEST_NATS and returns its URL and
// JetStream.
func natsServer(t testing.TB) (string, jetstream.JetStream) {
	t.Helper()
	url := serviceURL(t, "LAPSE_TEST_NATS")
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatalf("jetstream: %v", err)
	}
	return url, js
}

// natsStream creates a memory stream capturing prefix.>, deleted when t
// ends.
func natsStream(t testing.TB, js jetstream.JetStream, prefix string) jetstream.Stream {
	t.Helper()
	ctx := context.Background()
	s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: prefix, Subjects: []string{prefix + ".>"}, Storage: jetstream.MemoryStorage})
	if err != nil {
		t.Fatalf("create stream: %v", err)
	}
	t.Cleanup(func() { js.DeleteStream(context.Background(), prefix) })
	return s
}

// readNATS fetches every message of the stream, checking subject and
// headers.
func readNATS(t testing.TB, s jetstream.Stream, prefix string) []outboxtest.Event {
	t.Helper()
	ctx := context.Background()
	c, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatalf("stream info: %v", err)
	}
	var out []outboxtest.Event
	for uint64(len(out)) < info.State.Msgs {
		batch, err := c.Fetch(int(info.State.Msgs)-len(out), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			t.Fatalf("fetch: %v", err)
		}
		for m := range batch.Messages() {
			e := outboxtest.Decode(t, m.Data())
			if m.Subject() != prefix+"."+e.Type || m.Headers().Get(jetstream.MsgIDHeader) != e.ID || m.Headers().Get("Content-Type") != outbox.ContentType {
				t.Fatalf("message of %s: subject %q, headers %v; want %s.%s, Nats-Msg-Id %s, %s", e.ID, m.Subject(), m.Headers(), prefix, e.Type, e.ID, outbox.ContentType)
			}
			out = append(out, e)
		}
		if err := batch.Error(); err != nil {
			t.Fatalf("fetch: %v", err)
		}
	}
	return out
}

// TestNATS: with no stream capturing its subjects, publishing fails and is
// retried; once one exists, every event is stored once, in feed order.
func TestNATS(t *testing.T) {
	url, js := natsServer(t)
	prefix := strings.ReplaceAll(unique("lapse_test"), "-", "_")
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, outbox.Named{Name: "js", Type: "nats", Sink: outbox.NewNATS(url, prefix)}))
	waitFor(t, 5*time.Second, "failed attempts", func() bool { return sinkStatus(t, r, "js").Failures >= 2 })
	s := natsStream(t, js, prefix)
	waitFor(t, 10*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "js").Lag == 0 })
	outboxtest.CheckOnce(t, "delivery", want, readNATS(t, s, prefix))
}

// TestNATSDeduplicates: the same events published twice are stored once:
// Nats-Msg-Id carries the event ID.
func TestNATSDeduplicates(t *testing.T) {
	url, js := natsServer(t)
	prefix := strings.ReplaceAll(unique("lapse_test"), "-", "_")
	s := natsStream(t, js, prefix)
	_, want := storeWithHistory(t, 5, 1)
	sink := outbox.NewNATS(url, prefix)
	defer sink.Close()
	for round := range 2 {
		if n, err := sink.Deliver(context.Background(), want); n != len(want) || err != nil {
			t.Fatalf("round %d: Deliver: got %d, %v; want %d", round, n, err, len(want))
		}
	}
	outboxtest.CheckOnce(t, "stored after two deliveries", want, readNATS(t, s, prefix))
}
