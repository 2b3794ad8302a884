// Package mysql is the driver of lapse's store (store.DB over it) on
// MySQL 8 or MariaDB 10.6+ through github.com/go-sql-driver/mysql, for
// lapse instances that share one database.
//
// Write transactions run at READ COMMITTED. Due work is claimed with
// SELECT … FOR UPDATE SKIP LOCKED and changed by ID, so instances draining
// side by side take disjoint batches. A drain batch reads, without
// locking, how many of its earliest due rows each of its shards holds,
// then walks those shards one at a time, each a range of a due index led
// by (state, shard), for that many: InnoDB locks every entry a locking
// read passes, so a walk that passed other shards' due rows would hold
// them too, and in a storm fill the buffer pool with lock heaps; a batch
// holds the rows it claims and no more. Every transition is a guarded
// compare-and-set. A transaction buffers the counts, group timers and
// events it writes and flushes them at its end in one fixed order (counts,
// timers, then the outbox records), which keeps the lock order the same
// in every transaction; a deadlock that happens anyway is retried. The
// transaction's blind writes (an order's row, a user's activity, and what
// it flushes) travel in the round trip of its next statement, as one
// multi-statement query (see batch).
//
// A transaction's events are one outbox record (storetype.Record) inserted
// without a feed position, so commits share no lock for the feed. A read
// of the feed first numbers the committed records that have none, one
// sequencer at a time under a one-row counter's lock, in insertion
// order: a reader that has seen position n never later sees a smaller
// one appear.
package mysql
