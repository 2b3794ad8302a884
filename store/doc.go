// Package store is lapse's storage contract: the one authority on coupon
// state and due times. Backends (store/sqlite, store/postgres) implement
// Store and pass the shared suite in store/storetest.
//
// Every transition is a guarded compare-and-set in one transaction that
// also writes the transition's event to the outbox and, where it creates
// future work, a group timer row. Time always comes in as a parameter: a
// backend never reads a clock of its own.
//
// The transitions themselves (ClaimIn, TransitionIn, CreateOrderIn and
// the rest) are written once here, against Tx: the statements a backend
// runs in one of its write transactions. A backend brings the SQL, the
// transaction and its locking; the rules are the same everywhere. So are
// idempotency keys: every backend's foreground writes go through Mutate,
// which replays, records and waits for the responses under a key.
package store
