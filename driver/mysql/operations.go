package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
)

// Operation reads one bulk operation, holding it in a transaction until
// it ends.
func (e *executor) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	get := e.sq().LockOperation
	if e.tx == nil {
		get = e.sq().GetOperation
	}
	r, err := get(ctx, id)
	return sqlfile.ConvertOne(r, err, operation, interpret)
}

// InsertOperation stores a new operation.
func (e *executor) InsertOperation(ctx context.Context, r driver.OperationRow) error {
	return e.sq().InsertOperation(ctx, dbsqlc.InsertOperationParams{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		LastID: r.Cursor, Holder: r.Holder, CreatedAt: r.CreatedAt, StartedAt: nullTime(r.StartedAt),
		FinishedAt: nullTime(r.FinishedAt), LeaseUntil: nullTime(r.LeaseUntil), Done: r.Done, Total: r.Total,
	})
}

// SetOperation stores r over the operation of its ID.
func (e *executor) SetOperation(ctx context.Context, r driver.OperationRow) error {
	return e.sq().SetOperation(ctx, dbsqlc.SetOperationParams{
		Counts: r.Counts, State: r.State, LastID: r.Cursor, Holder: r.Holder, StartedAt: nullTime(r.StartedAt),
		FinishedAt: nullTime(r.FinishedAt), LeaseUntil: nullTime(r.LeaseUntil), Done: r.Done, Total: r.Total, ID: r.ID,
	})
}

// OperationsDue lists running operations p.Holder may take at p.Now.
func (e *executor) OperationsDue(ctx context.Context, p driver.OperationsDueParams) ([]string, error) {
	return e.sq().OperationsDue(ctx, dbsqlc.OperationsDueParams{
		Holder: p.Holder, Now: sql.NullTime{Time: p.Now, Valid: true}, Limit: int32(p.Limit),
	})
}

// CouponsAfter reads a page of a template's coupons by ID.
func (e *executor) CouponsAfter(ctx context.Context, p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := e.sq().CouponsAfter(ctx, dbsqlc.CouponsAfterParams{
		TemplateID: p.TemplateID, After: p.After, UpTo: p.Until, Limit: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// UsersCoupons reads the coupons users p.UserIDs hold up to ID p.Until,
// holding them.
func (e *executor) UsersCoupons(ctx context.Context, p driver.UsersCouponsParams) ([]coupon.Coupon, error) {
	if len(p.UserIDs) == 0 {
		return nil, nil
	}
	rows, err := e.sq().UsersCoupons(ctx, dbsqlc.UsersCouponsParams{UpTo: p.Until, Users: p.UserIDs})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// VoidCoupons voids the coupons p.IDs still unused at p.Now.
func (e *executor) VoidCoupons(ctx context.Context, p driver.VoidCouponsParams) (int64, error) {
	if len(p.IDs) == 0 {
		return 0, nil
	}
	return e.sq().VoidCoupons(ctx, dbsqlc.VoidCouponsParams{Now: p.Now, Ids: p.IDs})
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (e *executor) ExtendCoupons(ctx context.Context, p driver.ExtendCouponsParams) (int64, error) {
	if len(p.IDs) == 0 {
		return 0, nil
	}
	return e.sq().ExtendCoupons(ctx, dbsqlc.ExtendCouponsParams{
		ExpiresAt: nullTime(p.To), ByUs: p.By.Microseconds(), UpdatedAt: p.Now, Ids: p.IDs,
	})
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (e *executor) TakePendingVoid(ctx context.Context, couponID string) (driver.PendingVoid, bool, error) {
	r, ok, err := sqlfile.TakeOne(ctx, couponID, e.sq().GetPendingVoid, e.sq().DeletePendingVoid)
	return driver.PendingVoid(r), ok, err
}

func operation(r dbsqlc.Operation) (driver.OperationRow, error) {
	return driver.OperationRow{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		Cursor: r.LastID, Holder: r.Holder, CreatedAt: r.CreatedAt.UTC(), StartedAt: utc(r.StartedAt),
		FinishedAt: utc(r.FinishedAt), LeaseUntil: utc(r.LeaseUntil), Done: r.Done, Total: r.Total,
	}, nil
}

// PendingVoids returns which of the listed coupons are marked.
func (e *executor) PendingVoids(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return e.sq().PendingVoids(ctx, ids)
}

// PutPendingVoid marks a coupon to be voided when its lock ends.
func (e *executor) PutPendingVoid(ctx context.Context, p driver.PendingVoid) error {
	return e.sq().PutPendingVoid(ctx, dbsqlc.PutPendingVoidParams{CouponID: p.CouponID, Operation: p.Operation, Reason: p.Reason, Actor: p.Actor})
}

// Operations lists operations newest first.
func (e *executor) Operations(ctx context.Context, p driver.OperationsParams) ([]driver.OperationRow, error) {
	rows, err := e.sq().ListOperations(ctx, dbsqlc.ListOperationsParams{State: p.State, Before: p.Before, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, operation)
}
