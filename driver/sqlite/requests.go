package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (e *executor) PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.q().PruneIdempotency(ctx, dbsqlc.PruneIdempotencyParams{Before: ms(p.Before), PageSize: int64(p.Limit)})
}
