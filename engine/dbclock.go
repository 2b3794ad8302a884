package engine

import (
	"sync/atomic"
	"time"
)

// Clock is the clock one process decides by. On a store of its own it
// reads the local clock. One of many instances sharing a database (an
// engine with Config.Holder and Config.Clock), it reads the database's
// clock, the authority on when anything is due: the local clock set back
// by how far, at most, it runs ahead of the database's, as the engine
// measures it. So it never reads later than the database's clock, and an
// instance whose own clock runs ahead expires, releases and closes
// nothing, and its API decides nothing, before the database's clock says
// it is due. Before the first measurement it reads the local clock set
// back by the bound of the skew, Config.MaxSkew; the engine does not fire
// until then.
type Clock struct {
	local func() time.Time
	ahead atomic.Int64 // how far at most local reads ahead of the database, in ns
	// replay: local is not the wall clock, and no engine corrects it.
	replay bool
}

// NewClock returns a Clock over the local clock, uncorrected until an
// engine measures the database's.
func NewClock(local func() time.Time) *Clock {
	return &Clock{local: local}
}

// ReplayClock returns a Clock that reads now, which no engine corrects: the
// clock of a replay that jumps its own time (lapse bench), of which the
// database's clock says nothing.
func ReplayClock(now func() time.Time) *Clock {
	return &Clock{local: now, replay: true}
}

// Now reads the clock.
func (c *Clock) Now() time.Time {
	return c.local().Add(-time.Duration(c.ahead.Load()))
}

// correct records a reading db of the database's clock whose round trip
// ended at the local instant end. The database read its clock at some
// instant of the round trip, perhaps its very end: the local clock runs
// ahead of the database's by at most end-db. (The middle of the round
// trip, a better estimate of the skew, could read later than the
// database's by half the round trip.)
func (c *Clock) correct(db, end time.Time) {
	c.assume(end.Sub(db))
}

// assume sets how far at most the local clock runs ahead of the
// database's.
func (c *Clock) assume(ahead time.Duration) {
	if !c.replay {
		c.ahead.Store(int64(ahead))
	}
}
