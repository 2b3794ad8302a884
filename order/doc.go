// Package order is the unpaid-order domain of lapse: orders, their three
// states, and the stock counters an order moves. Pure, no I/O, no clock.
//
// An order reserves stock and locks its coupons when it is created; paying
// turns both into sold and used; closing (cancel, or the deadline passing
// unpaid) gives both back. Per SKU, available + reserved + sold stays what
// the last restock set.
package order
