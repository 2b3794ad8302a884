package storetype

import "time"

// ForecastParams are the inputs of Forecast: Buckets buckets of Width
// each, the first starting at From.
type ForecastParams struct {
	From    time.Time
	Width   time.Duration
	Buckets int
	// TemplateID, if set, counts the coupons of that template only
	// (expiries and lock releases; no order is a template's).
	TemplateID string
}

// End is when the last bucket of p ends.
func (p ForecastParams) End() time.Time { return p.From.Add(time.Duration(p.Buckets) * p.Width) }

// DueCount is how many items of a kind fall due in one bucket of a
// forecast: N items whose due time lies in [From+Bucket*Width,
// From+(Bucket+1)*Width).
type DueCount struct {
	Kind   TimerKind
	Bucket int64
	N      int64
}

// ShardLease is one shard's lease as stored: its holder ("" while free),
// the fencing token it was last taken under, and when it expires on the
// database's clock.
type ShardLease struct {
	Shard     int
	Holder    string
	Token     int64
	ExpiresAt time.Time
}

// Held reports whether the lease is held at now, on the database's clock.
func (l ShardLease) Held(now time.Time) bool { return l.Holder != "" && now.Before(l.ExpiresAt) }
