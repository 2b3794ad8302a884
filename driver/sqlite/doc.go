// Package sqlite is the driver of lapse's embedded store (store.DB over
// it): one SQLite file in WAL mode through modernc.org/sqlite (no cgo).
//
// Writes go through a single connection, as SQLite has one writer anyway,
// so transactions queue in Go instead of spinning on SQLITE_BUSY; reads use
// a pool of read-only connections that WAL lets run beside the writer.
package sqlite
