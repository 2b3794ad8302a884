// Package store is lapse's service layer: the one authority on coupon
// state and due times.
//
// DB implements Store once, over a driver.Driver (the storage contract,
// package driver): every state change, count, stock move, reminder,
// idempotent replay and input rule is written here, and a driver
// (driver/sqlite, driver/postgres, driver/mysql) brings only a database's
// transactions and the statements, reads and drains of its Executor. Every
// driver passes the contract's own tests in driver/drivertest and the
// service's suite in store/storetest.
//
// Every transition is a guarded compare-and-set in one transaction that
// also writes the transition's event to the outbox and, where it creates
// future work, a group timer row. Time always comes in as a parameter: a
// driver never reads a clock of its own but the database's (Clock). Every
// foreground write runs under the call's idempotency key, its Idem, if
// set: replayed, recorded, or waiting for the answer of the same request
// in flight (mutate.go). A call whose
// context names an actor (WithActor: the API token of the request) records
// it in every event it writes.
package store
