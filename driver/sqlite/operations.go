package sqlite

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
	return sqlfile.ScanOne(s.readRow(ctx, "GetOperation", id), scanOperation, interpret)
}

// Operation reads one bulk operation in the transaction (the writer is
// held: nothing else changes it).
func (t *tx) Operation(id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(t.queryRow("GetOperation", id), scanOperation, interpret)
}

// InsertOperation stores a new operation.
func (t *tx) InsertOperation(r driver.OperationRow) error {
	_, err := t.exec("InsertOperation", r.ID, r.Kind, r.Target, r.Args, r.Counts, r.Actor, r.State, r.Cursor, r.Holder,
		ms(r.CreatedAt), nullMS(r.StartedAt), nullMS(r.FinishedAt), nullMS(r.LeaseUntil), r.Done, r.Total)
	return err
}

// SetOperation stores r over the operation of its ID.
func (t *tx) SetOperation(r driver.OperationRow) error {
	_, err := t.exec("SetOperation", r.ID, r.Counts, r.State, r.Cursor, r.Holder,
		nullMS(r.StartedAt), nullMS(r.FinishedAt), nullMS(r.LeaseUntil), r.Done, r.Total)
	return err
}

// OperationsDue lists running operations holder may take at now.
func (t *tx) OperationsDue(holder string, now time.Time, limit int) ([]string, error) {
	rows, err := t.query("OperationsDue", holder, ms(now), limit)
	return sqlfile.Collect(rows, err, sqlfile.ScanString)
}

// CouponsAfter reads a page of a template's coupons by ID.
func (t *tx) CouponsAfter(p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := t.query("CouponsAfter", p.TemplateID, p.After, p.Limit, p.Until)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// UsersCoupons reads the coupons the listed users hold up to an ID.
func (t *tx) UsersCoupons(userIDs []string, until string) ([]coupon.Coupon, error) {
	rows, err := t.queryList("UsersCoupons", userIDs, until)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// VoidCoupons voids the listed coupons still unused at now.
func (t *tx) VoidCoupons(ids []string, now time.Time) (int64, error) {
	return t.execCount("VoidCoupons", jsonList(ids), ms(now))
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (t *tx) ExtendCoupons(p driver.ExtendCouponsParams) (int64, error) {
	return t.execCount("ExtendCoupons", jsonList(p.IDs), nullMS(p.To), p.By.Milliseconds(), ms(p.Now))
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
		created                       int64
		started, finished, leaseUntil sql.NullInt64
	)
	err := row.Scan(&r.ID, &r.Kind, &r.Target, &r.Args, &r.Counts, &r.Actor, &r.State, &r.Cursor, &r.Holder,
		&created, &started, &finished, &leaseUntil, &r.Done, &r.Total)
	r.CreatedAt, r.StartedAt, r.FinishedAt, r.LeaseUntil = at(created), atNull(started), atNull(finished), atNull(leaseUntil)
	return r, err
}
