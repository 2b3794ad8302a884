package postgres

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first,
// skipping any a transaction holds.
func (s *Store) PruneRequests(ctx context.Context, p store.PruneRequestsParams) (int64, error) {
	return inTx(ctx, s, func(t *tx) (int64, error) {
		tag, err := t.exec("PruneIdempotency", p.Before, p.Limit)
		return tag.RowsAffected(), err
	})
}
