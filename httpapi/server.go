package httpapi

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/httpapi/console"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/storetype"
)

// Config is what New needs.
type Config struct {
	// Store is the authority on every entity the API serves.
	Store Store
	// Now is the one clock; the package never reads another.
	Now func() time.Time
	// Log receives every 5xx; nil discards.
	Log *slog.Logger
	// Metrics is mounted at GET /metrics; nil leaves the route unknown (404).
	Metrics http.Handler
	// Relay backs GET /v1/sinks and the replay of dead letters; nil serves
	// no sinks.
	Relay Relay
	// Firing, if set, says why the engine is not firing (its clock is
	// skewed), nil while it is; GET /readyz fails with it.
	Firing func() error
	// IdempotencyTTL is how long an Idempotency-Key holds its first
	// response; 0 means store.DefaultRequestTTL.
	IdempotencyTTL time.Duration
	// MaxLockTTL is the longest ttl a lock may ask (422 beyond it), and
	// how long past its expires_at an order may hold a coupon: how long a
	// coupon locked in time stays redeemable. 0 means DefaultMaxLockTTL.
	MaxLockTTL time.Duration
	// IssueTimeout is how long a bulk issuance may take to read its list
	// and answer, in place of the server's read and write timeouts; 0
	// means DefaultIssueTimeout.
	IssueTimeout time.Duration
	// ArchiveAfter is how long after its last change a terminal coupon
	// or a paid or closed order is archived: the default before of POST
	// /v1/archive; 0 (the archive is off) makes before required.
	ArchiveAfter time.Duration
	// Gatherer, if set, is the registry whose lapse_* metrics GET
	// /v1/console/status reports: this instance's engine.
	Gatherer prometheus.Gatherer
	// Instance names this instance as its shard leases do.
	Instance string
	// Embedded says the store is embedded (SQLite): one instance drains
	// every shard without a lease, so the console shows no shard table.
	Embedded bool
	// NoConsole turns the console off: GET / and /console/ are then
	// unknown routes (404), as on a server built without it.
	NoConsole bool
	// LeaseTTL is how long the instances' shard leases last unrenewed;
	// GET /v1/console/status lists the instances seen within three of
	// them. 0 means 10s, the engine's default.
	LeaseTTL time.Duration
	// TokenRefresh is how often the server reads the store's tokens
	// again: the bound on how long a revoked token is still honoured. 0
	// means DefaultTokenRefresh.
	TokenRefresh time.Duration
	// Closed says tokens existed when the server started (lapse serve
	// reads them before it listens): it never serves open, even once
	// every token row is deleted. Unset, the server's first read of the
	// tokens decides. Either way open mode is decided once: an open
	// server closes for good at the first token it reads, and a closed
	// one never opens again.
	Closed bool
}

type server struct {
	store          Store
	now            func() time.Time
	log            *slog.Logger
	relay          Relay
	gatherer       prometheus.Gatherer
	instance       string
	embedded       bool
	leaseTTL       time.Duration
	forecasts      forecastCache
	firing         func() error
	idempotencyTTL time.Duration
	maxLockTTL     time.Duration
	issueTimeout   time.Duration
	archiveAfter   time.Duration
	tokens         *tokens
	mux            *http.ServeMux
	// routes maps each pattern to the scope it needs.
	routes map[string]credential.Scope
}

// public marks a route that needs no credential: the health checks, the
// OpenAPI document and the problem pages.
const public credential.Scope = 0

// New returns the HTTP handler of API v1.
func New(cfg Config) http.Handler {
	s := &server{store: cfg.Store, now: cfg.Now, log: cfg.Log, relay: cfg.Relay, firing: cfg.Firing, gatherer: cfg.Gatherer, instance: cfg.Instance, embedded: cfg.Embedded, leaseTTL: cfg.LeaseTTL,
		idempotencyTTL: cfg.IdempotencyTTL, maxLockTTL: cfg.MaxLockTTL, issueTimeout: cfg.IssueTimeout,
		archiveAfter: cfg.ArchiveAfter, tokens: &tokens{store: cfg.Store, refresh: cfg.TokenRefresh, closed: cfg.Closed}, mux: http.NewServeMux(), routes: map[string]credential.Scope{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = slog.New(requestLog{s.log.Handler()})
	if s.leaseTTL <= 0 {
		s.leaseTTL = 10 * time.Second
	}
	if s.maxLockTTL <= 0 {
		s.maxLockTTL = DefaultMaxLockTTL
	}
	if s.issueTimeout <= 0 {
		s.issueTimeout = DefaultIssueTimeout
	}
	if s.tokens.refresh <= 0 {
		s.tokens.refresh = DefaultTokenRefresh
	}
	s.handle("POST /v1/templates", credential.Admin, s.createTemplate)
	s.handle("GET /v1/templates/{id}", credential.Admin, s.getTemplate)
	s.handle("POST /v1/templates/{id}/issue", credential.Admin, s.issue)
	s.handle("GET /v1/templates", credential.Admin, s.listTemplates)
	s.handle("PATCH /v1/templates/{id}", credential.Admin, s.changeTemplate)
	s.handle("POST /v1/templates/{id}/close", credential.Admin, s.closeTemplate)
	s.handle("POST /v1/templates/{id}/void", credential.Admin, s.templateOperation(storetype.OperationVoid))
	s.handle("POST /v1/templates/{id}/extend", credential.Admin, s.templateOperation(storetype.OperationExtend))
	s.handle("POST /v1/operations", credential.Admin, s.operations)
	s.handle("GET /v1/operations", credential.Admin, s.listOperations)
	s.handle("GET /v1/operations/{id}", credential.Admin, s.getOperation)
	s.handle("POST /v1/operations/{id}/cancel", credential.Admin, s.cancelOperation)

	s.handle("PUT /v1/users/{user_id}", credential.Admin, s.putUser)
	s.handle("GET /v1/users/{user_id}", credential.Admin, s.getUser)
	s.handle("POST /v1/users/{user_id}/coupons", credential.Wallet, s.claim)
	s.handle("GET /v1/users/{user_id}/coupons", credential.Wallet, s.userCoupons)
	s.handle("GET /v1/coupons/{id}", credential.Wallet, s.getCoupon)
	for _, act := range []coupon.Action{coupon.Lock, coupon.Unlock, coupon.Redeem, coupon.Refund, coupon.Void} {
		scope := credential.Wallet
		if act == coupon.Void {
			scope = credential.Admin
		}
		s.handle("POST /v1/coupons/{id}/"+act.String(), scope, s.transition(act))
	}

	s.handle("PUT /v1/skus/{sku}", credential.Admin, s.putSKU)
	s.handle("GET /v1/skus/{sku}", credential.Orders, s.getSKU)
	s.handle("POST /v1/orders", credential.Orders, s.createOrder)
	s.handle("GET /v1/orders/{id}", credential.Orders, s.getOrder)
	s.handle("POST /v1/orders/{id}/pay", credential.Orders, s.payOrder)
	s.handle("POST /v1/orders/{id}/cancel", credential.Orders, s.cancelOrder)

	s.handle("GET /v1/events", credential.Events, s.events)
	s.handle("GET /v1/sinks", credential.Admin, s.sinks)
	s.handle("POST /v1/sinks/{name}/replay", credential.Admin, s.replay)
	s.handle("GET /v1/reconcile", credential.Admin, s.getReconcile)
	s.handle("POST /v1/reconcile", credential.Admin, s.postReconcile)

	s.handle("POST /v1/archive", credential.Admin, s.archive)

	s.handle("GET /v1/console/forecast", credential.Admin, s.forecast)
	s.handle("GET /v1/console/status", credential.Admin, s.status)
	if !cfg.NoConsole {
		s.handle("GET /{$}", public, console.Index)
		s.handle("GET /console/{file}", public, console.Assets(func(w http.ResponseWriter, r *http.Request) { s.fail(w, r, errNoRoute) }))
	}

	s.handle("GET /healthz", public, s.healthz)
	s.handle("GET /readyz", public, s.readyz)
	s.handle("GET /openapi.json", public, s.openAPIDoc)
	s.handle("GET /problems/{slug}", public, s.problemDoc)
	if cfg.Metrics != nil {
		s.handle("GET /metrics", credential.Metrics, cfg.Metrics.ServeHTTP)
	}
	return s
}

// handle routes pattern to h for a credential holding scope (any request,
// if public; see authorize), checking first that the value of each of the
// pattern's wildcards ({id}, {user_id}, {sku}, {name}, {slug}, {file}; {$} is none) is an ID: a path ID
// breaking the input rules is answered 422 invalid naming the wildcard, on
// every route, GETs included, before h reads it.
func (s *server) handle(pattern string, scope credential.Scope, h http.HandlerFunc) {
	s.routes[pattern] = scope
	var names []string
	for _, seg := range strings.Split(pattern, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok && name != "$}" {
			names = append(names, strings.TrimSuffix(name, "}"))
		}
	}
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if scope != public {
			var ok bool
			if r, ok = s.authorize(w, r, scope); !ok {
				return
			}
		}
		for _, name := range names {
			if err := input.ID(name, r.PathValue(name)); err != nil {
				s.fail(w, r, err)
				return
			}
		}
		h(w, r)
	})
}

// contentSecurityPolicy lets a page of lapse's (the console, a problem's
// page) load scripts, styles, images and API answers from the server
// itself only, run no inline script nor style attribute, and be framed by
// no page (clickjacking). Every answer carries it: a JSON answer opened as
// a page runs nothing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// ServeHTTP routes r, answering an unknown path (404) or method (405) with a
// problem document in place of the mux's plain text. Every answer carries
// the request's ID (requestID) and says not to guess its type, to run
// nothing the server did not send, and not to be framed. At debug level,
// each request is logged once it is answered.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := requestID(r.Header)
	w.Header().Set(requestIDHeader, id)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("X-Frame-Options", "DENY")
	r = r.WithContext(withRequestID(r.Context(), id))
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.logAccess(w, r, s.route)
		return
	}
	s.route(w, r)
}

// route serves r by the mux, or with a problem where the mux has no
// route.
func (s *server) route(w http.ResponseWriter, r *http.Request) {
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		s.mux.ServeHTTP(w, r) // sets the path values h would lack
		return
	}
	rec := &statusRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if allow := rec.header.Get("Allow"); allow != "" {
		w.Header().Set("Allow", allow)
	}
	if rec.status == http.StatusMethodNotAllowed {
		s.fail(w, r, errMethodNotAllowed)
		return
	}
	s.fail(w, r, errNoRoute)
}

// statusRecorder keeps only the status and headers the mux's fallback
// handler writes.
type statusRecorder struct {
	header http.Header
	status int
}

func (rec *statusRecorder) Header() http.Header         { return rec.header }
func (rec *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (rec *statusRecorder) WriteHeader(status int)      { rec.status = status }
