package coupon

import (
	"slices"
	"time"

	"github.com/lapsehq/lapse/input"
)

// TemplateChange is an operator's change of a template: each field set
// replaces the template's, each nil one leaves it as it is.
//
// What a change reaches: a new name, value or total holds from the change
// on, for the coupons already issued too (an order created later takes the
// new value; one created before keeps the discount it computed). New
// reminders are planned for coupons claimed or issued after the change,
// and for a coupon of the template that comes back to unused; reminders
// already planned stay as they were. A total below what is already issued
// is refused (see the store's ChangeTemplate).
type TemplateChange struct {
	Name  *string
	Value *int64
	Total *int64
	// Reminders replaces the lead times; an empty list sets none (the
	// server's default leads then apply).
	Reminders *[]time.Duration
}

// Validate reports the first field set whose value is out of range, by
// the rules a new template meets.
func (c TemplateChange) Validate() error {
	if c.Name != nil {
		if err := input.Name("name", *c.Name); err != nil {
			return err
		}
	}
	if c.Value != nil {
		if err := validateValue(*c.Value); err != nil {
			return err
		}
	}
	if c.Total != nil {
		if err := input.Count("total", *c.Total); err != nil {
			return err
		}
	}
	if c.Reminders != nil {
		return validateReminders(*c.Reminders)
	}
	return nil
}

// Apply returns t with c's fields in place of its own, its reminders
// sorted as a new template's are.
func (c TemplateChange) Apply(t Template) Template {
	if c.Name != nil {
		t.Name = *c.Name
	}
	if c.Value != nil {
		t.Value = *c.Value
	}
	if c.Total != nil {
		t.Total = *c.Total
	}
	if c.Reminders != nil {
		t.Reminders = slices.Clone(*c.Reminders)
		if len(t.Reminders) == 0 {
			t.Reminders = nil
		}
		t.SortReminders()
	}
	return t
}
