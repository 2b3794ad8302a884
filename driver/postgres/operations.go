package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// Operation reads one bulk operation.
func (s *Driver) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetOperation", id), scanOperation, interpret)
}

// Operation reads one bulk operation in the transaction, holding it.
func (t *tx) Operation(id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(t.queryRow("GetOperationForUpdate", id), scanOperation, interpret)
}

// InsertOperation stores a new operation.
func (t *tx) InsertOperation(r driver.OperationRow) error {
	_, err := t.exec("InsertOperation", r.ID, r.Kind, r.Target, r.Args, r.Counts, r.Actor, r.State, r.Cursor, r.Holder,
		r.CreatedAt, nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total)
	return err
}

// SetOperation stores r over the operation of its ID.
func (t *tx) SetOperation(r driver.OperationRow) error {
	_, err := t.exec("SetOperation", r.ID, r.Counts, r.State, r.Cursor, r.Holder,
		nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total)
	return err
}

// OperationsDue lists running operations holder may take at now.
func (t *tx) OperationsDue(holder string, now time.Time, limit int) ([]string, error) {
	rows, err := t.query("OperationsDue", holder, now, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// CouponsAfter reads a page of a template's coupons by ID, holding them.
func (t *tx) CouponsAfter(p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := t.query("CouponsAfter", p.TemplateID, p.After, p.Limit, p.Until)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
}

// UsersCoupons reads the coupons the listed users hold up to an ID,
// holding them.
func (t *tx) UsersCoupons(userIDs []string, until string) ([]coupon.Coupon, error) {
	rows, err := t.query("UsersCoupons", userIDs, until)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
}

// VoidCoupons voids the listed coupons still unused at now.
func (t *tx) VoidCoupons(ids []string, now time.Time) (int64, error) {
	tag, err := t.exec("VoidCoupons", ids, now)
	return tag.RowsAffected(), err
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (t *tx) ExtendCoupons(p driver.ExtendCouponsParams) (int64, error) {
	tag, err := t.exec("ExtendCoupons", p.IDs, nullTime(p.To), p.By.Microseconds(), p.Now)
	return tag.RowsAffected(), err
}

// PutPendingVoid marks a coupon to be voided when its lock ends.
func (t *tx) PutPendingVoid(p driver.PendingVoid) error {
	_, err := t.exec("PutPendingVoid", p.CouponID, p.Operation, p.Reason, p.Actor)
	return err
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (t *tx) TakePendingVoid(couponID string) (driver.PendingVoid, bool, error) {
	var p driver.PendingVoid
	err := t.queryRow("TakePendingVoid", couponID).Scan(&p.CouponID, &p.Operation, &p.Reason, &p.Actor)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, false, nil
	}
	return p, err == nil, err
}

func scanOperation(row scanner) (driver.OperationRow, error) {
	var (
		r                             driver.OperationRow
		started, finished, leaseUntil *time.Time
	)
	err := row.Scan(&r.ID, &r.Kind, &r.Target, &r.Args, &r.Counts, &r.Actor, &r.State, &r.Cursor, &r.Holder,
		&r.CreatedAt, &started, &finished, &leaseUntil, &r.Done, &r.Total)
	r.StartedAt, r.FinishedAt, r.LeaseUntil = orZero(started), orZero(finished), orZero(leaseUntil)
	return r, err
}
