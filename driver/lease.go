package driver

import (
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// LeaseTx is one lease transaction of a backend, as LeaseIn sees it.
type LeaseTx interface {
	// SeenInstance records that holder is alive now.
	SeenInstance(holder string) error
	// MeasuredSkew records that holder is alive now and measured its
	// clock skew against the database's now.
	MeasuredSkew(holder string, skew time.Duration) error
	// ForgetInstances forgets instances unseen for longer than d.
	ForgetInstances(d time.Duration) error
	// LiveInstances names the instances seen within ttl, in order.
	LiveInstances(ttl time.Duration) ([]string, error)
	// RenewLeases extends holder's unexpired leases to ttl from now.
	RenewLeases(holder string, ttl time.Duration) ([]storetype.Lease, error)
	// DropLeases frees holder's leases of shards.
	DropLeases(holder string, shards []int) error
	// TakeLeases takes up to n free or expired shards for holder, each
	// under a new token, for ttl.
	TakeLeases(holder string, ttl time.Duration, n int) ([]storetype.Lease, error)
}
