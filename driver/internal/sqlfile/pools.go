package sqlfile

import "runtime"

// A driver on a database server (PostgreSQL, MySQL) keeps three
// connection pools, so that a user never waits for a connection behind
// the engine:
//
//   - the request pool, for the users' transactions;
//   - the read pool, for reads outside a transaction: the users' (a
//     wallet, a coupon, a template) and those the relay and the API share
//     (Events, SinkState, DeadLetters), and Clock, whose round trip the
//     engine measures and so must not include a wait behind a drain;
//   - the engine pool, for every background transaction (Begin with
//     background set: drains, leases, timer and outbox upkeep, issuance
//     batches) and the reads outside a transaction only the engine
//     makes (Timers, Stats, OrdersDue).
//
// The read pool is apart from the request pool because a user's write can
// wait on a row lock another transaction holds to its commit (a hot SKU's
// stock, say): with the request pool full of such writes, a read would
// queue behind them. Three instances at the
// defaults' largest take 3 × (12 + 6 + 6) = 72 connections, inside
// PostgreSQL's default max_connections of 100 (less its 3 reserved) and
// MariaDB's 151, with room for the operator's.

// RequestConns is the default size of the request pool: four connections
// a CPU, since a user's transaction mostly waits on round trips and row
// locks rather than the server's CPU; at least 8 and at most 12.
func RequestConns() int { return min(max(8, 4*runtime.NumCPU()), 12) }

// ReadConns is the default size of the read pool: two connections a CPU,
// a read being one short statement; at least 4 and at most 6.
func ReadConns() int { return min(max(4, 2*runtime.NumCPU()), 6) }

// EngineConns is the default size of the engine pool: one connection a
// CPU, at least 4, one for each kind of drain (expire, release, close,
// remind), which runs one batch at a time, so that none waits for
// another; and at most 6. The engine's lease renewals, upkeep and relay
// positions share the pool and wait at most for a batch.
func EngineConns() int { return min(max(4, runtime.NumCPU()), 6) }
