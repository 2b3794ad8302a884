package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
)

// TestRunRefusesBadConfig: a config a bench cannot run is refused, before
// it opens the store where the bench checks the config first.
func TestRunRefusesBadConfig(t *testing.T) {
	target := unopened(t)
	// RunHotSKU checks its bucket count against a store it may open.
	opens := Target{Open: func(context.Context, store.Hooks) (Store, Raw, error) { return nil, nil, nil }}
	ops := func(cfg OpsConfig) func(context.Context) error {
		return func(ctx context.Context) error { _, err := RunOps(ctx, cfg); return err }
	}
	orders := func(cfg OrdersConfig) func(context.Context) error {
		return func(ctx context.Context) error { _, err := RunOrders(ctx, cfg); return err }
	}
	storm := func(cfg Config) func(context.Context) error {
		cfg.Target, cfg.Coupons = target, 10
		cfg.Target.Save = func() error { t.Errorf("a refused config saved the store"); return nil }
		cfg.Target.Restore = cfg.Target.Save
		return func(ctx context.Context) error { _, err := RunStorm(ctx, cfg); return err }
	}
	hotSKU := func(cfg HotSKUConfig) func(context.Context) error {
		return func(ctx context.Context) error { _, err := RunHotSKU(ctx, cfg); return err }
	}
	cases := []struct {
		name string
		run  func(context.Context) error
		want string
	}{
		{"ops without Open", ops(OpsConfig{Coupons: 10}), "needs Open"},
		{"ops without coupons", ops(OpsConfig{Target: target}), "coupons"},
		{"ops with -1 coupons", ops(OpsConfig{Target: target, Coupons: -1}), "coupons"},
		{"orders without Open", orders(OrdersConfig{}), "needs Open"},
		{"orders paying 150%", orders(OrdersConfig{Target: target, PayShare: 1.5}), "pay share"},
		{"orders paying -10%", orders(OrdersConfig{Target: target, PayShare: -0.1}), "pay share"},
		{"orders timing out in 1µs", orders(OrdersConfig{Target: target, Timeout: time.Microsecond}), "timeout"},
		{"orders at 0.1/s for 1s", orders(OrdersConfig{Target: target, Rate: 0.1, Duration: time.Second}), "no order"},
		{"storm with the floor at 150%", storm(Config{FloorShare: 1.5}), "floor share"},
		{"storm with the floor at -10%", storm(Config{FloorShare: -0.1}), "floor share"},
		{"hot SKU without Open", hotSKU(HotSKUConfig{}), "needs Open"},
		{"hot SKU on -1 buckets", hotSKU(HotSKUConfig{Target: opens, Buckets: -1}), "buckets"},
		{"hot SKU on 65 buckets", hotSKU(HotSKUConfig{Target: opens, Buckets: 65}), "buckets"},
	}
	for _, c := range cases {
		if err := c.run(context.Background()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: got %v, want an error about %q", c.name, err, c.want)
		}
	}
}

// unopened is a target that fails the test if it is opened: a config
// refused must be refused before it opens the store.
func unopened(t *testing.T) Target {
	return Target{Name: "none", Open: func(context.Context, store.Hooks) (Store, Raw, error) {
		t.Errorf("a refused config opened the store")
		return nil, nil, context.Canceled
	}}
}
