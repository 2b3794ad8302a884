// Package httpapi serves lapse's HTTP API v1 (shared/API.md) over a
// Store: coupon templates, coupons and their transitions, users'
// reminder profiles, the event feed, and the operational endpoints; and
// the web console (package console) at / with the two admin routes only
// it reads, GET /v1/console/forecast and GET /v1/console/status.
//
// Every request reads the one injected clock once, and every coupon it
// returns has the lazy check applied at that instant. Errors are RFC 9457
// problem documents whose type names a stable slug. A POST or PATCH
// carrying an Idempotency-Key passes it to the store as the call's Idem,
// so the store records the result in the same transaction and answers a
// retry with it, which the API renders as it rendered the first.
//
// Every route but the health checks, the console's page and files, the
// OpenAPI document (GET /openapi.json) and the problem pages (GET
// /problems/{slug}, one per slug a problem's type names) needs a bearer
// token holding the one
// credential.Scope the route names (auth.go), once the store holds any
// token; the token's name then scopes the request's idempotency key and is
// the actor (store.WithActor) of the events the request causes.
package httpapi
