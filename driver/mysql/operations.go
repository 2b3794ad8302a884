package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// Operation reads one bulk operation, holding it in a transaction until
// it ends.
func (e *executor) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	return sqlfile.ScanOne(e.queryRow(ctx, e.holding("LockOperation", "GetOperation"), id), scanOperation, interpret)
}

// InsertOperation stores a new operation.
func (e *executor) InsertOperation(ctx context.Context, r driver.OperationRow) error {
	_, err := e.exec(ctx, "InsertOperation", r.ID, r.Kind, r.Target, r.Args, r.Counts, r.Actor, r.State, r.Cursor, r.Holder,
		r.CreatedAt, nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total)
	return err
}

// SetOperation stores r over the operation of its ID.
func (e *executor) SetOperation(ctx context.Context, r driver.OperationRow) error {
	_, err := e.exec(ctx, "SetOperation", r.Counts, r.State, r.Cursor, r.Holder,
		nullTime(r.StartedAt), nullTime(r.FinishedAt), nullTime(r.LeaseUntil), r.Done, r.Total, r.ID)
	return err
}

// OperationsDue lists running operations p.Holder may take at p.Now.
func (e *executor) OperationsDue(ctx context.Context, p driver.OperationsDueParams) ([]string, error) {
	rows, err := e.query(ctx, "OperationsDue", p.Holder, p.Now, p.Limit)
	return sqlfile.Collect(rows, err, sqlfile.ScanString)
}

// CouponsAfter reads a page of a template's coupons by ID.
func (e *executor) CouponsAfter(ctx context.Context, p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := e.query(ctx, "CouponsAfter", p.TemplateID, p.After, p.Until, p.Limit)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// UsersCoupons reads the coupons users p.UserIDs hold up to ID p.Until,
// holding them.
func (e *executor) UsersCoupons(ctx context.Context, p driver.UsersCouponsParams) ([]coupon.Coupon, error) {
	rows, err := e.queryList(ctx, "UsersCoupons", len(p.UserIDs), listArgs(p.UserIDs, p.Until)...)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// VoidCoupons voids the coupons p.IDs still unused at p.Now.
func (e *executor) VoidCoupons(ctx context.Context, p driver.VoidCouponsParams) (int64, error) {
	return e.execCount(ctx, "VoidCoupons", len(p.IDs), listArgs(p.IDs, p.Now, p.Now)...)
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (e *executor) ExtendCoupons(ctx context.Context, p driver.ExtendCouponsParams) (int64, error) {
	return e.execCount(ctx, "ExtendCoupons", len(p.IDs), listArgs(p.IDs, nullTime(p.To), p.By.Microseconds(), p.Now)...)
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (e *executor) TakePendingVoid(ctx context.Context, couponID string) (driver.PendingVoid, bool, error) {
	return sqlfile.TakePendingVoid(e.queryRow(ctx, "GetPendingVoid", couponID), func() error {
		_, err := e.exec(ctx, "DeletePendingVoid", couponID)
		return err
	})
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
