package cli

import (
	"context"
	"io"
	"time"

	"github.com/lapsehq/lapse/bench"
)

// benchOrders runs `lapse bench orders`: the JSON result goes to --out (or
// stdout), the plot to --plot, a progress bar to stderr.
func benchOrders(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		cfg    = bench.OrdersConfig{Rate: 200, Duration: 20 * time.Second, Timeout: 2 * time.Second, PayShare: 0.5}
		hot    bool
		hotCfg = bench.HotSKUConfig{Clients: 16}
		storm  int
		inst   = 1
	)
	fs := newBenchFlags("orders", "the close lag over time", stderr)
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "orders created a second")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long orders are created")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "each order's deadline after its creation")
	fs.Float64Var(&cfg.PayShare, "pay-share", cfg.PayShare, "fraction of the orders paid before their deadline (0 to 1)")
	fs.BoolVar(&hot, "hot-sku", false, "flash sale: --clients clients create one-unit orders of one SKU back to back for --duration, through lapse (on a SKU of one bucket, then with --buckets of several) and then through a plain transaction of the same writes (the floor)")
	fs.IntVar(&hotCfg.Clients, "clients", hotCfg.Clients, "with --hot-sku: clients creating orders")
	fs.Int64Var(&hotCfg.Stock, "stock", 0, "with --hot-sku: the SKU's stock (default: more than a run sells)")
	fs.IntVar(&hotCfg.Buckets, "buckets", 0, "with --hot-sku: also run lapse on a SKU of this many stock buckets (2 to 64)")
	fs.IntVar(&storm, "storm", 0, "order storm: seed this many unpaid orders over 50 SKUs, a third holding a coupon, all due at one instant, and measure when lapse has given every unit and coupon back")
	fs.IntVar(&inst, "instances", inst, "with --storm: lapse instances closing the orders side by side (postgres and mysql)")
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	if storm > 0 {
		return runBench(ctx, fs, stdout, func(target bench.Target) (bench.OrderStormResult, error) {
			return bench.RunOrderStorm(ctx, bench.OrderStormConfig{Target: target, N: storm, Instances: inst, Progress: stderr, Log: fs.log})
		})
	}
	if hot {
		return runBench(ctx, fs, stdout, func(target bench.Target) (bench.HotSKUResult, error) {
			hotCfg.Target, hotCfg.Duration, hotCfg.Progress = target, cfg.Duration, stderr
			return bench.RunHotSKU(ctx, hotCfg)
		})
	}
	return runBench(ctx, fs, stdout, func(target bench.Target) (bench.OrdersResult, error) {
		cfg.Target, cfg.Progress, cfg.Log = target, stderr, fs.log
		return bench.RunOrders(ctx, cfg)
	})
}
