package bench

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Store is what the bench calls of the store under test (*store.DB
// implements it): what its engines run on, and what its phases seed,
// load and read back.
type Store interface {
	engine.Store

	// Seeding templates, users' coupons and stock (seed.go, steady.go,
	// orders.go, hotsku.go).
	CreateTemplate(ctx context.Context, p store.CreateTemplateParams) (coupon.Template, error)
	Issue(ctx context.Context, p store.IssueParams) (store.Issued, error)
	PutSKU(ctx context.Context, p store.PutSKUParams) (storetype.SKU, error)
	// The load on wallets, orders and bulk operations (load.go,
	// racers.go, orders.go, orderstorm.go, hotsku.go, ops.go).
	Claim(ctx context.Context, p store.ClaimParams) (coupon.Coupon, error)
	Coupon(ctx context.Context, id string) (coupon.Coupon, error)
	UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error)
	Transition(ctx context.Context, p store.TransitionParams) (coupon.Coupon, error)
	CreateOrder(ctx context.Context, p store.CreateOrderParams) (order.Order, error)
	Order(ctx context.Context, id string) (order.Order, error)
	SKU(ctx context.Context, sku string) (storetype.SKU, error)
	Template(ctx context.Context, p store.TemplateParams) (storetype.TemplateInfo, error)
	StartOperation(ctx context.Context, p store.StartOperationParams) (store.Operation, error)
	Operation(ctx context.Context, id string) (store.Operation, error)
	// Close releases the store's connections.
	Close() error
}
