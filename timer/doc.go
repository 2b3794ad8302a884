// Package timer holds the near window of durable timer keys for the expiry
// engine in memory, in a hashed timing wheel.
//
// The durable store is the source of truth: a loader offers keys that fall
// due within the wheel's Horizon, the wheel delivers each on its channel once
// it is due, and the engine does the work. A key the wheel refuses (too far
// ahead) or loses (process exit) is simply offered again by the loader, so
// the wheel keeps nothing on disk and needs no recovery.
//
// The wheel never delivers a key before its due instant on the wheel's clock,
// and with a tick of d delivers it at most d after that instant unless the
// consumer falls behind.
package timer
