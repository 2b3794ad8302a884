package mysql

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (s *Store) PruneRequests(ctx context.Context, p store.PruneRequestsParams) (int64, error) {
	res, err := s.db.ExecContext(ctx, queries.Get("PruneIdempotency"), p.Before, p.Limit)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
