// Package storetest is the conformance suite of the service over the
// storage contract: every driver.Driver runs it unchanged from its own
// tests, under store.DB.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) driver.Driver { return openDriver(t) })
//	}
//
// The suite speaks through store.Store, and through the driver's
// Executor for its reminder rows and for the rows it writes past every
// rule. It assumes nothing about how a
// driver keeps its data, only what the contract and DESIGN.md promise: the
// transition table applied with guarded compare-and-sets, the lazy expiry
// check on every read, never-early drains, group timers, an ordered
// outbox, idempotent replays, shard leases and fenced drains, sinks and
// dead letters, and reminders planned and sent under the default policy
// (remind.Default). Every group runs on every driver; none skips. Every
// time it passes is explicit and whole milliseconds, so a driver that
// stores milliseconds (or finer) round-trips them; the store never reads
// a clock.
//
// Each subtest asks newDriver for a fresh, empty database; isolating and
// cleaning it up is the backend helper's job. A backend whose writers run
// side by side (PostgreSQL, MySQL) runs RunServer beside Run; OpenFunc
// opens a backend's drivers and stores for its own tests.
package storetest
