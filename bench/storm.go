package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// Timing of the phases.
const (
	// preRoll is how long each drain phase runs the user load before T0.
	preRoll = 2 * time.Second
	// paceWarmup is how much longer before T0 than the pre-roll a paced
	// drain's paces start to hear its load, so that their baseline (the
	// latest 500 idle writes) holds none from the first seconds of a
	// store or an instance just started, as a running server's would not.
	paceWarmup = 3 * time.Second
	// warmup is how long the idle phase runs the load before measuring.
	warmup = time.Second
	// sampleEvery is the step of the expired-count series.
	sampleEvery = 100 * time.Millisecond
	// p99Window is the window of the user p99 series.
	p99Window = 250 * time.Millisecond
	// stallAfter fails a drain that expires nothing for this long.
	stallAfter = 2 * time.Minute
)

// Config sets up RunStorm. Target and Coupons are required.
type Config struct {
	Target Target
	// Coupons is the size of the storm: coupons all due at T0.
	Coupons int
	// Templates is how many templates the storm's coupons are spread over;
	// 0 means 10.
	Templates int
	// Users is how many users hold the storm's coupons, round robin; each
	// also holds one live coupon that the user load spends. 0 means 100,000.
	Users int
	// UserRate is the user load in operations a second; 0 means 300.
	UserRate float64
	// BatchSize is the rows per transaction of lapse's drain and of the
	// floor; 0 means 1000.
	BatchSize int
	// Idle is how long the idle phase measures; 0 means 30s. A short one
	// reads the users' p99 off whichever stalls of a noisy machine it
	// happens to meet: 5 s windows of one 2-minute idle phase here had
	// p99s of 6.6-32.7 ms, and a storm's drain, at 10-100 s, meets more
	// of them than 5 s of idle does.
	Idle time.Duration
	// Steady is how long the steady phase issues coupons that fall due at
	// SteadyRate a second; 0 means 10s and 1000.
	Steady     time.Duration
	SteadyRate int
	// Progress receives progress bars; nil draws none.
	Progress io.Writer
	// Log receives the engine's log; nil discards it.
	Log *slog.Logger
	// CPUProfile, if set, receives a CPU profile of lapse's drain, from T0
	// until the storm is expired.
	CPUProfile io.Writer
	// Instances is how many lapse instances drain the storm side by side,
	// each with its own connections, wheel and engine, sharing the shards;
	// 0 means 1. More than one needs a store with shard leases.
	Instances int
	// UserBudget, if above 1, paces lapse's drain to hold the users' write
	// p99 within UserBudget × idle (engine.Pace), as lapse serve's
	// --storm-user-budget; every instance hears the whole user load.
	UserBudget float64
	// FloorShare, if in (0, 1), holds the floor to that share of its
	// time, resting after each batch as a paced drain does
	// (engine.RestAfter): the floor at a lower user cost, to set beside
	// a paced lapse. 0 means 1, flat out.
	FloorShare float64
}

func (c *Config) defaults() error {
	c.Templates = orDefault(c.Templates, 10)
	c.Users = orDefault(c.Users, 100_000)
	c.UserRate = orDefault(c.UserRate, 300)
	c.BatchSize = orDefault(c.BatchSize, 1000)
	c.Instances = orDefault(c.Instances, 1)
	c.Idle = orDefault(c.Idle, 30*time.Second)
	c.Steady = orDefault(c.Steady, 10*time.Second)
	c.SteadyRate = orDefault(c.SteadyRate, 1000)
	if c.FloorShare == 0 {
		c.FloorShare = 1
	}
	quiet(&c.Progress, &c.Log)
	switch {
	case c.Target.Open == nil || c.Target.Save == nil || c.Target.Restore == nil:
		return errors.New("bench: the target needs Open, Save and Restore")
	case c.Coupons <= 0:
		return errors.New("bench: coupons must be positive")
	case c.Templates > c.Coupons:
		return errors.New("bench: more templates than coupons")
	case !(c.FloorShare > 0 && c.FloorShare <= 1):
		return fmt.Errorf("bench: floor share %v, want more than 0 and at most 1", c.FloorShare)
	case c.Instances > 1 && !c.Target.Shared:
		return fmt.Errorf("bench: %d instances: the %s store is one process's", c.Instances, c.Target.Name)
	}
	return nil
}

// RunStorm runs the storm bench: seed, idle, then lapse, naive and floor
// drains of the same seed, each under the same user load, and last a
// steady expiry under that load.
func RunStorm(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.defaults(); err != nil {
		return Result{}, err
	}
	r := &run{cfg: cfg, clock: &clock{}}
	r.res = Result{
		Store: cfg.Target.Name, Coupons: cfg.Coupons, Templates: cfg.Templates, Users: cfg.Users,
		UserRate: cfg.UserRate, BatchSize: cfg.BatchSize, Instances: cfg.Instances, UserBudget: cfg.UserBudget, FloorShare: cfg.FloorShare, CPUs: runtime.NumCPU(),
		series: map[string]drainSeries{}, Racers: map[string]Racers{},
	}
	r.res.LoadAvg = append(r.res.LoadAvg, loadAvg()...)
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"seed", r.seed}, {"idle", r.idle}, {"lapse", r.lapse}, {"naive", r.naive}, {"floor", r.floor},
		{"steady", r.steady},
	}
	for _, s := range steps {
		if err := s.fn(ctx); err != nil {
			return r.res, fmt.Errorf("bench %s: %w", s.name, err)
		}
	}
	r.res.LoadAvg = append(r.res.LoadAvg, loadAvg()...)
	idle := r.res.Idle.UserP99
	r.res.Ratios = Ratios{
		DrainVsFloor:       ratio(r.res.Lapse.Rate, r.res.Floor.Rate),
		UserP99StormVsIdle: ratio(r.res.Lapse.UserP99, idle),
		UserP99NaiveVsIdle: ratio(r.res.Naive.UserP99, idle),
		UserP99FloorVsIdle: ratio(r.res.Floor.UserP99, idle),
	}
	return r.res, nil
}

// run is one storm run in progress.
type run struct {
	cfg   Config
	clock *clock
	res   Result
	// t0 is when the storm falls due; live the template the load spends.
	t0   time.Time
	live string
	// paces pace the lapse phase's instances, one each; nil: flat out.
	paces []*engine.Pace
}

func userID(i int) string { return "u" + strconv.Itoa(i) }

// countOf counts the events of type typ.
func countOf(events []storetype.Event, typ string) int64 {
	var n int64
	for _, e := range events {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// open opens the target and its raw drains, and settles the store (see
// Raw.Settle) before anything runs on it: the seed and each restore of
// it write the whole store afresh, and the first seconds after them were
// slower than the rest (a 179 ms p99 in the first 5 s of a MariaDB idle
// phase, whose other windows were 7-11 ms), which the phase measured
// next, and a pace's baseline, would take for its own.
func (r *run) open(ctx context.Context, h store.Hooks) (Store, Raw, error) {
	st, raw, err := r.cfg.Target.Open(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	if err := raw.Settle(ctx); err != nil {
		st.Close()
		return nil, nil, fmt.Errorf("settle the store: %w", err)
	}
	return st, raw, nil
}

// seed creates the templates and issues the storm's coupons, all due at
// T0, and a live coupon to every user, through bulk issuance; then it
// saves the seed.
func (r *run) seed(ctx context.Context) error {
	var claimed atomic.Int64
	st, _, err := r.open(ctx, store.Hooks{OnEvents: func(events []storetype.Event) { claimed.Add(countOf(events, store.EventCouponClaimed)) }})
	if err != nil {
		return err
	}
	defer st.Close()
	now := r.clock.Now()
	r.t0 = now.Add(time.Hour).Truncate(time.Second)
	total := r.cfg.Coupons + r.cfg.Users
	b := StartBar(r.cfg.Progress, "seed", int64(total), claimed.Load)
	start := time.Now()
	per := (r.cfg.Coupons + r.cfg.Templates - 1) / r.cfg.Templates
	for t := range r.cfg.Templates {
		id, err := newTemplate(ctx, st, fmt.Sprintf("storm %d", t), now, func(tp *coupon.Template) { tp.EndsAt = r.t0 })
		if err != nil {
			return err
		}
		if err := issueTo(ctx, st, id, roundRobin(t*per, min((t+1)*per, r.cfg.Coupons), r.cfg.Users), r.clock.Now()); err != nil {
			return err
		}
	}
	if r.live, err = newTemplate(ctx, st, "live", now, func(tp *coupon.Template) { tp.Duration = 30 * 24 * time.Hour }); err != nil {
		return err
	}
	if err := issueTo(ctx, st, r.live, roundRobin(0, r.cfg.Users, r.cfg.Users), r.clock.Now()); err != nil {
		return err
	}
	took := time.Since(start)
	r.res.Seed = SeedResult{Issued: total, Seconds: took.Seconds(), Rate: float64(total) / took.Seconds()}
	b.Finish(fmt.Sprintf("%.0f coupons/s", r.res.Seed.Rate))
	if err := st.Close(); err != nil {
		return err
	}
	return r.cfg.Target.Save()
}

// newLoad returns the user load on st, recording its writes into rec and
// its reads into a recorder of its own.
func (r *run) newLoad(st Store, rec *recorder) *load {
	return &load{st: st, now: r.clock.Now, users: r.cfg.Users, live: r.live, rate: r.cfg.UserRate, rec: rec, reads: &recorder{}}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// idle measures the user load on the seeded store with nothing due, as
// a user of a running lapse meets it: beside the engines of Instances
// instances, started and holding their shares of the shards.
func (r *run) idle(ctx context.Context) error {
	var early atomic.Int64
	commit := func(n int64, _ time.Time) { early.Add(n) }
	wheel := newWheel(r.clock.Now)
	st, _, err := r.open(ctx, expiryHooks(wheel, commit))
	if err != nil {
		return err
	}
	defer st.Close()
	eng := newEngine(r.cfg.Target, st, wheel, r.clock.Now, r.cfg.Log, r.cfg.BatchSize, 0, nil)
	if err := eng.Start(ctx); err != nil {
		return err
	}
	defer eng.Stop()
	stop, err := r.moreInstances(ctx, eng, nil, commit)
	if err != nil {
		return err
	}
	defer stop()
	rec := &recorder{}
	l := r.newLoad(st, rec)
	start := time.Now()
	l.start(ctx)
	total := warmup + r.cfg.Idle
	b := StartBar(r.cfg.Progress, "idle", total.Milliseconds(), func() int64 { return time.Since(start).Milliseconds() })
	err = sleep(ctx, total)
	l.stop()
	all, ops := summarize(rec.between(start.Add(warmup), start.Add(total)))
	reads := stats(l.reads.between(start.Add(warmup), start.Add(total)))
	r.res.Idle = IdleResult{Engines: r.cfg.Instances, UserP50: all.P50, UserP99: all.P99, Ops: ops, Reads: reads,
		WindowP99: windowP99s(rec, start.Add(warmup), start.Add(total))}
	b.Finish(fmt.Sprintf("writes p50 %s p99 %s, %s", ms(all.P50), ms(all.P99), readsNote(reads)))
	if n := early.Load(); n > 0 && err == nil {
		err = fmt.Errorf("the idle engines expired %d coupons before they fell due", n)
	}
	return err
}

func ms(s float64) string { return fmt.Sprintf("%.1fms", s*1000) }

// readsNote is what a progress bar says of the reads' latency.
func readsNote(s OpStats) string {
	return fmt.Sprintf("reads p50 %s p99 %s max %s", ms(s.P50), ms(s.P99), ms(s.Max))
}

// phase is one drain of the seed under the user load.
type phase struct {
	st   Store
	raw  Raw
	load *load
	rec  *recorder
	// racers race the drain for storm coupons around T0.
	racers *racers
	// origin is the real time at which the clock reads T0.
	origin time.Time
	// expired counts the committed expiries; last is when the latest of
	// them committed (Unix nanoseconds).
	expired atomic.Int64
	last    atomic.Int64
	series  []Point
	bar     *Bar
	stop    chan struct{}
	stopped chan struct{}
}

// commit records n expiries committed at t.
func (p *phase) commit(n int64, t time.Time) {
	if n > 0 {
		p.expired.Add(n)
		p.last.Store(t.UnixNano())
	}
}

// begin restores the seed, sets the clock to preRoll before T0, opens the
// store with the hooks hooks(p) returns (if set) and starts the user load.
func (r *run) begin(ctx context.Context, hooks func(p *phase) store.Hooks) (*phase, error) {
	if err := r.cfg.Target.Restore(); err != nil {
		return nil, fmt.Errorf("restore the seed: %w", err)
	}
	r.clock.jumpTo(r.t0.Add(-preRoll))
	p := &phase{rec: &recorder{}, origin: r.clock.real(r.t0)}
	var h store.Hooks
	if hooks != nil {
		h = hooks(p)
	}
	var err error
	if p.st, p.raw, err = r.open(ctx, h); err != nil {
		return nil, err
	}
	if p.racers, err = newRacers(ctx, p.st, r.clock.Now, r.live, min(r.cfg.Coupons, r.cfg.Users)); err != nil {
		p.st.Close()
		return nil, err
	}
	p.load = r.newLoad(p.st, p.rec)
	p.load.start(ctx)
	return p, nil
}

// awaitT0 waits until T0, then samples the expired count for the plot and
// the progress bar until end.
func (r *run) awaitT0(ctx context.Context, p *phase, label string) error {
	p.racers.start(ctx, p.origin)
	if err := sleep(ctx, time.Until(p.origin)); err != nil {
		return err
	}
	// Done are the coupons expired and those racers took, which the
	// drain leaves.
	done := func() int64 { return p.expired.Load() + p.racers.taken.Load() }
	p.bar = StartBar(r.cfg.Progress, label, int64(r.cfg.Coupons), done)
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			p.series = append(p.series, Point{T: time.Since(p.origin).Seconds(), V: float64(p.expired.Load())})
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// end stops the load and the sampling, closes the store, and records the
// drain that ended at end as name.
func (r *run) end(p *phase, name string, end time.Time) (Drain, error) {
	p.load.stop()
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
		p.series = append(p.series, Point{T: end.Sub(p.origin).Seconds(), V: float64(p.expired.Load())})
	}
	racers := p.racers.wait(r.t0)
	r.res.Racers[name] = racers
	want := int64(r.cfg.Coupons) - racers.Taken
	took := end.Sub(p.origin)
	all, ops := summarize(p.rec.between(p.origin, end))
	d := Drain{DrainSeconds: took.Seconds(), Rate: float64(want) / took.Seconds(), UserP50: all.P50, UserP99: all.P99, Ops: ops,
		Reads: stats(p.load.reads.between(p.origin, end))}
	r.res.series[name] = drainSeries{
		expired: p.series,
		p99:     series(p.rec.between(p.origin.Add(-preRoll), end), p.origin, -preRoll+p99Window, took, p99Window, p99),
	}
	if p.bar != nil {
		p.bar.Finish(fmt.Sprintf("%.0f coupons/s, writes p50 %s p99 %s, %s; %s", d.Rate, ms(d.UserP50), ms(d.UserP99), readsNote(d.Reads), racers))
	}
	if n := p.expired.Load(); n != want {
		return d, fmt.Errorf("expired %d coupons, want %d (%d taken by racers)", n, want, racers.Taken)
	}
	return d, nil
}

// lapse drains the storm with lapse's engine: the group timer fires from
// the wheel at T0 and the engine expires in batches, an event per coupon.
func (r *run) lapse(ctx context.Context) error {
	var wheel *timer.Wheel
	r.paces = nil
	if r.cfg.UserBudget > 1 {
		knob := engine.BatchFirst // as lapse serve's (cli.paceKnob)
		if r.cfg.Target.Shared {
			knob = engine.ShareFirst
		}
		for range r.cfg.Instances {
			r.paces = append(r.paces, engine.NewPace(r.cfg.UserBudget, knob, time.Now))
		}
	}
	var warm atomic.Bool // the paces hear the users once every instance runs
	p, err := r.begin(ctx, func(p *phase) store.Hooks {
		wheel = newWheel(r.clock.Now)
		h := expiryHooks(wheel, p.commit)
		if r.paces != nil {
			h.OnUserWrite = func(d time.Duration) {
				if !warm.Load() {
					return
				}
				for _, pace := range r.paces {
					pace.Observe(d)
				}
			}
		}
		return h
	})
	if err != nil {
		return err
	}
	defer p.st.Close()
	var pace *engine.Pace
	if r.paces != nil {
		pace = r.paces[0]
	}
	eng := newEngine(r.cfg.Target, p.st, wheel, r.clock.Now, r.cfg.Log, r.cfg.BatchSize, 0, pace)
	if err := eng.Start(ctx); err != nil {
		return err
	}
	defer eng.Stop()
	stop, err := r.moreInstances(ctx, eng, r.paces, p.commit)
	if err != nil {
		return err
	}
	defer stop()
	var trace *paceTrace
	if pace != nil {
		trace = tracePace(pace)
		defer trace.end(p.origin)
		// A server meets a storm long after it and the others started:
		// the paces hear the load from once every instance holds its
		// shards, paceWarmup before the pre-roll, so that their
		// baseline comes from writes made with all of them running,
		// not from those their start slowed (two PostgreSQL runs with
		// three met writes of 218 and 282 ms before T0, none over 36 ms
		// in their storms).
		warm.Store(true)
		r.clock.jumpTo(r.t0.Add(-preRoll - paceWarmup))
		if err := sleep(ctx, paceWarmup); err != nil {
			return err
		}
	}
	if pace != nil || r.cfg.Instances > 1 {
		// T0 comes the pre-roll after the warm-up and once the shards
		// are shared out.
		r.clock.jumpTo(r.t0.Add(-preRoll))
		p.origin = r.clock.real(r.t0)
	}
	if err := r.awaitT0(ctx, p, "lapse"); err != nil {
		return err
	}
	if r.cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(r.cfg.CPUProfile); err != nil {
			return err
		}
	}
	end, err := r.waitExpired(ctx, p)
	if r.cfg.CPUProfile != nil {
		pprof.StopCPUProfile()
	}
	if trace != nil {
		r.res.Pace = trace.end(p.origin)
	}
	if err != nil {
		return err
	}
	eng.Stop()
	d, err := r.end(p, "lapse", end)
	if err != nil {
		return err
	}
	lags, err := p.raw.ExpiryLags(ctx)
	if err != nil {
		return err
	}
	q := quantilesOf(lags)
	d.LagP50, d.LagP99, d.LagMax = &q.P50, &q.P99, &q.Max
	r.res.Lapse = d
	return nil
}

// waitExpired waits until the engine has expired the whole storm, but
// for the coupons the racers took, and returns when the last expiry
// committed.
func (r *run) waitExpired(ctx context.Context, p *phase) (time.Time, error) {
	taken := p.racers.wait(r.t0).Taken
	for p.expired.Load() < int64(r.cfg.Coupons)-taken {
		if err := sleep(ctx, 2*time.Millisecond); err != nil {
			return time.Time{}, err
		}
		last := time.Unix(0, max(p.last.Load(), p.origin.UnixNano()))
		if time.Since(last) > stallAfter {
			return time.Time{}, fmt.Errorf("the drain stalled at %d of %d", p.expired.Load(), r.cfg.Coupons)
		}
	}
	return time.Unix(0, p.last.Load()), nil
}

// naive drains the storm with the seeds' single UPDATE.
func (r *run) naive(ctx context.Context) (err error) {
	r.res.Naive, err = r.rawDrain(ctx, "naive", func(p *phase) error {
		n, err := p.raw.NaiveExpire(ctx, r.clock.Now())
		p.commit(n, time.Now())
		return err
	})
	return err
}

// floor drains the storm with raw batched UPDATEs and nothing else.
func (r *run) floor(ctx context.Context) (err error) {
	r.res.Floor, err = r.rawDrain(ctx, "floor", func(p *phase) error {
		for {
			began := time.Now()
			n, err := p.raw.FloorExpire(ctx, r.clock.Now(), r.cfg.BatchSize)
			if err != nil {
				return err
			}
			p.commit(n, time.Now())
			if n < int64(r.cfg.BatchSize) {
				return nil
			}
			if err := sleep(ctx, engine.RestAfter(time.Since(began), r.cfg.FloorShare)); err != nil {
				return err
			}
		}
	})
	return err
}

// rawDrain runs drain, one of the raw ways to expire the storm, from T0
// under the user load, and records it as name.
func (r *run) rawDrain(ctx context.Context, name string, drain func(p *phase) error) (Drain, error) {
	p, err := r.begin(ctx, nil)
	if err != nil {
		return Drain{}, err
	}
	defer p.st.Close()
	if err := r.awaitT0(ctx, p, name); err != nil {
		return Drain{}, err
	}
	if err := drain(p); err != nil {
		return Drain{}, err
	}
	return r.end(p, name, time.Unix(0, p.last.Load()))
}
