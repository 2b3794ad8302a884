package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
)

// TestRunOrdersRefusesBadConfig: a config RunOrders cannot run is refused
// before it opens the store.
func TestRunOrdersRefusesBadConfig(t *testing.T) {
	target := unopened(t)
	cases := []struct {
		cfg  OrdersConfig
		want string
	}{
		{OrdersConfig{}, "needs Open"},
		{OrdersConfig{Target: target, PayShare: 1.5}, "pay share"},
		{OrdersConfig{Target: target, PayShare: -0.1}, "pay share"},
		{OrdersConfig{Target: target, Timeout: time.Microsecond}, "timeout"},
		{OrdersConfig{Target: target, Rate: 0.1, Duration: time.Second}, "no order"},
	}
	for _, c := range cases {
		_, err := RunOrders(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%+v: got %v, want an error about %q", c.cfg, err, c.want)
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
