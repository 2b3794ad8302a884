package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Errors of this package's own making; the store's and the coupon
// package's are mapped beside them in kinds.
var (
	errNoRoute          = errors.New("no such route")
	errMethodNotAllowed = errors.New("method not allowed")
	errNotReady         = errors.New("store not ready")
)

// malformedError is a request body or query that is not JSON, or not of
// the expected shape. Its text is the detail of the problem.
type malformedError struct{ err error }

func (e *malformedError) Error() string { return e.err.Error() }
func (e *malformedError) Unwrap() error { return e.err }

// notFiringError is the engine's reason not to fire (its clock is
// skewed); its text is the detail of the not-ready problem.
type notFiringError struct{ err error }

func (e *notFiringError) Error() string { return "the engine is not firing: " + e.err.Error() }

// malformed marks err as the client's malformed input.
func malformed(err error) error { return &malformedError{err} }

// invalid reports field's value out of range, as the coupon package does.
func invalid(field, reason string) error {
	return &coupon.InvalidError{Field: field, Reason: reason}
}

// problem is an RFC 9457 problem document. RequestID, an extension
// member, is the X-Request-Id of the request it answers: the one its
// log lines carry.
type problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	RequestID string `json:"request_id,omitempty"`
}

// kind is how one sentinel error is answered: the problem type of slug
// (problemTypes gives its status and title), with detail.
type kind struct {
	err    error
	slug   string
	detail string
}

var kinds = []kind{
	{storetype.ErrNotFound, "not-found", "the id names nothing"},
	{errNoRoute, "not-found", "no such route"},
	{errMethodNotAllowed, "method-not-allowed", "the route does not accept this method"},
	{coupon.ErrExpired, "coupon-expired", "the coupon is at or past its expires_at"},
	{store.ErrOperationDone, "invalid-state", "the operation is done: there is nothing left to cancel"},
	{coupon.ErrInvalidState, "invalid-state", "the transition is not allowed from the coupon's current state or for this order"},
	{coupon.ErrLimitReached, "limit-reached", "the user holds the template's per-user limit"},
	{coupon.ErrSoldOut, "sold-out", "the template's total is all issued"},
	{coupon.ErrTemplateClosed, "not-claimable", "the template is closed: it takes no more claims nor issuance"},
	{coupon.ErrNotClaimable, "not-claimable", "the template's claim window is not open"},
	{order.ErrInvalidState, "invalid-state", "the order is not unpaid"},
	{order.ErrInsufficientStock, "insufficient-stock", "an item asks for more than is available"},
	{order.ErrClosed, "order-closed", "the order is closed or past its deadline; the payment is recorded as order.late_payment"},
	{storetype.ErrIdempotencyConflict, "idempotency-conflict", "the Idempotency-Key was used with a different request, or its first request is still in flight"},
	{errUnauthorized, "unauthorized", "a valid bearer token is required: Authorization: Bearer <token>"},
	{errAuthorizationTwice, "unauthorized", "Authorization is given more than once: send one bearer token"},
	{errNotReady, "not-ready", "the store is unreachable or not migrated"},
}

// typedKind is how errors of one type are answered: the problem type of
// slug, with detail, the text of the first such error in err's tree.
type typedKind struct {
	slug   string
	detail func(err error) (string, bool)
}

// typedKinds are tried, in order, before kinds.
var typedKinds = []typedKind{
	{"malformed", textOf[*malformedError]},
	{"not-ready", textOf[*notFiringError]},
	{"not-ready", textOf[*storeDownError]},
	{"forbidden", textOf[*forbiddenError]},
	{"forbidden", textOf[*openRefusedError]},
	{"invalid", textOf[*coupon.InvalidError]},
	{"unavailable", outage},
}

// outage answers an outage of the database (storetype.IsUnavailable:
// during a failover, a restart, a cut) as unavailable, never internal:
// nothing was decided, and the same request may succeed once the
// database is back. The detail names no host.
func outage(err error) (string, bool) {
	return "the database cannot take the request now; retry after Retry-After seconds, under the same Idempotency-Key", storetype.IsUnavailable(err)
}

// retryAfter is the Retry-After of an unavailable answer, in seconds: a
// failover takes a few.
const retryAfter = "1"

// textOf returns the text of the first error of type E in err's tree, and
// whether there is one.
func textOf[E error](err error) (string, bool) {
	var e E
	if !errors.As(err, &e) {
		return "", false
	}
	return e.Error(), true
}

// toProblem maps err to the problem answering it. An error it does not know
// is a 500 whose detail says nothing of the cause.
func toProblem(err error) problem {
	for _, k := range typedKinds {
		if detail, ok := k.detail(err); ok {
			return newProblem(k.slug, detail)
		}
	}
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return newProblem(k.slug, k.detail)
		}
	}
	return newProblem("internal", "the server failed to handle the request")
}

// slug is the problem slug err maps to.
func slug(err error) string { return strings.TrimPrefix(toProblem(err).Type, problemPath) }

// newProblem is the problem of type slug, one of problemTypes, with detail.
func newProblem(slug, detail string) problem {
	pt, ok := findType(slug)
	if !ok {
		panic("httpapi: unknown problem type " + slug) // a programming error
	}
	return problem{Type: problemPath + slug, Title: pt.title, Status: pt.status, Detail: detail}
}

// fail answers r with the problem err maps to, logging it if it is the
// server's fault.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	p := toProblem(err)
	p.RequestID = requestIDOf(r.Context())
	if p.Type == problemPath+"unavailable" {
		w.Header().Set("Retry-After", retryAfter)
	}
	// The loops log an outage once; a line per request would bury it.
	if p.Status >= 500 && p.Status != http.StatusNotImplemented && !storetype.IsUnavailable(err) {
		s.log.ErrorContext(r.Context(), "httpapi: request failed",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", p.Status), slog.Any("err", err))
	}
	write(w, p.Status, "application/problem+json", mustJSON(p))
}
