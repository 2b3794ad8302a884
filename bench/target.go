package bench

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// Target is the store under test: how to open it, and how to keep and put
// back the seeded contents so that every phase starts from the same seed.
type Target struct {
	// Name names the backend in the report ("sqlite").
	Name string
	// Shared says many instances may share the store (postgres, mysql):
	// its engines hold shard leases, as lapse serve's do there.
	Shared bool
	// Open opens the store with hooks, and the raw drains of its database.
	Open func(ctx context.Context, hooks store.Hooks) (Store, Raw, error)
	// Save keeps a copy of the closed store's contents.
	Save func() error
	// Restore puts back the copy Save kept; the store is closed.
	Restore func() error
}
