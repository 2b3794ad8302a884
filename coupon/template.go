package coupon

import (
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/input"
)

// Template is a coupon campaign: what a coupon is worth, how long it lasts
// and who may claim how many.
type Template struct {
	ID       string
	Name     string
	Value    int64 // minor units
	MinSpend int64 // minor units
	// StartsAt opens claiming.
	StartsAt time.Time
	// EndsAt, if set, closes claiming and caps every coupon's expires_at.
	EndsAt time.Time
	// Duration, if set, is each coupon's life from its claim.
	Duration time.Duration
	// PerUserLimit and Total: 0 means unlimited.
	PerUserLimit int64
	Total        int64
	// Reminders are lead times before expiry, longest first.
	Reminders []time.Duration
	CreatedAt time.Time
	// ClosedAt, once set, is when the template was closed: it takes no
	// more claims nor issuance, and its coupons live on as they were.
	ClosedAt time.Time
	// Version counts the template's stored changes: a change is a
	// compare-and-set on it.
	Version int64
}

// Validate reports the first field whose value is out of range, at now:
// a template whose claim window closes before now could never be claimed.
func (t Template) Validate(now time.Time) error {
	if err := input.Name("name", t.Name); err != nil {
		return err
	}
	if err := validateValue(t.Value); err != nil {
		return err
	}
	if err := input.Money("min_spend", t.MinSpend); err != nil {
		return err
	}
	switch {
	case t.EndsAt.IsZero() && t.Duration == 0:
		return input.Invalid("validity", "needs ends_at, duration or both")
	case !t.EndsAt.IsZero() && !t.EndsAt.After(t.StartsAt):
		return input.Invalid("validity.ends_at", "must be after starts_at")
	case !t.EndsAt.IsZero() && !t.EndsAt.After(now):
		return input.Invalid("validity.ends_at", "must be in the future")
	}
	if err := input.Count("per_user_limit", t.PerUserLimit); err != nil {
		return err
	}
	if err := input.Count("total", t.Total); err != nil {
		return err
	}
	if t.Duration != 0 {
		if err := input.Duration("validity.duration", t.Duration); err != nil {
			return err
		}
	}
	return validateReminders(t.Reminders)
}

// validateValue checks a coupon's value: money, and more than nothing.
func validateValue(v int64) error {
	if err := input.Money("value", v); err != nil {
		return err
	}
	if v == 0 {
		return input.Invalid("value", "must be positive")
	}
	return nil
}

// MaxReminders is the most distinct lead times a template may have: each
// is a reminder row written for every coupon claimed or issued, so the
// bound is one on what a claim writes.
const MaxReminders = 10

// validateReminders checks a template's reminders: each a duration, at
// most MaxReminders distinct ones (a lead given twice counts once, as
// SortReminders keeps it once).
func validateReminders(leads []time.Duration) error {
	var distinct []time.Duration
	for i, d := range leads {
		if err := input.Duration(fmt.Sprintf("reminders[%d]", i), d); err != nil {
			return err
		}
		if !slices.Contains(distinct, d) {
			distinct = append(distinct, d)
		}
		if len(distinct) > MaxReminders {
			return input.Invalid("reminders", fmt.Sprintf("at most %d distinct lead times", MaxReminders))
		}
	}
	return nil
}

// SortReminders orders the lead times longest first, without repeats.
func (t *Template) SortReminders() {
	slices.SortFunc(t.Reminders, func(a, b time.Duration) int { return int(b - a) })
	t.Reminders = slices.Compact(t.Reminders)
}

// Claimable reports whether the claim window is open at now: the template
// is not closed (ErrTemplateClosed) and now is within its validity.
func (t Template) Claimable(now time.Time) error {
	if !t.ClosedAt.IsZero() {
		return ErrTemplateClosed
	}
	if now.Before(t.StartsAt) || (!t.EndsAt.IsZero() && !now.Before(t.EndsAt)) {
		return ErrNotClaimable
	}
	return nil
}

// ExpiresAt is the expiry of a coupon claimed at claimedAt:
// min(claimedAt + Duration, EndsAt), whichever are set.
func (t Template) ExpiresAt(claimedAt time.Time) time.Time {
	if t.Duration == 0 {
		return t.EndsAt
	}
	exp := claimedAt.Add(t.Duration)
	if !t.EndsAt.IsZero() && t.EndsAt.Before(exp) {
		return t.EndsAt
	}
	return exp
}
