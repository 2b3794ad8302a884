package mysql

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// Operation reads one bulk operation.
func (s *Driver) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetOperation", id), scanOperation, interpret)
}

// Operation reads one bulk operation in the transaction, holding it.
func (t *tx) Operation(id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(t.queryRow("LockOperation", id), scanOperation, interpret)
}

// InsertOperation stores a new operation.
func (t *tx) InsertOperation(r driver.OperationRow) error {
	_, err := t.exec("InsertOperation", r.ID, r.Kind, r.Target, r.Args, r.Counts, r.Actor, r.State, r.Cursor, r.Holder,
		r.CreatedAt, nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total)
	return err
}

// SetOperation stores r over the operation of its ID.
func (t *tx) SetOperation(r driver.OperationRow) error {
	_, err := t.exec("SetOperation", r.Counts, r.State, r.Cursor, r.Holder,
		nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total, r.ID)
	return err
}

// OperationsDue lists running operations holder may take at now.
func (t *tx) OperationsDue(holder string, now time.Time, limit int) ([]string, error) {
	rows, err := t.query("OperationsDue", holder, now, limit)
	return sqlfile.Collect(rows, err, sqlfile.ScanString)
}

// CouponsAfter reads a page of a template's coupons by ID.
func (t *tx) CouponsAfter(p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := t.query("CouponsAfter", p.TemplateID, p.After, p.Until, p.Limit)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// UsersCoupons reads the coupons the listed users hold up to an ID,
// holding them.
func (t *tx) UsersCoupons(userIDs []string, until string) ([]coupon.Coupon, error) {
	rows, err := t.queryList("UsersCoupons", len(userIDs), listArgs(userIDs, until)...)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// VoidCoupons voids the listed coupons still unused at now.
func (t *tx) VoidCoupons(ids []string, now time.Time) (int64, error) {
	return t.execCount("VoidCoupons", len(ids), listArgs(ids, now, now)...)
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (t *tx) ExtendCoupons(p driver.ExtendCouponsParams) (int64, error) {
	return t.execCount("ExtendCoupons", len(p.IDs), listArgs(p.IDs, nullTime(p.To), p.By.Microseconds(), p.Now)...)
}

// PutPendingVoid marks a coupon to be voided when its lock ends.
func (t *tx) PutPendingVoid(p driver.PendingVoid) error {
	_, err := t.exec("PutPendingVoid", p.CouponID, p.Operation, p.Reason, p.Actor)
	return err
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (t *tx) TakePendingVoid(couponID string) (driver.PendingVoid, bool, error) {
	var p driver.PendingVoid
	err := t.queryRow("GetPendingVoid", couponID).Scan(&p.CouponID, &p.Operation, &p.Reason, &p.Actor)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return p, false, nil
	case err != nil:
		return p, false, err
	}
	_, err = t.exec("DeletePendingVoid", couponID)
	return p, err == nil, err
}

func scanOperation(row sqlfile.Scanner) (driver.OperationRow, error) {
	var (
		r                             driver.OperationRow
		started, finished, leaseUntil sql.NullTime
	)
	err := row.Scan(&r.ID, &r.Kind, &r.Target, &r.Args, &r.Counts, &r.Actor, &r.State, &r.Cursor, &r.Holder,
		&r.CreatedAt, &started, &finished, &leaseUntil, &r.Done, &r.Total)
	r.CreatedAt, r.StartedAt, r.FinishedAt, r.LeaseUntil = r.CreatedAt.UTC(), utc(started), utc(finished), utc(leaseUntil)
	return r, err
}
