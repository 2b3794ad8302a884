// Package bench measures lapse where it matters: a storm of coupons that
// fall due in the same second while users keep checking out.
//
// RunStorm seeds a store through bulk issuance, measures the users'
// operations alone, then expires the same seed three ways under the same
// user load: lapse's engine, the seeds' single UPDATE, and raw batched
// UPDATEs with nothing else (the floor of the database). It reports every
// figure as a Result, which writes itself as JSON and as an SVG plot.
//
// RunOrders creates orders at a steady rate with a short timeout through
// the store, pays a share of them, lets lapse's engine close the rest on
// timeout, and reads the orders back: the close lag (stored close time
// minus deadline) of each closed one, and the stock counters. It reports
// an OrdersResult, JSON and SVG likewise.
//
// RunOps measures the bulk operations: it bulk voids one template's
// coupons and bulk extends another's through the engine under the same
// user load, then archives the voided ones, and reports the rates and the
// users' p99 during each as an OpsResult, JSON and SVG likewise.
//
// The storm bench runs on its own clock, the real time plus an offset: moving
// the offset forward makes T0 pass without waiting for it, and every
// component (store calls, engine, wheel, user load) reads that one clock.
package bench
