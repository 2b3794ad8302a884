package postgres

import "github.com/lapsehq/lapse/storetype"

// PruneRequests deletes up to p.Limit expired requests, oldest first,
// skipping any a transaction holds.
func (t *tx) PruneRequests(p storetype.PruneRequestsParams) (int64, error) {
	tag, err := t.exec("PruneIdempotency", p.Before, p.Limit)
	return tag.RowsAffected(), err
}
