// Package client is a Go client of lapse's HTTP API v1: a typed method per
// route, each taking a context and, where it asks more than the path's ID,
// a params struct, so that a field added later breaks no caller. The
// module needs nothing beyond the standard library.
//
// Every mutating POST and PATCH carries an Idempotency-Key, random unless
// its params name one (their IdempotencyKey field), and a call retried
// after a network error, a 5xx or a 429 sends the same key again, so that
// the server does the work at most once and answers the retry with its
// first response. Retries are bounded and back off with jitter, honouring
// Retry-After (see Retry). Every request says User-Agent
// lapse-go/<version>.
//
// A refusal is a *Problem, the API's problem document, to branch on with
// errors.As or IsSlug and the Slug… constants:
//
//	_, err := c.Lock(ctx, couponID, client.LockParams{OrderID: "order-1"})
//	if client.IsSlug(err, client.SlugCouponExpired) { ... }
//
// Event types and states have constants too (EventCouponExpired,
// CouponUnused, OrderPaid, …), tested against the server's own lists.
//
// Templates, wallets and the event feed come in pages; Templates, Wallet
// and Feed iterate over them, following each page's next cursor. A bulk
// issuance (Issue, or IssueStream for millions of users as NDJSON) is
// bounded by its context, not the client's per-request timeout. A bulk
// void or extension (VoidTemplate, ExtendTemplate, StartOperation) runs in
// the server's background: WaitOperation follows it to its end.
package client
