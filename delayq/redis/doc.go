// Package redis is lapse's Redis delay queue: an accelerator that tells
// every lapse instance quickly that a group timer is near due. It is never
// the authority — the database is — so losing Redis, or its data, loses
// speed and never work: the caller falls back to its sweeper.
//
// Due work is split into lapse shards 0..N-1. Each shard has two sorted
// sets, <prefix>:{<shard>}:due scored by due time and
// <prefix>:{<shard>}:inflight scored by lease end; the braces are a Redis
// Cluster hash tag, so one Lua script touches one slot, and a storm due in
// one second is spread over N keys.
//
// Popping due members with ZREM and then doing the work loses the work if
// the process dies in between (seed 000 §3.3). Instead Claim moves due
// items into the in-flight set under a lease in one script, Ack removes
// them once the store has committed their work, and a later Claim takes
// back any item whose lease ended unacked. Delivery is therefore
// at-least-once; lapse's transitions are idempotent.
//
// Times are kept to the millisecond: a due time is rounded up and the
// caller's now, taken from lapse's clock rather than Redis TIME, is rounded
// down, so an item is never claimed before it is due.
package redis
