// Package payhook asks a payment system whether an order was paid: the
// payment-status hook lapse calls before it closes an order on timeout.
//
// The hook is an HTTP GET of the configured URL with the query parameter
// order_id; it answers 200 with {"paid": true|false, "payment_id": "..."}.
// Any other status, or a body that is not that object, is an error: the
// engine then retries within its grace instead of closing blindly.
package payhook
