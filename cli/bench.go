package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lapsehq/lapse/bench"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
)

// benchSummaries say what each bench measures, in lapse bench --help and
// in its own.
var benchSummaries = map[string]string{
	"storm":  "a storm of coupons due in the same second, drained by lapse, naively and at the floor",
	"orders": "orders at a steady rate with a short timeout, closed by lapse: the close lag",
	"ops":    "bulk void and extend of a template's coupons under the user load, then archive: rates and user p99",
}

// benchCmd runs `lapse bench <what>`.
var benchCmd = group("bench", map[string]command{
	"storm":  {benchSummaries["storm"], benchStorm},
	"orders": {benchSummaries["orders"], benchOrders},
	"ops":    {benchSummaries["ops"], benchOps},
})

// benchStorm runs `lapse bench storm`: the JSON result goes to --out (or
// stdout), the plot to --plot, progress bars to stderr.
func benchStorm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		profile        string
		templates      = 10
		users, coupons = 100_000, 1_000_000
		batch          = 1000
		rate           = 300.0
		idle           = 30 * time.Second
		steady         = 10 * time.Second
		steadyRate     = 1000
		instances      = 1
		budget         float64
		floorShare     = 1.0
	)
	fs := newBenchFlags("storm", "the drains", stderr)
	fs.IntVar(&coupons, "coupons", coupons, "coupons in the storm, all due in the same second")
	fs.IntVar(&templates, "templates", templates, "templates the storm's coupons are spread over")
	fs.IntVar(&users, "users", users, "users holding the coupons")
	fs.Float64Var(&rate, "user-rate", rate, "user operations (wallet read, lock, redeem) a second during every phase")
	fs.IntVar(&batch, "batch-size", batch, "rows per transaction of lapse's drain and of the floor")
	fs.DurationVar(&idle, "idle", idle, "how long the idle phase measures the user load alone")
	fs.DurationVar(&steady, "steady", steady, "how long the steady phase runs")
	fs.IntVar(&steadyRate, "steady-rate", steadyRate, "coupons falling due a second in the steady phase")
	fs.IntVar(&instances, "instances", instances, "lapse instances draining the storm side by side (postgres and mysql)")
	fs.Float64Var(&budget, "storm-user-budget", 0, "pace lapse's drain to hold users' write p99 within this multiple of idle, as lapse serve's --storm-user-budget; 0 drains flat out")
	fs.Float64Var(&floorShare, "floor-share", floorShare, "share of its time the floor drains, resting after each batch as a paced drain does (0 < share <= 1): the floor held to a lower user cost")
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of lapse's drain to this file")
	if err := fs.parse(args, stdout); err != nil {
		return err
	}
	if err := checkBudget(budget); err != nil {
		return err
	}
	if !(floorShare > 0 && floorShare <= 1) {
		return fmt.Errorf("--floor-share: want more than 0 and at most 1, got %g", floorShare)
	}
	cfg := bench.Config{UserBudget: budget, FloorShare: floorShare,
		Coupons: coupons, Templates: templates, Users: users,
		UserRate: rate, BatchSize: batch, Instances: instances, Idle: idle, Steady: steady, SteadyRate: steadyRate, Progress: stderr,
		Log: fs.log,
	}
	return runBench(ctx, fs, stdout, func(target bench.Target) (bench.Result, error) {
		cfg.Target = target
		return profiled(profile, &cfg.CPUProfile, func() (bench.Result, error) { return bench.RunStorm(ctx, cfg) })
	})
}

// profiled runs run with *w set to the file at path, created for a CPU
// profile, if path is not empty.
func profiled[R any](path string, w *io.Writer, run func() (R, error)) (R, error) {
	if path == "" {
		return run()
	}
	f, err := os.Create(path)
	if err != nil {
		var zero R
		return zero, err
	}
	defer f.Close()
	*w = f
	return run()
}

// benchFlags is the flag set of a bench with the flags every bench has,
// and the log they ask for once parsed.
type benchFlags struct {
	*flag.FlagSet
	url, out, plot string
	logs           logFlags
	log            *slog.Logger
}

// newBenchFlags makes the flag set of `lapse bench <what>`, which writes
// its usage, grouped, to stderr, with --store, --out, a --plot of what
// plotted says and the log flags.
func newBenchFlags(what, plotted string, stderr io.Writer) *benchFlags {
	fs := &benchFlags{FlagSet: flag.NewFlagSet("bench "+what, flag.ContinueOnError)}
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: lapse bench %s [flags]\n\nMeasures %s\n(docs/benchmarks.md).\n", what, benchSummaries[what])
		printGroupedDefaults(fs.FlagSet, commandGroups)
	}
	fs.StringVar(&fs.url, "store", "", "store URL of a database that does not exist yet: sqlite:<path>, postgres://…/<name> or mysql://…/<name> (default: a temporary SQLite file)")
	fs.StringVar(&fs.out, "out", "", "write the JSON result to this file (default: stdout)")
	fs.StringVar(&fs.plot, "plot", "", "write an SVG plot of "+plotted+" to this file")
	fs.logs.register(fs.FlagSet)
	return fs
}

// parse parses args into fs and makes its log, to fs's output.
func (fs *benchFlags) parse(args []string, stdout io.Writer) error {
	if err := parse(fs.FlagSet, args, stdout); err != nil {
		return err
	}
	var err error
	fs.log, err = fs.logs.logger(fs.Output())
	return err
}

// runBench runs a bench with run on the target of the database fs's
// --store names, writes its result as writeResult does, to fs's --out
// and --plot, and logs that it is done.
func runBench[R result](ctx context.Context, fs *benchFlags, stdout io.Writer, run func(bench.Target) (R, error)) error {
	target, cleanup, err := benchTarget(ctx, fs.url)
	if err != nil {
		return err
	}
	defer cleanup()
	res, err := run(target)
	if err != nil {
		return err
	}
	if err := writeResult(res, fs.out, fs.plot, stdout); err != nil {
		return err
	}
	fs.log.Info("lapse: bench done", slog.String("bench", fs.Name()), slog.String("store", target.Name),
		slog.String("out", fs.out), slog.String("plot", fs.plot))
	return nil
}

// result is what a bench reports.
type result interface {
	WriteJSON(io.Writer) error
	WritePlot(io.Writer) error
}

// writeResult writes res's plot to the file plot, if set, and its JSON to
// the file out, or to stdout if out is empty.
func writeResult(res result, out, plot string, stdout io.Writer) error {
	if plot != "" {
		if err := writeFile(plot, res.WritePlot); err != nil {
			return err
		}
	}
	if out == "" {
		return res.WriteJSON(stdout)
	}
	return writeFile(out, res.WriteJSON)
}

// benchTarget returns the target of the database url names, which the
// bench creates, and what to remove once it is done.
func benchTarget(ctx context.Context, url string) (bench.Target, func(), error) {
	switch {
	case strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://"):
		return postgresTarget(ctx, url)
	case strings.HasPrefix(url, "mysql://"):
		return mysqlTarget(ctx, url)
	}
	path, cleanup, err := benchPath(url)
	return sqliteTarget(path), cleanup, err
}

// benchPath returns the path of the database the bench may create, and
// what to remove once it is done: the seed copy always, the whole
// directory if the path is a temporary one.
func benchPath(url string) (string, func(), error) {
	if url == "" {
		dir, err := os.MkdirTemp("", "lapse-bench")
		if err != nil {
			return "", nil, err
		}
		return filepath.Join(dir, "bench.db"), func() { os.RemoveAll(dir) }, nil
	}
	path, err := sqlitePath(url)
	if err != nil {
		return "", nil, err
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return "", nil, fmt.Errorf("--store: %s exists; the bench needs a database of its own", path)
	}
	return path, func() { removeDB(path + ".seed") }, nil
}

// sqliteTarget is the bench target of a new SQLite database at path; Save
// keeps the seed beside it in path.seed.
func sqliteTarget(path string) bench.Target {
	seed := path + ".seed"
	return bench.Target{
		Name:    "sqlite",
		Open:    openTarget(sqlite.Open, path, sqlite.Options{}),
		Save:    func() error { return copyDB(path, seed) },
		Restore: func() error { return copyDB(seed, path) },
	}
}

// openTarget is a bench target's Open: a store, with the bench's hooks,
// on the driver open makes of dsn and opts. Each backend's driver offers
// the bench its raw drains: D says so.
func openTarget[D interface {
	driver.Driver
	bench.Raw
}, O any](open func(context.Context, string, O) (D, error), dsn string, opts O) func(context.Context, store.Hooks) (bench.Store, bench.Raw, error) {
	return func(ctx context.Context, h store.Hooks) (bench.Store, bench.Raw, error) {
		d, err := open(ctx, dsn, opts)
		if err != nil {
			return nil, nil, err
		}
		return store.New(d, store.Options{Hooks: h}), d, nil
	}
}

// dbFiles are the suffixes of the files of one SQLite database.
var dbFiles = []string{"", "-wal", "-shm"}

// copyDB replaces the closed database at to with a copy of the one at from.
func copyDB(from, to string) error {
	removeDB(to)
	for _, suffix := range dbFiles[:2] { // a closed database needs no -shm
		if err := copyFile(from+suffix, to+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func removeDB(path string) {
	for _, suffix := range dbFiles {
		os.Remove(path + suffix)
	}
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	return writeFile(to, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// writeFile creates path and writes it with fn.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
