package client

// The problem slugs the API answers with (API.md), to branch on with
// IsSlug or a Problem's Slug.
const (
	// SlugMalformed: the body or query is not JSON of the expected shape.
	SlugMalformed = "malformed"
	// SlugInvalid: a value breaks the input rules; the detail names it.
	SlugInvalid = "invalid"
	// SlugUnauthorized: no bearer token, or an unknown or revoked one.
	SlugUnauthorized = "unauthorized"
	// SlugForbidden: the token lacks the route's scope, or open mode
	// refused a request a browser may have sent.
	SlugForbidden = "forbidden"
	// SlugNotFound: the ID names nothing.
	SlugNotFound = "not-found"
	// SlugMethodNotAllowed: the route does not take the method.
	SlugMethodNotAllowed = "method-not-allowed"
	// SlugCouponExpired: the coupon is at or past its expiry.
	SlugCouponExpired = "coupon-expired"
	// SlugInvalidState: the coupon or order is not in a state the
	// action applies to.
	SlugInvalidState = "invalid-state"
	// SlugLimitReached: the user holds as many of the template's
	// coupons as it allows.
	SlugLimitReached = "limit-reached"
	// SlugSoldOut: the template's total is all issued.
	SlugSoldOut = "sold-out"
	// SlugNotClaimable: the template is closed or outside its claiming
	// window.
	SlugNotClaimable = "not-claimable"
	// SlugInsufficientStock: a SKU has too little stock for the order.
	SlugInsufficientStock = "insufficient-stock"
	// SlugOrderClosed: the order is closed or past its deadline; a
	// payment refused so is recorded as an order.late_payment event.
	SlugOrderClosed = "order-closed"
	// SlugIdempotencyConflict: the Idempotency-Key was used for another
	// request, or its first request is still running.
	SlugIdempotencyConflict = "idempotency-conflict"
	// SlugNotReady: the server is not ready (Readyz).
	SlugNotReady = "not-ready"
	// SlugUnavailable: the server's database is unreachable; retried.
	SlugUnavailable = "unavailable"
	// SlugInternal: a fault of the server's.
	SlugInternal = "internal"
)
