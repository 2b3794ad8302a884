// Package store is lapse's storage contract: the one authority on coupon
// state and due times. Backends (store/sqlite, and later others) implement
// Store and pass the shared suite in store/storetest.
//
// Every transition is a guarded compare-and-set in one transaction that
// also writes the transition's event to the outbox and, where it creates
// future work, a group timer row. Time always comes in as a parameter: a
// backend never reads a clock of its own.
package store
