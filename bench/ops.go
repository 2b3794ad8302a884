package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// extendBy is how much the bulk extend adds to each coupon's expires_at.
const extendBy = 24 * time.Hour

// OpsConfig sets up RunOps. Target and Coupons are required.
type OpsConfig struct {
	Target Target
	// Coupons is how many coupons the bulk void works, and how many the
	// bulk extend works, each on a template of its own.
	Coupons int
	// Users is how many users hold those coupons, round robin; each also
	// holds one live coupon that the user load spends. 0 means 100,000.
	Users int
	// UserRate is the user load in operations a second; 0 means 300.
	UserRate float64
	// BatchSize is the rows per transaction of the engine's drains and
	// of the archive; 0 means 1000.
	BatchSize int
	// OperationBatch is the coupons per transaction of the operations; 0
	// means engine.DefaultOperationBatch.
	OperationBatch int
	// OperationShare is the share of its time the operations' worker
	// spends in batches; 0 means lapse serve's default for the store (see
	// engine.OperationShare).
	OperationShare float64
	// Idle is how long the idle phase measures; 0 means 10s.
	Idle time.Duration
	// Progress receives progress bars; nil draws none.
	Progress io.Writer
	// Log receives the engine's log; nil discards it.
	Log *slog.Logger
	// CPUProfile, if set, receives a CPU profile of the bulk void, with
	// the user load beside it.
	CPUProfile io.Writer
}

func (c *OpsConfig) defaults() error {
	c.Users = orDefault(c.Users, 100_000)
	c.UserRate = orDefault(c.UserRate, 300)
	c.BatchSize = orDefault(c.BatchSize, 1000)
	c.OperationBatch = orDefault(c.OperationBatch, engine.DefaultOperationBatch)
	c.OperationShare = engine.OperationShare(c.OperationShare, c.Target.Name == "sqlite")
	c.Idle = orDefault(c.Idle, 10*time.Second)
	quiet(&c.Progress, &c.Log)
	switch {
	case c.Target.Open == nil:
		return errors.New("bench: the target needs Open")
	case c.Coupons <= 0:
		return errors.New("bench: coupons must be positive")
	case !(c.OperationShare > 0 && c.OperationShare <= 1):
		return fmt.Errorf("bench: the operation share must be more than 0 and at most 1, not %g", c.OperationShare)
	}
	return nil
}

// tally counts the committed events of one type and when the latest of
// them committed (Unix nanoseconds).
type tally struct{ n, last atomic.Int64 }

// opsRun is one run of RunOps in progress, on one store opened once.
type opsRun struct {
	cfg   OpsConfig
	clock *clock
	res   OpsResult
	st    Store
	load  *load
	rec   *recorder
	// events tallies the claims, voids and extensions by event type;
	// archived counts the coupons archived.
	events   map[string]*tally
	archived atomic.Int64
	// The templates: voided, extended, and the one the load spends.
	void, extend, live string
	// origin is when the idle phase starts measuring: the plot's zero.
	origin time.Time
}

// RunOps runs the bench of the bulk operations: seed a template of
// Coupons coupons to void and one to extend, measure the user load alone,
// then void the first and extend the second through the engine, as lapse
// serve works an operation, under that load, and last archive the voided
// coupons (and those the load redeemed) with the load stopped.
func RunOps(ctx context.Context, cfg OpsConfig) (OpsResult, error) {
	if err := cfg.defaults(); err != nil {
		return OpsResult{}, err
	}
	o := &opsRun{cfg: cfg, clock: &clock{}, rec: &recorder{}, events: map[string]*tally{
		store.EventCouponClaimed: {}, store.EventCouponVoided: {}, store.EventCouponExtended: {},
	}}
	o.res = OpsResult{Store: cfg.Target.Name, Coupons: cfg.Coupons, Users: cfg.Users, UserRate: cfg.UserRate,
		BatchSize: cfg.BatchSize, OperationBatch: cfg.OperationBatch, OperationShare: cfg.OperationShare, IdleSeconds: cfg.Idle.Seconds(), ExtendBy: extendBy.Seconds(), CPUs: runtime.NumCPU()}
	o.res.LoadAvg = append(o.res.LoadAvg, loadAvg()...)
	wheel := newWheel(o.clock.Now)
	st, raw, err := cfg.Target.Open(ctx, store.Hooks{OnTimer: engine.Hint(wheel), OnEvents: o.tally, OnArchived: func(what string, n int64) {
		if what == store.ArchivedCoupons {
			o.archived.Add(n)
		}
	}})
	if err != nil {
		return o.res, err
	}
	defer st.Close()
	o.st = st
	if err := o.seed(ctx); err != nil {
		return o.res, fmt.Errorf("bench seed: %w", err)
	}
	if err := o.settle(ctx, raw); err != nil {
		return o.res, fmt.Errorf("bench settle: %w", err)
	}
	ec := engineConfig(cfg.Target, st, wheel, o.clock.Now, cfg.Log, cfg.BatchSize, 0)
	ec.OperationBatch, ec.OperationShare = cfg.OperationBatch, cfg.OperationShare
	eng := engine.New(ec)
	if err := eng.Start(ctx); err != nil {
		return o.res, err
	}
	defer eng.Stop()
	if err := o.underLoad(ctx); err != nil {
		return o.res, err
	}
	eng.Stop()
	if err := o.archive(ctx); err != nil {
		return o.res, fmt.Errorf("bench archive: %w", err)
	}
	o.res.LoadAvg = append(o.res.LoadAvg, loadAvg()...)
	return o.res, nil
}

// tally counts events in o.events.
func (o *opsRun) tally(events []storetype.Event) {
	now := time.Now().UnixNano()
	for _, e := range events {
		if t, ok := o.events[e.Type]; ok {
			t.n.Add(1)
			t.last.Store(now)
		}
	}
}

// seed creates the templates and issues their coupons through bulk
// issuance: Coupons of the one to void, Coupons of the one to extend, and
// a live coupon to every user.
func (o *opsRun) seed(ctx context.Context) error {
	n, users := o.cfg.Coupons, o.cfg.Users
	total := 2*n + users
	b := StartBar(o.cfg.Progress, "seed", int64(total), o.events[store.EventCouponClaimed].n.Load)
	start, now := time.Now(), o.clock.Now()
	month := func(tp *coupon.Template) { tp.Duration = 30 * 24 * time.Hour }
	for _, t := range []struct {
		id    *string
		name  string
		count int
	}{{&o.void, "void", n}, {&o.extend, "extend", n}, {&o.live, "live", users}} {
		var err error
		if *t.id, err = newTemplate(ctx, o.st, t.name, now, month); err != nil {
			return err
		}
		if err := issueTo(ctx, o.st, *t.id, roundRobin(0, t.count, users), o.clock.Now()); err != nil {
			return err
		}
	}
	took := time.Since(start)
	o.res.Seed = SeedResult{Issued: total, Seconds: took.Seconds(), Rate: float64(total) / took.Seconds()}
	b.Finish(fmt.Sprintf("%.0f coupons/s", o.res.Seed.Rate))
	return nil
}

// settle settles the store after the seed (see Raw.Settle): the
// campaign a bulk operation stops or extends was issued long before.
func (o *opsRun) settle(ctx context.Context, raw Raw) error {
	var done atomic.Int64
	start := time.Now()
	b := StartBar(o.cfg.Progress, "settle", 1, done.Load)
	err := raw.Settle(ctx)
	done.Store(1)
	o.res.SettleSeconds = time.Since(start).Seconds()
	b.Finish(fmt.Sprintf("%.1fs", o.res.SettleSeconds))
	return err
}

// underLoad runs the user load through the idle phase, the bulk void and
// the bulk extend, sampling the coupons they have worked for the plot.
func (o *opsRun) underLoad(ctx context.Context) error {
	o.load = &load{st: o.st, now: o.clock.Now, users: o.cfg.Users, live: o.live, rate: o.cfg.UserRate, rec: o.rec, reads: &recorder{}}
	start := time.Now()
	o.origin = start.Add(warmup)
	o.load.start(ctx)
	defer o.load.stop()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			at := time.Since(o.origin).Seconds()
			o.res.voided = append(o.res.voided, Point{T: at, V: float64(o.events[store.EventCouponVoided].n.Load())})
			o.res.extended = append(o.res.extended, Point{T: at, V: float64(o.events[store.EventCouponExtended].n.Load())})
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	err := o.phases(ctx, start)
	close(stop)
	<-stopped
	end := time.Now()
	o.res.p99 = series(o.rec.between(o.origin, end), o.origin, 0, end.Sub(o.origin), p99Window, p99)
	return err
}

// phases runs the idle phase, from start, then the bulk void and the bulk
// extend, while the load runs.
func (o *opsRun) phases(ctx context.Context, start time.Time) error {
	b := StartBar(o.cfg.Progress, "idle", (warmup + o.cfg.Idle).Milliseconds(), func() int64 { return time.Since(start).Milliseconds() })
	err := sleep(ctx, warmup+o.cfg.Idle)
	o.res.Idle = o.users(o.origin, o.origin.Add(o.cfg.Idle))
	b.Finish(o.res.Idle.note())
	if err != nil {
		return err
	}
	if o.cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(o.cfg.CPUProfile); err != nil {
			return err
		}
	}
	o.res.Void, err = o.bulk(ctx, "void", storetype.OperationVoid, o.void, storetype.OperationArgs{Reason: "bench"}, coupon.Voided)
	if o.cfg.CPUProfile != nil {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return fmt.Errorf("bench void: %w", err)
	}
	if o.res.Extend, err = o.bulk(ctx, "extend", storetype.OperationExtend, o.extend, storetype.OperationArgs{By: extendBy}, coupon.Unused); err != nil {
		return fmt.Errorf("bench extend: %w", err)
	}
	idle := o.res.Idle.Writes.P99
	o.res.Ratios = OpsRatios{UserP99VoidVsIdle: ratio(o.res.Void.Users.Writes.P99, idle), UserP99ExtendVsIdle: ratio(o.res.Extend.Users.Writes.P99, idle)}
	return nil
}

// users returns the figures of the user load's operations started in
// [from, to).
func (o *opsRun) users(from, to time.Time) UserLoad {
	writes, ops := summarize(o.rec.between(from, to))
	return UserLoad{Writes: writes, Ops: ops, Reads: stats(o.load.reads.between(from, to))}
}

// bulk starts an operation of kind on the coupons of template tpl, lets
// the engine work it to the end and measures it: from when the engine
// took it to when its last batch committed. Every coupon must have been
// worked once, with one event each, and left in state after.
func (o *opsRun) bulk(ctx context.Context, label string, kind storetype.OperationKind, tpl string, args storetype.OperationArgs, after coupon.State) (BulkRun, error) {
	events := o.events[map[storetype.OperationKind]string{storetype.OperationVoid: store.EventCouponVoided, storetype.OperationExtend: store.EventCouponExtended}[kind]]
	op, err := o.st.StartOperation(ctx, store.StartOperationParams{Kind: kind, Target: storetype.OperationTarget{TemplateID: tpl}, Args: args, Now: o.clock.Now()})
	if err != nil {
		return BulkRun{}, err
	}
	b := StartBar(o.cfg.Progress, label, int64(o.cfg.Coupons), events.n.Load)
	op, err = o.await(ctx, op.ID)
	if err != nil {
		b.Finish(err.Error())
		return BulkRun{}, err
	}
	info, err := o.st.Template(ctx, store.TemplateParams{ID: tpl, Now: o.clock.Now()})
	if err != nil {
		b.Finish(err.Error())
		return BulkRun{}, err
	}
	start, end := op.StartedAt, time.Unix(0, events.last.Load())
	took := end.Sub(start)
	r := BulkRun{Operation: op.ID, Start: start.Sub(o.origin).Seconds(), Seconds: took.Seconds(),
		Worked: op.Counts.Voided + op.Counts.Extended, Events: events.n.Load(), Skipped: op.Counts.Skipped,
		PendingLocked: op.Counts.PendingLocked, Template: map[string]int64{}, Users: o.users(start, end)}
	for st, n := range info.Counts {
		if n != 0 {
			r.Template[st.String()] = n
		}
	}
	r.Rate = float64(r.Worked) / took.Seconds()
	b.Finish(fmt.Sprintf("%.0f coupons/s, %s", r.Rate, r.Users.note()))
	if n := int64(o.cfg.Coupons); r.Worked != n || r.Events != n || r.Template[after.String()] != n || len(r.Template) != 1 {
		return r, fmt.Errorf("worked %d coupons with %d events, the template counts %v; want %d each, all %s", r.Worked, r.Events, r.Template, n, after)
	}
	return r, nil
}

// await waits until operation id is done, and returns it.
func (o *opsRun) await(ctx context.Context, id string) (store.Operation, error) {
	var done int64
	progressed := time.Now()
	for {
		op, err := o.st.Operation(ctx, id)
		if err != nil || op.State == storetype.OperationDone {
			return op, err
		}
		if op.Done > done {
			done, progressed = op.Done, time.Now()
		}
		if time.Since(progressed) > stallAfter {
			return op, fmt.Errorf("operation %s stalled at %d of %d", id, op.Done, op.Total)
		}
		if err := sleep(ctx, sampleEvery); err != nil {
			return op, err
		}
	}
}

// archive archives every terminal coupon, the load stopped: the voided
// ones and those the load redeemed, all last changed before now+1s.
func (o *opsRun) archive(ctx context.Context) error {
	info, err := o.st.Template(ctx, store.TemplateParams{ID: o.live, Now: o.clock.Now()})
	if err != nil {
		return err
	}
	r := ArchiveRun{Voided: int64(o.cfg.Coupons), Redeemed: info.Counts[coupon.Used]}
	want := r.Voided + r.Redeemed
	b := StartBar(o.cfg.Progress, "archive", want, o.archived.Load)
	now := o.clock.Now()
	start := time.Now()
	got, err := o.st.Archive(ctx, store.ArchiveParams{Before: now.Add(time.Second), Now: now, Limit: o.cfg.BatchSize})
	took := time.Since(start)
	if err != nil {
		b.Finish(err.Error())
		return err
	}
	r.Seconds, r.Coupons, r.Rate = took.Seconds(), got.Coupons, float64(got.Coupons)/took.Seconds()
	o.res.Archive = r
	b.Finish(fmt.Sprintf("%.0f coupons/s", r.Rate))
	if got.Coupons != want {
		return fmt.Errorf("archived %d coupons, want %d voided + %d redeemed", got.Coupons, r.Voided, r.Redeemed)
	}
	return nil
}
