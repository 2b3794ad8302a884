package store

import (
	"sync"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// knownAhead is how far past the wall clock a group timer's bucket must
// start for knownTimers to vouch for it. Timers are deleted only once
// their bucket has ended, by a drain's clock (the engine's: through now
// minus twice its load interval); a minute covers the skew between the
// clocks of instances sharing a store, far more than the engine fires
// with (--max-clock-skew, a second by default).
const knownAhead = time.Minute

// knownMax bounds how many timers knownTimers holds: past it, it forgets
// those inside knownAhead, then, if that was not enough, all of them.
const knownMax = 1 << 14

// knownTimers remembers the group timers this process's transactions
// committed for buckets at least knownAhead ahead, so that a write whose
// timer is one of them skips writing that row again: the thousandth
// order of a flash sale whose close falls in the same second, the
// thousandth checkout whose coupon lock runs out in it. It vouches for a
// timer only while no drain can have deleted it; DeleteTimers through
// this process forgets them all once it deleted, and a transaction that
// began before that adds nothing. One the store lost anyway (a restore, a
// hand-run DELETE) is the sweeper's and the reconciler's to find, as any
// timer an accelerator dropped.
type knownTimers struct {
	mu sync.Mutex
	m  map[storetype.Timer]struct{}
	// gen counts the forgets; a transaction takes it as it begins.
	gen uint64
}

// generation is what a transaction about to begin hands add.
func (k *knownTimers) generation() uint64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.gen
}

// has reports whether tm was committed and is still beyond knownAhead.
func (k *knownTimers) has(tm storetype.Timer) bool {
	if !tm.Due.After(time.Now().Add(knownAhead)) {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.m[tm]
	return ok
}

// add remembers timers a transaction committed, those beyond knownAhead,
// unless timers were forgotten since it began (gen, from generation):
// they may have been deleted after it wrote them.
func (k *knownTimers) add(timers []storetype.Timer, gen uint64) {
	if len(timers) == 0 {
		return
	}
	horizon := time.Now().Add(knownAhead)
	k.mu.Lock()
	defer k.mu.Unlock()
	if gen != k.gen {
		return
	}
	if k.m == nil {
		k.m = map[storetype.Timer]struct{}{}
	}
	for _, tm := range timers {
		if tm.Due.After(horizon) {
			k.m[tm] = struct{}{}
		}
	}
	if len(k.m) <= knownMax {
		return
	}
	for tm := range k.m {
		if !tm.Due.After(horizon) {
			delete(k.m, tm)
		}
	}
	if len(k.m) > knownMax {
		clear(k.m)
	}
}

// forget forgets every timer: timers were deleted.
func (k *knownTimers) forget() {
	k.mu.Lock()
	defer k.mu.Unlock()
	clear(k.m)
	k.gen++
}
