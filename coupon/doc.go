// Package coupon is the coupon domain of lapse: templates, coupons, their
// five states and the transition table that moves a coupon between them.
//
// It is pure: no I/O and no clock. Every decision takes the instant it is
// made at, so the store can run the same rule inside its transaction with
// the same `now` it passes to SQL.
package coupon
