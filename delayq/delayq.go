// Package delayq names what lapse's delay queues hold: group timers near
// due, per shard. delayq/redis holds them in Redis, delayq/amqp in
// RabbitMQ; the engine claims them for the shards it holds and
// acknowledges them once their work committed.
package delayq

import "time"

// Item is one near-due group timer: work of Kind in lapse shard Shard falls
// due at Due.
type Item struct {
	Kind  string
	Shard int
	Due   time.Time
}
