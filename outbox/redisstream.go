package outbox

import (
	"context"
	"fmt"

	"github.com/lapsehq/lapse/storetype"
	"github.com/redis/go-redis/v9"
)

// RedisStream appends events to a Redis stream with XADD, one field
// "event" holding the CloudEvent JSON, pipelining a batch in one round
// trip. MaxLen, if set, caps the stream approximately (MAXLEN ~).
type RedisStream struct {
	client *redis.Client
	stream string
	maxLen int64
}

// NewRedisStream returns a sink appending to stream through client, which
// it closes on Close.
func NewRedisStream(client *redis.Client, stream string, maxLen int64) *RedisStream {
	return &RedisStream{client: client, stream: stream, maxLen: maxLen}
}

// Deliver XADDs evs in one pipeline; Redis runs them in order.
func (s *RedisStream) Deliver(ctx context.Context, evs []storetype.Event) (int, error) {
	pipe := s.client.Pipeline()
	return pipeline(evs,
		func(_ storetype.Event, b []byte) (*redis.StringCmd, error) {
			return pipe.XAdd(ctx, &redis.XAddArgs{Stream: s.stream, MaxLen: s.maxLen, Approx: s.maxLen > 0, Values: []any{"event", b}}), nil
		},
		func() { pipe.Exec(ctx) }, // each command carries its own error
		func(c *redis.StringCmd) error {
			if err := c.Err(); err != nil {
				return fmt.Errorf("redis xadd %s: %w", s.stream, err)
			}
			return nil
		})
}

// Close closes the client.
func (s *RedisStream) Close() error { return s.client.Close() }
