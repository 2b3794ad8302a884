// Package driver is the storage contract of lapse: what the service
// (package store) needs of a database, and nothing of its rules.
//
// A Driver opens write transactions (ExecutorTx) and gives an Executor for
// reads outside one; the Executor is every statement a backend writes in
// its own SQL, each taking the context and one value or params struct,
// the same methods in a transaction and out of one. The backends live
// under it: driver/sqlite (the embedded default), driver/postgres and
// driver/mysql; their shared helpers are in driver/internal/sqlfile, and
// driver/drivertest runs the contract's own tests on each. The package
// imports only lapse's domain packages (coupon, order, remind) and
// storetype, and no driver imports the service: TestLayout checks both.
package driver
