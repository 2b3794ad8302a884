package httpapi

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store/outagetest"
)

// TestReadsDuringOutage: on PostgreSQL and on MariaDB cut off through a
// forwarder (SQLite, a file in the process, has no network to lose: see
// outagetest), every read, outside a transaction as the store makes it
// (a template and the list, a user and their wallet, a coupon, a SKU, an
// order, an operation, the event feed, the forecast, the status, the
// reconciliation's pages, a bulk change's dry run), answers 503
// unavailable with a Retry-After, never a 500; once the forwarder is
// back, each answers 200 again. A cut shorter than the store's outage
// wait is not seen: each read runs again until the database answers,
// but the status's clock, read once, may answer 503.
func TestReadsDuringOutage(t *testing.T) {
	for _, b := range outagetest.Networked(t) {
		t.Run(b.Name, func(t *testing.T) {
			e := serveStore(t, b.Open(t))
			tpl := e.template(hourTemplate)
			c := e.claim("u1", tpl)
			e.putSKU("a", 10)
			o, _ := e.createOrder(orderBody("u1", []order.Item{{SKU: "a", Qty: 1, UnitPrice: 3000}}, nil, ""))
			var op operationJSON
			e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked"}`, "Idempotency-Key", "void-1"), http.StatusAccepted, &op)
			// once marks a read the store makes once, unretried: the status's
			// database clock (see store.DB.Clock).
			reads := []struct {
				method, path, body string
				once               bool
			}{
				{http.MethodGet, "/v1/templates/" + tpl, "", false},
				{http.MethodGet, "/v1/templates", "", false},
				{http.MethodGet, "/v1/users/u1", "", false},
				{http.MethodGet, "/v1/users/u1/coupons", "", false},
				{http.MethodGet, "/v1/coupons/" + c.ID, "", false},
				{http.MethodGet, "/v1/skus/a", "", false},
				{http.MethodGet, "/v1/orders/" + o.ID, "", false},
				{http.MethodGet, "/v1/operations/" + op.ID, "", false},
				{http.MethodGet, "/v1/events?limit=10", "", false},
				{http.MethodGet, "/v1/console/forecast", "", false},
				{http.MethodGet, "/v1/console/status", "", true},
				{http.MethodGet, "/v1/reconcile", "", false},
				{http.MethodPost, "/v1/templates/" + tpl + "/void", `{"reason": "leaked", "dry_run": true}`, false},
			}
			// Side by side: each read retries the outage for up to
			// the store's outage wait before it answers.
			answer := func() []response {
				out := make([]response, len(reads))
				var wg sync.WaitGroup
				for i, r := range reads {
					wg.Go(func() {
						res, err := send(e.url, r.method, r.path, r.body, nil)
						if err != nil {
							t.Errorf("%s %s: %v", r.method, r.path, err)
						}
						out[i] = res
					})
				}
				wg.Wait()
				return out
			}

			b.Forwarder.Cut()
			for i, res := range answer() {
				if res.status != http.StatusServiceUnavailable || !strings.Contains(string(res.body), `"/problems/unavailable"`) || res.header.Get("Retry-After") != retryAfter {
					t.Errorf("%s %s during the cut: got %d, Retry-After %q, %s; want 503 unavailable, Retry-After %s",
						reads[i].method, reads[i].path, res.status, res.header.Get("Retry-After"), res.body, retryAfter)
				}
			}
			b.Forwarder.Restore()
			// wantOK checks each read answers 200 (during a short cut, a
			// read made once may answer 503).
			wantOK := func(when string, short bool) {
				t.Helper()
				for i, res := range answer() {
					if res.status != http.StatusOK && !(short && reads[i].once && res.status == http.StatusServiceUnavailable) {
						t.Errorf("%s %s %s: got %d %s, want 200", reads[i].method, reads[i].path, when, res.status, res.body)
					}
				}
			}
			wantOK("once restored", false)

			b.Forwarder.Cut()
			time.AfterFunc(300*time.Millisecond, b.Forwarder.Restore)
			wantOK("during a cut of 300 ms, which the store's retry outlasts", true)
		})
	}
}
