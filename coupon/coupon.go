package coupon

import "time"

// Coupon is one user's coupon: an instance of a Template.
type Coupon struct {
	ID         string
	TemplateID string
	UserID     string
	Status     State
	ClaimedAt  time.Time
	ExpiresAt  time.Time
	// OrderID is the order holding (Locked) or having spent (Used) it.
	OrderID string
	// LockedUntil is when a lock's TTL passes; zero unless Locked.
	LockedUntil time.Time
	UpdatedAt   time.Time
	// Version counts the coupon's transitions; the store's compare-and-set
	// guards on it.
	Version int64
}

// View applies the lazy check: an unused coupon at or past its expires_at
// reads as expired even before the engine has stored it.
func (c Coupon) View(now time.Time) Coupon {
	if c.Status == Unused && !now.Before(c.ExpiresAt) {
		c.Status = Expired
	}
	return c
}
