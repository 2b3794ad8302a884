package storetype

import "time"

// TimerKind names what a group timer fires.
type TimerKind string

// The group timer kinds.
const (
	// TimerExpire fires coupon expiry.
	TimerExpire TimerKind = "coupon.expire"
	// TimerRelease fires lock TTL release.
	TimerRelease TimerKind = "coupon.release"
	// TimerClose fires unpaid-order timeouts.
	TimerClose TimerKind = "order.close"
	// TimerRemind fires planned reminders.
	TimerRemind TimerKind = "reminder.due"
)

// TimerBucket is the width of a group timer: everything of one kind due
// within the same bucket shares one timer row.
const TimerBucket = time.Second

// Timer is one durable group timer: work of Kind falls due from Due, the
// start of its bucket, until Due+TimerBucket.
type Timer struct {
	Kind TimerKind
	Due  time.Time
}

// BucketOf returns the start of the bucket t falls in.
func BucketOf(t time.Time) time.Time { return t.Truncate(TimerBucket) }
