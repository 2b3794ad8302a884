package sqlfile

import (
	"database/sql"
	"errors"

	"github.com/lapsehq/lapse/driver"
)

// TakePendingVoid reads a coupon's mark to be voided from row (the
// coupon, the operation, the reason and the actor) and, if there is one,
// deletes it with del, if not nil: false, with no error, if there is
// none (sql.ErrNoRows, which pgx.ErrNoRows is too).
func TakePendingVoid(row Scanner, del func() error) (driver.PendingVoid, bool, error) {
	var p driver.PendingVoid
	err := row.Scan(&p.CouponID, &p.Operation, &p.Reason, &p.Actor)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err == nil && del != nil {
		err = del()
	}
	return p, err == nil, err
}
