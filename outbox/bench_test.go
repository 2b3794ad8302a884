package outbox_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// BenchmarkDeliver measures how many events per second the relay delivers
// to each kind of sink: each iteration delivers the whole feed (20,000
// events of interleaved coupons) to a sink of a new name, in the relay's
// default batches of 500, from the first read to the last position stored.
//
//	go test -run '^$' -bench Deliver -benchtime 3x ./outbox
//
// Redis, AMQP and NATS run when LAPSE_TEST_REDIS, LAPSE_TEST_AMQP and
// LAPSE_TEST_NATS are set.
func BenchmarkDeliver(b *testing.B) {
	st := openStore(b, nil)
	history(b, st, 4000, 2)
	evs := outboxtest.Feed(b, st)
	last := evs[len(evs)-1].Seq
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rcv.Close()
	secret, err := outbox.ParseWebhookSecret(outboxtest.TestSecret)
	if err != nil {
		b.Fatal(err)
	}
	webhook := func(batch int) func(b *testing.B) outbox.Sink {
		return func(*testing.B) outbox.Sink {
			return outbox.NewWebhook(outbox.WebhookConfig{URL: rcv.URL, Batch: batch, Secret: secret, Now: time.Now})
		}
	}
	cases := []struct {
		name string
		sink func(b *testing.B) outbox.Sink
	}{
		{"webhook", webhook(1)},
		{"webhook-batch100", webhook(100)},
		{"redis", benchRedis},
		{"amqp", benchAMQP},
		{"nats", benchNATS},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var elapsed time.Duration
			i := 0
			for b.Loop() {
				i++
				name := unique(c.name) // a sink at the start of the feed
				cfg := relayConfig(st, outbox.Named{Name: name, Type: c.name, Sink: c.sink(b)})
				cfg.BatchSize = 0 // the default
				r, err := outbox.New(cfg)
				if err != nil {
					b.Fatalf("relay: %v", err)
				}
				start := time.Now()
				r.Start(context.Background())
				for {
					s, err := st.SinkState(context.Background(), name)
					if err != nil {
						b.Fatalf("SinkState: %v", err)
					}
					if s.Position == last {
						break
					}
					time.Sleep(time.Millisecond)
				}
				elapsed += time.Since(start)
				r.Stop()
			}
			b.ReportMetric(float64(len(evs)*i)/elapsed.Seconds(), "events/s")
		})
	}
}

func benchRedis(b *testing.B) outbox.Sink {
	rdb, _, stream := outboxtest.RedisStream(b)
	return outbox.NewRedisStream(redis.NewClient(rdb.Options()), stream, 0)
}

// benchAMQP publishes to an exchange with a durable queue bound, so that
// the broker confirms persistent messages once it has stored them.
func benchAMQP(b *testing.B) outbox.Sink {
	url, ch := amqpBroker(b)
	exchange := unique("lapse-bench")
	if err := ch.ExchangeDeclare(exchange, "topic", false, false, false, false, nil); err != nil {
		b.Fatalf("declare exchange: %v", err)
	}
	q, err := ch.QueueDeclare(exchange, true, false, false, false, amqp.Table{"x-queue-type": "classic"})
	if err != nil {
		b.Fatalf("declare queue: %v", err)
	}
	if err := ch.QueueBind(q.Name, "#", exchange, false, nil); err != nil {
		b.Fatalf("bind: %v", err)
	}
	b.Cleanup(func() {
		ch.QueueDelete(q.Name, false, false, false)
		ch.ExchangeDelete(exchange, false, false)
	})
	return outbox.NewAMQP(url, exchange)
}

// benchNATS publishes to a file-backed stream.
func benchNATS(b *testing.B) outbox.Sink {
	url, js := natsServer(b)
	prefix := "lapse_bench_" + fmt.Sprint(time.Now().UnixNano())
	if _, err := js.CreateStream(context.Background(), jetstream.StreamConfig{Name: prefix, Subjects: []string{prefix + ".>"}, Storage: jetstream.FileStorage}); err != nil {
		b.Fatalf("create stream: %v", err)
	}
	b.Cleanup(func() { js.DeleteStream(context.Background(), prefix) })
	return outbox.NewNATS(url, prefix)
}

// BenchmarkStormWhileDelivering measures the expiry engine draining a
// storm of 20,000 coupons due in the same instant, with no relay, with a
// relay delivering every event to a webhook as it is committed, and with
// a relay whose only sink hangs: how fast the storm drains, and so the
// expiry lag of its last coupon.
//
//	go test -run '^$' -bench StormWhileDelivering -benchtime 3x ./outbox
func BenchmarkStormWhileDelivering(b *testing.B) {
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer fast.Close()
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hung.Close()
	defer close(release)
	cases := []struct {
		name string
		url  string
	}{{"no-relay", ""}, {"webhook-batch100", fast.URL}, {"hung-webhook", hung.URL}}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var drained time.Duration
			n := 0
			for b.Loop() {
				drained += stormOnce(b, c.url)
				n++
			}
			b.ReportMetric(float64(stormSize*n)/drained.Seconds(), "expired/s")
			b.ReportMetric(float64(drained.Milliseconds())/float64(n), "last-lag-ms")
		})
	}
}

// stormSize is how many coupons a benchmark storm expires.
const stormSize = 20000

// stormOnce drains one storm, with a relay delivering to a batched webhook
// at url if url is set, and returns how long the drain took.
func stormOnce(b *testing.B, url string) time.Duration {
	var r *outbox.Relay
	st, eng := newStorm(b, stormSize, func() { r.Notify() })
	if url != "" {
		cfg := relayConfig(st, outbox.Named{Name: "hook", Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{URL: url, Batch: 100, Now: time.Now})})
		cfg.BatchSize = 0
		r = startRelay(b, cfg)
	}
	d := drain(b, st, eng)
	eng.Stop()
	if r != nil {
		r.Stop()
	}
	return d
}
