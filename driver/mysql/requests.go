package mysql

import (
	"context"

	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (e *executor) PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.sq().PruneIdempotency(ctx, dbsqlc.PruneIdempotencyParams{Before: p.Before, Limit: int32(p.Limit)})
}
