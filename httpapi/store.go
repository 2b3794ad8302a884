package httpapi

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Store is what the API calls of the store (*store.DB implements it),
// grouped by the handlers that call it. It is one interface because one
// server serves every route from one Config.Store.
type Store interface {
	// Templates (templates.go).
	CreateTemplate(ctx context.Context, p store.CreateTemplateParams) (coupon.Template, error)
	Template(ctx context.Context, p store.TemplateParams) (storetype.TemplateInfo, error)
	Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error)
	ChangeTemplate(ctx context.Context, p store.ChangeTemplateParams) (coupon.Template, error)
	CloseTemplate(ctx context.Context, p store.CloseTemplateParams) (coupon.Template, error)

	// Coupons and wallets (coupons.go, issue.go).
	Claim(ctx context.Context, p store.ClaimParams) (coupon.Coupon, error)
	Issue(ctx context.Context, p store.IssueParams) (store.Issued, error)
	Coupon(ctx context.Context, id string) (coupon.Coupon, error)
	UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error)
	Transition(ctx context.Context, p store.TransitionParams) (coupon.Coupon, error)

	// Stock and orders (orders.go).
	PutSKU(ctx context.Context, p store.PutSKUParams) (storetype.SKU, error)
	SKU(ctx context.Context, sku string) (storetype.SKU, error)
	CreateOrder(ctx context.Context, p store.CreateOrderParams) (order.Order, error)
	Order(ctx context.Context, id string) (order.Order, error)
	PayOrder(ctx context.Context, p store.PayOrderParams) (order.Order, error)
	CloseOrder(ctx context.Context, p store.CloseOrderParams) (order.Order, error)

	// Users (users.go).
	PutUser(ctx context.Context, p store.PutUserParams) (remind.User, error)
	User(ctx context.Context, id string) (remind.User, error)

	// Bulk operations (operations.go).
	PreviewOperation(ctx context.Context, p store.StartOperationParams) (map[coupon.State]int64, error)
	StartOperation(ctx context.Context, p store.StartOperationParams) (store.Operation, error)
	Operation(ctx context.Context, id string) (store.Operation, error)
	Operations(ctx context.Context, p store.OperationsParams) ([]store.Operation, error)
	CancelOperation(ctx context.Context, p store.CancelOperationParams) (store.Operation, error)

	// The feed (events.go).
	Events(ctx context.Context, p store.EventsParams) ([]storetype.Event, error)
	FeedEnd(ctx context.Context) (int64, error)

	// Operators: the forecast, the archive, reconciliation, the console's
	// status and readiness (forecast.go, archive.go, reconcile.go,
	// status.go, health.go).
	Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error)
	Archive(ctx context.Context, p store.ArchiveParams) (storetype.Archived, error)
	Reconcile(ctx context.Context, p store.ReconcileParams) (store.Reconciliation, error)
	Clock(ctx context.Context) (time.Time, error)
	ShardLeases(ctx context.Context) ([]storetype.ShardLease, error)
	Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error)
	Ready(ctx context.Context) error

	// Credentials (auth.go).
	Tokens(ctx context.Context) ([]storetype.Token, error)
}

// tokenReader reads the API credentials: what tokens needs of Store.
type tokenReader interface {
	Tokens(ctx context.Context) ([]storetype.Token, error)
}
