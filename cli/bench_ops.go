package cli

import (
	"context"
	"io"
	"time"

	"github.com/lapsehq/lapse/bench"
	"github.com/lapsehq/lapse/engine"
)

// benchOps runs `lapse bench ops`: the JSON result goes to --out (or
// stdout), the plot to --plot, progress bars to stderr.
func benchOps(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		profile string
		cfg     = bench.OpsConfig{Coupons: 1_000_000, Users: 100_000, UserRate: 300, BatchSize: 1000, Idle: 10 * time.Second}
	)
	fs := newBenchFlags("ops", "the operations and the user p99 over time", stderr)
	fs.IntVar(&cfg.Coupons, "coupons", cfg.Coupons, "coupons bulk voided, and as many bulk extended, each on a template of its own")
	fs.IntVar(&cfg.Users, "users", cfg.Users, "users holding the coupons")
	fs.Float64Var(&cfg.UserRate, "rate", cfg.UserRate, "user operations (wallet read, lock, redeem) a second, from the idle phase to the end of the extend")
	fs.IntVar(&cfg.BatchSize, "batch-size", cfg.BatchSize, "rows per transaction of the engine's drains and of the archive")
	fs.IntVar(&cfg.OperationBatch, "operation-batch", engine.DefaultOperationBatch, "coupons per transaction of the operations, as lapse serve's --operation-batch")
	fs.Float64Var(&cfg.OperationShare, "operation-share", 0, "share of its time the operations' worker spends in batches, as lapse serve's --operation-share; 0 is its default for the store")
	fs.DurationVar(&cfg.Idle, "idle", cfg.Idle, "how long the idle phase measures the user load alone")
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the bulk void, with the user load beside it, to this file")
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	return runBench(ctx, fs, stdout, func(target bench.Target) (bench.OpsResult, error) {
		cfg.Target, cfg.Progress, cfg.Log = target, stderr, fs.log
		return profiled(profile, &cfg.CPUProfile, func() (bench.OpsResult, error) { return bench.RunOps(ctx, cfg) })
	})
}
