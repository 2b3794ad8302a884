// Package postgres is the driver of lapse's store (store.DB over it) on
// PostgreSQL, through github.com/jackc/pgx/v5: the store for many
// instances sharing one database.
//
// Transactions run at READ COMMITTED. A transition locks the one coupon it
// decides on and stores its decision with a guarded compare-and-set; the
// drains claim due rows with FOR UPDATE SKIP LOCKED, so concurrent drains
// and users' transitions never wait on each other's batches. What a
// transaction adds to shared rows (group timers, template counts, events)
// is buffered and written in one round trip just before the commit, in a
// fixed order, so that transactions lock shared rows in one order and hold
// them as briefly as possible. A transaction's events are one outbox
// record (storetype.Record) inserted without a feed position, so commits share
// no lock for the feed; a read of the feed first numbers the committed
// records that have none, one sequencer at a time, in insertion order, so
// a reader never passes a record that commits later.
package postgres
