package input

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Bounds of outside values.
const (
	// MaxID is the most bytes an ID or key may take: users, orders, SKUs,
	// payments, templates, coupons, sinks and idempotency keys.
	MaxID = 128
	// MaxName is the most characters a name may take.
	MaxName = 200
	// MaxReason is the most characters a reason may take.
	MaxReason = 500
	// MaxMoney bounds a coupon's value and min_spend, in minor units (1e10
	// in major units). Ten coupons' values then sum far inside int64.
	MaxMoney = 1_000_000_000_000
	// MaxCount bounds a count: a template's total and per-user limit. Any
	// count plus the rows a store holds then stays far inside int64.
	MaxCount = 1_000_000_000_000
	// Precision is the finest duration stored: every duration is a whole
	// number of it.
	Precision = time.Millisecond
)

// InvalidError names the field whose value breaks a rule.
type InvalidError struct {
	Field  string
	Reason string
}

func (e *InvalidError) Error() string { return e.Field + ": " + e.Reason }

// Invalid returns the *InvalidError of field for reason.
func Invalid(field, reason string) error { return &InvalidError{Field: field, Reason: reason} }

// ID checks an ID or key: 1 to MaxID bytes of valid UTF-8, no control
// character, no leading or trailing whitespace. IDs compare byte for byte,
// so "a" and "a " would be two IDs a person cannot tell apart: refused.
func ID(field, s string) error {
	switch {
	case s == "":
		return Invalid(field, "is required")
	case len(s) > MaxID:
		return Invalid(field, fmt.Sprintf("at most %d bytes", MaxID))
	}
	if err := text(field, s); err != nil {
		return err
	}
	if strings.TrimSpace(s) != s {
		return Invalid(field, "must not start or end with whitespace")
	}
	return nil
}

// Name checks a required name: 1 to MaxName characters of valid UTF-8, no
// control character, not only whitespace.
func Name(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return Invalid(field, "must not be empty")
	}
	return Text(field, s, MaxName)
}

// Text checks optional free text: at most max characters of valid UTF-8,
// no control character.
func Text(field, s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return Invalid(field, fmt.Sprintf("at most %d characters", max))
	}
	return text(field, s)
}

// text refuses invalid UTF-8 and control characters (NUL among them, which
// PostgreSQL cannot store in text).
func text(field, s string) error {
	if !utf8.ValidString(s) {
		return Invalid(field, "must be valid UTF-8")
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return Invalid(field, "must not hold control characters")
	}
	return nil
}

// Money checks an amount in minor units: 0 to MaxMoney.
func Money(field string, v int64) error {
	if v < 0 || v > MaxMoney {
		return Invalid(field, fmt.Sprintf("want 0 to %d", int64(MaxMoney)))
	}
	return nil
}

// Count checks a count: 0 to MaxCount.
func Count(field string, v int64) error {
	if v < 0 || v > MaxCount {
		return Invalid(field, fmt.Sprintf("want 0 to %d", int64(MaxCount)))
	}
	return nil
}

// Duration checks a duration: positive and a whole number of Precision,
// so that it reads back from every store as it was given.
func Duration(field string, d time.Duration) error {
	switch {
	case d <= 0:
		return Invalid(field, "must be positive")
	case d%Precision != 0:
		return Invalid(field, "must be a whole number of milliseconds")
	}
	return nil
}
