// Package amqp is lapse's RabbitMQ delay queue: an accelerator, like
// delayq/redis, that tells every lapse instance quickly that a group timer
// is near due. It is never the authority — the database is — so losing
// the broker, its messages or its connection loses speed and never work:
// the caller falls back to its loader and sweeper.
//
// RabbitMQ expires a message only at the head of its queue, so a queue
// with per-message TTLs makes a 1-second timer wait behind a 3-day one.
// Instead the items wait in a fixed set of delay buckets (1s, 5s, 30s, 5m,
// 30m, 2h and 1d by default), each a queue <prefix>.delay.<d> with its own
// x-message-ttl, in which the head always expires first. An item goes to
// the largest bucket not longer than what is left of its delay; when its
// TTL ends the broker dead-letters it to the headers exchange <prefix>.due,
// which routes it by its shard header to <prefix>.due.<shard>. An item
// that comes out before it is due goes to the bucket that fits the rest,
// or, with less than the smallest bucket left, is held by the claimer
// until it is due. A 3-day timer thus takes a few dozen hops and never
// holds up a 1-second one.
//
// Only the instance holding a shard claims from its due queue, as with
// the Redis queue's per-shard keys: Claim pulls the shard's queue with
// basic.get, so no message is handed to an instance that would only pass
// it on. A claimed message stays unacknowledged on the channel until the
// caller Acks its item, once the store committed its work; if the caller
// does not within the lease, or the connection is lost, the broker
// requeues it. Delivery is therefore at-least-once; lapse's transitions
// are idempotent.
//
// Every queue is bounded by x-max-length with x-overflow reject-publish:
// a publish to a full queue is refused (Add says so with ErrFull) and the
// messages queued keep their place. drop-head would drop the oldest
// messages, those nearest their TTL, and dead-letter them early, so a full
// bucket would pour into the due queues and back. A refused hint is one
// the sweeper repairs.
//
// The queue reconnects by itself: the first call after the broker closed
// the connection dials again (after a failed dial, calls fail for a second
// before the next), declares the topology again and forgets what it held,
// which the broker requeued.
//
// Queues are declared with their arguments, and the broker refuses to
// declare an existing queue with others: a bucket's TTL is in its name,
// but a new maximum length under the same prefix needs the old queues
// deleted first, or Open fails with PRECONDITION_FAILED.
package amqp
