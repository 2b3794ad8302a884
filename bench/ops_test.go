package bench

import (
	"context"
	"strings"
	"testing"
)

// TestRunOpsRefusesBadConfig: a config RunOps cannot run is refused before
// it opens the store.
func TestRunOpsRefusesBadConfig(t *testing.T) {
	target := unopened(t)
	cases := []struct {
		cfg  OpsConfig
		want string
	}{
		{OpsConfig{Coupons: 10}, "needs Open"},
		{OpsConfig{Target: target}, "coupons"},
		{OpsConfig{Target: target, Coupons: -1}, "coupons"},
	}
	for _, c := range cases {
		_, err := RunOps(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%+v: got %v, want an error about %q", c.cfg, err, c.want)
		}
	}
}
