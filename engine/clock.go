package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/lapsehq/lapse/store"
)

// clockSource is a database whose clock is the authority.
type clockSource interface {
	Clock(ctx context.Context) (time.Time, error)
}

// clockGuard measures this instance's clock against the database's, the
// authority when many instances share the work, and holds the engine's
// firing while the skew passes its bound: an instance whose clock runs
// ahead would fire early. Within the bound, it corrects the clock the
// engine decides by, db, to the database's.
type clockGuard struct {
	src   clockSource
	local func() time.Time
	db    *Clock
	bound time.Duration
	log   *slog.Logger
	// outage tells of an outage in place of log.
	outage *store.Outage
	m      *Metrics
	// resumed is called when the skew comes back within bound, to fire
	// what came due while the engine held.
	resumed func()
	// report records each skew measured.
	report func(ctx context.Context, skew time.Duration)

	mu  sync.Mutex
	err error
}

// errUnmeasured holds the engine until the first measurement.
var errUnmeasured = errors.New("clock skew not measured yet")

// Err says why the engine must not fire now, nil if it may.
func (c *clockGuard) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// readSkew reads the database's clock once, db, and returns how far the
// middle of the round trip on the local clock runs ahead of it, and when
// the round trip ended on the local clock.
func readSkew(ctx context.Context, src clockSource, local func() time.Time) (skew time.Duration, db, end time.Time, err error) {
	t0 := local()
	db, err = src.Clock(ctx)
	end = local()
	return t0.Add(end.Sub(t0) / 2).Sub(db), db, end, err
}

// measure reads the database's clock once and compares it with the
// middle of the round trip on the local one.
func (c *clockGuard) measure(ctx context.Context) {
	skew, db, t1, err := readSkew(ctx, c.src, c.local)
	if err != nil {
		if ctx.Err() == nil && !c.outage.Failed(err) {
			c.log.Error("engine: read the database clock", slog.Any("err", err))
		}
		return // the last verdict stands until the database answers
	}
	c.outage.Served()
	c.db.correct(db, t1)
	c.m.clockSkew(skew)
	c.report(ctx, skew)
	var verdict error
	if skew > c.bound || skew < -c.bound {
		verdict = fmt.Errorf("clock skew %s against the database passes the bound %s: not firing", skew.Round(time.Millisecond), c.bound)
	}
	c.mu.Lock()
	was := c.err
	c.err = verdict
	c.mu.Unlock()
	switch {
	case verdict != nil && (was == nil || was == errUnmeasured):
		c.log.Error("engine: " + verdict.Error())
	case verdict == nil && was != nil && was != errUnmeasured:
		c.log.Info("engine: clock skew back within bound: firing", slog.Duration("skew", skew))
		c.resumed()
	}
}
