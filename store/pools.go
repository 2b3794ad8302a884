package store

import "runtime"

// A driver on a database server (PostgreSQL, MySQL) keeps two connection
// pools, so that a user never waits for a connection behind the engine:
// the request pool, for the users' transactions and reads, and the engine
// pool, for every background transaction (Begin with background set:
// drains, leases, timer and outbox upkeep, issuance batches) and the
// reads only the engine makes (Timers, Stats, DueOrders). A read both
// make (Events, SinkState, DeadLetters: the relay's and the API's) and
// Clock, whose round trip the engine measures and so must not include a
// wait for a busy engine connection, use the request pool. Three
// instances at both defaults' largest take 3 × (16 + 8) = 72
// connections, inside PostgreSQL's default max_connections of 100 (less
// its 3 reserved) and MariaDB's 151, with room for the operator's.

// RequestConns is the default size of the request pool: four connections
// a CPU, since a request's transaction mostly waits on round trips and
// row locks rather than the server's CPU, at least 8 and at most 16.
func RequestConns() int { return min(max(8, 4*runtime.NumCPU()), 16) }

// EngineConns is the default size of the engine pool: one connection a
// CPU, at least 4, one for each kind of drain (expire, release, close,
// remind), which runs one batch at a time, so that none waits for
// another; and at most 8. The engine's lease renewals, upkeep and relay
// positions share the pool and wait at most for a batch.
func EngineConns() int { return min(max(4, runtime.NumCPU()), 8) }
