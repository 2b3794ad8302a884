// Package storetype holds the values lapse's service (package store), its
// storage drivers (package driver and the backends under it) and its
// users share: events and the outbox records that carry them, timers,
// shard leases, tokens, stock counters, sinks and the params of the reads
// both the service and the drivers answer. It holds no rule and reaches
// no database; the input bounds of a wallet page (UserCouponsParams) are
// the one check it carries.
package storetype
