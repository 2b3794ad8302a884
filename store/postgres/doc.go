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
// them as briefly as possible. Events take their feed positions last of
// all, under a row lock held to the commit, so the feed follows commit
// order.
package postgres
