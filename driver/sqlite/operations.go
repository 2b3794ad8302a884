package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
)

// Operation reads one bulk operation (in a transaction the writer is
// held: nothing else changes it).
func (e *executor) Operation(ctx context.Context, id string) (driver.OperationRow, error) {
	r, err := e.q().GetOperation(ctx, id)
	return sqlfile.ConvertOne(r, err, operationOf, interpret)
}

// InsertOperation stores a new operation.
func (e *executor) InsertOperation(ctx context.Context, r driver.OperationRow) error {
	return e.q().InsertOperation(ctx, dbsqlc.InsertOperationParams{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		LastID: r.Cursor, Holder: r.Holder, CreatedAt: ms(r.CreatedAt), StartedAt: nullMS(r.StartedAt),
		FinishedAt: nullMS(r.FinishedAt), LeaseUntil: nullMS(r.LeaseUntil), Done: r.Done, Total: r.Total,
	})
}

// SetOperation stores r over the operation of its ID.
func (e *executor) SetOperation(ctx context.Context, r driver.OperationRow) error {
	return e.q().SetOperation(ctx, dbsqlc.SetOperationParams{
		ID: r.ID, Counts: r.Counts, State: r.State, LastID: r.Cursor, Holder: r.Holder, StartedAt: nullMS(r.StartedAt),
		FinishedAt: nullMS(r.FinishedAt), LeaseUntil: nullMS(r.LeaseUntil), Done: r.Done, Total: r.Total,
	})
}

// OperationsDue lists running operations p.Holder may take at p.Now.
func (e *executor) OperationsDue(ctx context.Context, p driver.OperationsDueParams) ([]string, error) {
	return e.q().OperationsDue(ctx, dbsqlc.OperationsDueParams{Holder: p.Holder, Now: msNotNull(p.Now), PageSize: int64(p.Limit)})
}

// CouponsAfter reads a page of a template's coupons by ID.
func (e *executor) CouponsAfter(ctx context.Context, p driver.CouponsAfterParams) ([]coupon.Coupon, error) {
	rows, err := e.q().CouponsAfter(ctx, dbsqlc.CouponsAfterParams{
		TemplateID: p.TemplateID, After: p.After, Until: p.Until, PageSize: int64(p.Limit),
	})
	return sqlfile.Convert(rows, err, couponOf)
}

// UsersCoupons reads the coupons the listed users hold up to an ID.
func (e *executor) UsersCoupons(ctx context.Context, p driver.UsersCouponsParams) ([]coupon.Coupon, error) {
	rows, err := e.q().UsersCoupons(ctx, dbsqlc.UsersCouponsParams{Users: jsonList(p.UserIDs), UpTo: p.Until})
	return sqlfile.Convert(rows, err, couponOf)
}

// VoidCoupons voids the listed coupons still unused at p.Now.
func (e *executor) VoidCoupons(ctx context.Context, p driver.VoidCouponsParams) (int64, error) {
	return e.q().VoidCoupons(ctx, dbsqlc.VoidCouponsParams{Now: ms(p.Now), Ids: jsonList(p.IDs)})
}

// ExtendCoupons sets the expires_at of the listed coupons unused or
// locked.
func (e *executor) ExtendCoupons(ctx context.Context, p driver.ExtendCouponsParams) (int64, error) {
	return e.q().ExtendCoupons(ctx, dbsqlc.ExtendCouponsParams{
		ExpiresAt: nullMS(p.To), ByMs: p.By.Milliseconds(), UpdatedAt: ms(p.Now), Ids: jsonList(p.IDs),
	})
}

// TakePendingVoid removes and returns a coupon's mark, if any.
func (e *executor) TakePendingVoid(ctx context.Context, couponID string) (driver.PendingVoid, bool, error) {
	r, ok, err := sqlfile.TakeOne(ctx, couponID, e.q().GetPendingVoid, e.q().DeletePendingVoid)
	return driver.PendingVoid(r), ok, err
}

// operationOf is an operation as stored, its columns as sqlc reads them.
func operationOf(r dbsqlc.Operation) (driver.OperationRow, error) {
	return driver.OperationRow{
		ID: r.ID, Kind: r.Kind, Target: r.Target, Args: r.Args, Counts: r.Counts, Actor: r.Actor, State: r.State,
		Cursor: r.LastID, Holder: r.Holder, CreatedAt: at(r.CreatedAt), StartedAt: atNull(r.StartedAt),
		FinishedAt: atNull(r.FinishedAt), LeaseUntil: atNull(r.LeaseUntil), Done: r.Done, Total: r.Total,
	}, nil
}

// PendingVoids returns which of the listed coupons are marked.
func (e *executor) PendingVoids(ctx context.Context, ids []string) ([]string, error) {
	return e.q().PendingVoids(ctx, jsonList(ids))
}

// PutPendingVoid marks a coupon to be voided when its lock ends.
func (e *executor) PutPendingVoid(ctx context.Context, p driver.PendingVoid) error {
	return e.q().PutPendingVoid(ctx, dbsqlc.PutPendingVoidParams{CouponID: p.CouponID, Operation: p.Operation, Reason: p.Reason, Actor: p.Actor})
}

// Operations lists operations newest first.
func (e *executor) Operations(ctx context.Context, p driver.OperationsParams) ([]driver.OperationRow, error) {
	rows, err := e.q().ListOperations(ctx, dbsqlc.ListOperationsParams{State: p.State, Before: p.Before, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, operationOf)
}
