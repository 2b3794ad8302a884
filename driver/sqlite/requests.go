package sqlite

import "github.com/lapsehq/lapse/storetype"

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (t *tx) PruneRequests(p storetype.PruneRequestsParams) (int64, error) {
	return t.execCount("PruneIdempotency", ms(p.Before), p.Limit)
}
