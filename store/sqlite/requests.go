package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first, in
// a background transaction.
func (s *Store) PruneRequests(ctx context.Context, p store.PruneRequestsParams) (int64, error) {
	return backgroundTx(ctx, s, func(t *tx) (int64, error) {
		res, err := t.exec("PruneIdempotency", ms(p.Before), p.Limit)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
}
