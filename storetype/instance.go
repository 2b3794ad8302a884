package storetype

import (
	"time"
)

// Instance is one lapse instance as the store last saw it: when, on the
// database's clock, and the skew of its clock against the database's as
// it last measured it (the local clock ahead positive), at SkewAt; a zero
// SkewAt: it has not measured.
type Instance struct {
	Name   string
	SeenAt time.Time
	Skew   time.Duration
	SkewAt time.Time
}
