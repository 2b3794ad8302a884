package mysql

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (e *executor) PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return rowsAffected(e.exec(ctx, "PruneIdempotency", p.Before, p.Limit))
}
