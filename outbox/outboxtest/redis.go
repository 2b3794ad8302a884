package outboxtest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisStream returns a client of the Redis at LAPSE_TEST_REDIS, that URL
// and the name of a fresh stream; when t ends the stream is deleted and
// the client closed. It skips t if the variable is unset.
func RedisStream(t testing.TB) (rdb *redis.Client, url, stream string) {
	t.Helper()
	url = os.Getenv("LAPSE_TEST_REDIS")
	if url == "" {
		t.Skip("LAPSE_TEST_REDIS is unset: set it to run this test against a real Redis, as .ci/services.sh does")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("LAPSE_TEST_REDIS: %v", err)
	}
	rdb = redis.NewClient(opts)
	stream = fmt.Sprintf("lapse-test-%d", time.Now().UnixNano())
	t.Cleanup(func() {
		rdb.Del(context.Background(), stream)
		rdb.Close()
	})
	return rdb, url, stream
}

// ReadStream returns the events of a stream the Redis sink wrote, in
// stream order, failing t on an entry with any field but event.
func ReadStream(t testing.TB, rdb *redis.Client, stream string) []Event {
	t.Helper()
	msgs, err := rdb.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatalf("XRANGE %s: %v", stream, err)
	}
	out := make([]Event, len(msgs))
	for i, m := range msgs {
		if len(m.Values) != 1 {
			t.Fatalf("entry %s: got fields %v, want only event", m.ID, m.Values)
		}
		s, _ := m.Values["event"].(string)
		out[i] = Decode(t, []byte(s))
	}
	return out
}
