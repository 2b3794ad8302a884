package httpapi

import (
	"html/template"
	"net/http"

	"github.com/lapsehq/lapse/storetype"
)

// problemPath prefixes a problem's slug in its type URI, which resolves
// to the page GET /problems/{slug} serves.
const problemPath = "/problems/"

// typeInfo is one problem type: the status it is answered with, its title,
// and what its page says of it.
type typeInfo struct {
	slug   string
	status int
	title  string
	about  string
}

// problemTypes is the one table of problem slugs: every problem the API
// answers is of one of these types (newProblem), each has a page, and
// openapi.json's ProblemType enum lists exactly these (TestOpenAPIProblemTypes).
var problemTypes = []typeInfo{
	{"malformed", http.StatusBadRequest, "Malformed request",
		"The body or query is not valid JSON, not of the expected shape (an unknown field, a key given twice, a wrong type or null for a boolean, trailing data), or too large; or the Content-Type is not JSON or names a charset other than UTF-8; Fix the request; retrying it as it is fails again."},
	{"invalid", http.StatusUnprocessableEntity, "Invalid field",
		"A value is out of range or breaks the input rules (IDs are 1–128 bytes of UTF-8 with no control characters nor surrounding spaces), or the body is not valid UTF-8. The detail names the field (or the body and its first bad byte). Nothing was changed."},
	{"unauthorized", http.StatusUnauthorized, "Unauthorized",
		"The request carries no bearer token, or an unknown or revoked one, while the server holds tokens, or two Authorization headers (in any mode). Send Authorization: Bearer <token>; the WWW-Authenticate header says why."},
	{"forbidden", http.StatusForbidden, "Forbidden",
		"The bearer token is valid but lacks the scope the route needs (wallet, orders, admin, events or metrics); the WWW-Authenticate header names it. In open mode (no token exists), a request a browser may have sent for a page of another site: a Host other than a loopback name or the address reached, an Origin or Sec-Fetch-Site naming another site, or a change whose Content-Type is not JSON. The detail says which."},
	{"not-found", http.StatusNotFound, "Not found",
		"The id names nothing, or there is no such route."},
	{"method-not-allowed", http.StatusMethodNotAllowed, "Method not allowed",
		"The route exists but does not take this method; the Allow header lists those it takes."},
	{"coupon-expired", http.StatusConflict, "Coupon expired",
		"The coupon is at or past its expires_at: it can no longer be locked or redeemed (a lock taken in time is still honoured)."},
	{"invalid-state", http.StatusConflict, "Invalid state",
		"The transition is not allowed from the coupon's or order's current state, or not for this order. Read the entity to see its state."},
	{"limit-reached", http.StatusConflict, "Limit reached",
		"The user already holds the template's per-user limit of coupons."},
	{"sold-out", http.StatusConflict, "Sold out",
		"The template's total is all issued."},
	{"not-claimable", http.StatusConflict, "Not claimable",
		"The template's claim window is not open, or the template is closed: it takes no claims nor issuance."},
	{"insufficient-stock", http.StatusConflict, "Insufficient stock",
		"An order's item asks for more of a SKU than is available."},
	{"order-closed", http.StatusConflict, "Order closed",
		"The order is closed or past its deadline; the payment is refused and recorded as an order.late_payment event."},
	{"idempotency-conflict", http.StatusConflict, "Idempotency conflict",
		"The Idempotency-Key was used before with a different request, or its first request is still in flight. Use a new key for a new request, or retry later."},
	{"not-ready", http.StatusServiceUnavailable, "Not ready",
		"The store is unreachable or not migrated, or the engine is not firing (its clock is skewed against the database)."},
	{"unavailable", http.StatusServiceUnavailable, "Database unavailable",
		"The database cannot take the request now: it is restarting, unreachable, or has no primary during a failover. Nothing was decided. Retry after the Retry-After header's seconds, under the same Idempotency-Key."},
	{"internal", http.StatusInternalServerError, "Internal error",
		"The server failed to handle the request; its log says why. The request may be retried."},
}

// findType returns the problem type of slug, if problemTypes has it.
func findType(slug string) (typeInfo, bool) {
	for _, pt := range problemTypes {
		if pt.slug == slug {
			return pt, true
		}
	}
	return typeInfo{}, false
}

// problemPage is the page of one problem type.
var problemPage = template.Must(template.New("problem").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} — lapse problem</title></head>
<body><h1>{{.Title}}</h1>
<p>HTTP {{.Status}} · <code>{"type": "/problems/{{.Slug}}"}</code></p>
<p>{{.About}}</p>
<p>Every error of the lapse API is an RFC 9457 <code>application/problem+json</code> document; a client branches on its type. The API is described at <a href="/openapi.json">/openapi.json</a>.</p>
</body></html>
`))

// problemDoc serves GET /problems/{slug}: the page of a problem type,
// 404 not-found for a slug that names none.
func (s *server) problemDoc(w http.ResponseWriter, r *http.Request) {
	pt, ok := findType(r.PathValue("slug"))
	if !ok {
		s.fail(w, r, storetype.ErrNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	problemPage.Execute(w, struct {
		Slug, Title, About string
		Status             int
	}{pt.slug, pt.title, pt.about, pt.status}) // a client gone away is not ours to report
}
