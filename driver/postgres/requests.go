package postgres

import (
	"context"

	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first,
// skipping any a transaction holds.
func (e *executor) PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.sqlc().PruneIdempotency(ctx, dbsqlc.PruneIdempotencyParams{CreatedAt: p.Before, Limit: int32(p.Limit)})
}
