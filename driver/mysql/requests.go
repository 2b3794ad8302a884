package mysql

import "github.com/lapsehq/lapse/storetype"

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (t *tx) PruneRequests(p storetype.PruneRequestsParams) (int64, error) {
	res, err := t.exec("PruneIdempotency", p.Before, p.Limit)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
