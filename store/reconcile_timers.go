package store

import (
	"context"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// timers checks that every bucket in which pending coupons fall due, from
// the bucket after now's on, has its group timer: expiry for unused
// coupons, release for locked ones. It walks the due times as a loose
// index scan, one seek per bucket that has any. Buckets up to now's are
// the sweeper's: the engine deletes a bucket's timer once it drained it,
// and the sweeper finds whatever a drain skipped. A timer found missing
// is looked for again after the bucket's due times are read again, so
// that a drain that finished the bucket in between is not drift.
func (r *reconciler) timers(ctx context.Context) error {
	for _, kind := range []storetype.TimerKind{storetype.TimerExpire, storetype.TimerRelease} {
		from := storetype.BucketOf(r.p.Now).Add(storetype.TimerBucket)
		for {
			due, err := read(ctx, r.db, func(x driver.Executor) (time.Time, error) {
				return x.PendingFrom(ctx, driver.PendingFromParams{Kind: kind, From: from})
			})
			if err != nil {
				return err
			}
			if due.IsZero() {
				break
			}
			tm := storetype.Timer{Kind: kind, Due: storetype.BucketOf(due)}
			from = tm.Due.Add(storetype.TimerBucket)
			missing, err := r.timerMissing(ctx, tm)
			if err != nil {
				return err
			}
			if !missing {
				continue
			}
			d := Drift{Check: CheckTimer, Subject: timerSubject(tm), Expected: 1, Actual: 0,
				Detail: fmt.Sprintf("%s coupons fall due from %s without a timer", kind, tm.Due.UTC().Format(storetype.TimeFormat))}
			if err := r.found(ctx, d, func(ctx context.Context) (bool, error) { return r.repairTimer(ctx, tm) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// timerMissing reports whether tm is missing while coupons of its kind
// are pending in its bucket, read in that order.
func (r *reconciler) timerMissing(ctx context.Context, tm storetype.Timer) (bool, error) {
	ok, err := read(ctx, r.db, func(x driver.Executor) (bool, error) { return x.HasTimer(ctx, tm) })
	if err != nil || ok {
		return false, err
	}
	due, err := read(ctx, r.db, func(x driver.Executor) (time.Time, error) {
		return x.PendingFrom(ctx, driver.PendingFromParams{Kind: tm.Kind, From: tm.Due})
	})
	return !due.IsZero() && storetype.BucketOf(due).Equal(tm.Due), err
}

// timerSubject names a group timer in a drift or an event.
func timerSubject(tm storetype.Timer) string {
	return string(tm.Kind) + "@" + tm.Due.UTC().Format(storetype.TimeFormat)
}

// TimerRepair is the data of a timer.repaired event.
type TimerRepair struct {
	Kind storetype.TimerKind `json:"kind"`
	Due  storetype.Timestamp `json:"due"`
}

// repairTimer puts back the group timer tm with a timer.repaired event.
func (r *reconciler) repairTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	return background(ctx, r.db, func(t *txn) (bool, error) {
		if err := t.Timer(tm.Kind, tm.Due); err != nil {
			return false, err
		}
		e := storetype.Event{ID: NewID("evt", r.p.Now), Type: EventTimerRepaired, Subject: timerSubject(tm), Time: r.p.Now,
			Data: mustJSON(TimerRepair{Kind: tm.Kind, Due: storetype.Timestamp(tm.Due)})}
		return true, t.Event(e)
	})
}
