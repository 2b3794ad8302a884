// Package client is a Go client of lapse's HTTP API v1 (API.md): a typed
// method per route, each taking a context.
//
// Every mutating POST and PATCH carries an Idempotency-Key, random unless
// the context names one (WithIdempotencyKey), and a call retried after a
// network error, a 5xx or a 429 sends the same key again, so that the
// server does the work at most once and answers the retry with its first
// response. Retries are bounded and back off, honouring Retry-After (see
// Retry).
//
// A refusal is a *Problem, the API's problem document, to branch on with
// errors.As or IsSlug:
//
//	_, err := c.Lock(ctx, couponID, "order-1", 0)
//	if client.IsSlug(err, "coupon-expired") { ... }
//
// Templates and the event feed come in pages; Templates and Feed iterate
// over them, following each page's next cursor; FeedOf keeps only the
// events of a type or subject. A bulk void or extension (VoidTemplate,
// ExtendTemplate, StartOperation) runs in the server's background:
// WaitOperation follows it to its end.
package client
