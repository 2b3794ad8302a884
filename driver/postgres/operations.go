package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
)

// Operation reads one bulk operation, in a transaction holding it.
func (e *executor) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	get := e.sqlc().GetOperation
	if e.tx != nil {
		get = e.sqlc().GetOperationForUpdate
	}
	r, err := get(ctx, id)
	return sqlfile.ConvertOne(r, err, operation, interpret)
}

// InsertOperation stores a new operation.
func (e *executor) InsertOperation(ctx context.Context, r driver.OperationRow) error {
	return e.sqlc().InsertOperation(ctx, dbsqlc.InsertOperationParams{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		LastID: r.Cursor, Holder: r.Holder, CreatedAt: r.CreatedAt, StartedAt: nullTime(r.StartedAt),
		FinishedAt: nullTime(r.FinishedAt), LeaseUntil: nullTime(r.LeaseUntil), Done: r.Done, Total: r.Total,
	})
}

// SetOperation stores r over the operation of its ID.
func (e *executor) SetOperation(ctx context.Context, r driver.OperationRow) error {
	return e.sqlc().SetOperation(ctx, dbsqlc.SetOperationParams{
		ID: r.ID, Counts: r.Counts, State: r.State, LastID: r.Cursor, Holder: r.Holder, StartedAt: nullTime(r.StartedAt),
		FinishedAt: nullTime(r.FinishedAt), LeaseUntil: nullTime(r.LeaseUntil), Done: r.Done, Total: r.Total,
	})
}

// OperationsDue lists running operations p.Holder may take at p.Now.
func (e *executor) OperationsDue(ctx context.Context, p driver.OperationsDueParams) ([]string, error) {
	ids, err := e.sqlc().OperationsDue(ctx, dbsqlc.OperationsDueParams{Holder: p.Holder, Now: &p.Now, Lim: int32(p.Limit)})
	if ids == nil && err == nil {
		ids = []string{}
	}
	return ids, err
}

// CouponsAfter reads a page of a template's coupons by ID, holding them.
func (e *executor) CouponsAfter(ctx context.Context, p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := e.sqlc().CouponsAfter(ctx, dbsqlc.CouponsAfterParams{
		TemplateID: p.TemplateID, After: p.After, Until: p.Until, PageSize: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// UsersCoupons reads the coupons the listed users hold up to an ID,
// holding them.
func (e *executor) UsersCoupons(ctx context.Context, p driver.UsersCouponsParams) ([]coupon.Coupon, error) {
	rows, err := e.sqlc().UsersCoupons(ctx, dbsqlc.UsersCouponsParams{UserIds: p.UserIDs, Until: p.Until})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// VoidCoupons voids the listed coupons still unused at p.Now.
func (e *executor) VoidCoupons(ctx context.Context, p driver.VoidCouponsParams) (int64, error) {
	return e.sqlc().VoidCoupons(ctx, dbsqlc.VoidCouponsParams{Ids: p.IDs, Now: p.Now})
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (e *executor) ExtendCoupons(ctx context.Context, p driver.ExtendCouponsParams) (int64, error) {
	return e.sqlc().ExtendCoupons(ctx, dbsqlc.ExtendCouponsParams{
		Ids: p.IDs, ExpiresAt: nullTime(p.To), ByUs: p.By.Microseconds(), Now: p.Now,
	})
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (e *executor) TakePendingVoid(ctx context.Context, couponID string) (driver.PendingVoid, bool, error) {
	r, err := e.sqlc().TakePendingVoid(ctx, couponID)
	if errors.Is(err, pgx.ErrNoRows) {
		return driver.PendingVoid{}, false, nil
	}
	return driver.PendingVoid(r), err == nil, err
}

// operation is an operation row as the driver hands it out.
func operation(r dbsqlc.Operation) (driver.OperationRow, error) {
	return driver.OperationRow{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		Cursor: r.LastID, Holder: r.Holder, CreatedAt: r.CreatedAt, StartedAt: orZero(r.StartedAt),
		FinishedAt: orZero(r.FinishedAt), LeaseUntil: orZero(r.LeaseUntil), Done: r.Done, Total: r.Total,
	}, nil
}

// PendingVoids returns which of the listed coupons are marked.
func (e *executor) PendingVoids(ctx context.Context, ids []string) ([]string, error) {
	return e.sqlc().PendingVoids(ctx, ids)
}

// PutPendingVoid marks a coupon to be voided when its lock ends.
func (e *executor) PutPendingVoid(ctx context.Context, p driver.PendingVoid) error {
	return e.sqlc().PutPendingVoid(ctx, dbsqlc.PutPendingVoidParams{CouponID: p.CouponID, Operation: p.Operation, Reason: p.Reason, Actor: p.Actor})
}

// Operations lists operations newest first.
func (e *executor) Operations(ctx context.Context, p driver.OperationsParams) ([]driver.OperationRow, error) {
	rows, err := e.sqlc().ListOperations(ctx, dbsqlc.ListOperationsParams{State: p.State, Before: p.Before, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, operation)
}
