// Package remind decides the expiry reminders of a user's coupons: which
// coupons one reminder lists, when it goes out (lead times, windows, quiet
// hours in the user's timezone) and on which channel (value threshold,
// inactivity, daily cap). It is pure: no I/O and no clock; the store plans
// and sends reminders with it inside its own transactions.
//
// A coupon crosses a lead time L at expires_at - L. For each lead, a user
// receives one reminder per window listing every coupon crossing L in that
// window; it goes out when the first of them crosses, so none is reminded
// late.
package remind
