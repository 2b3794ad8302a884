package clientsuite_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/store/outagetest"
)

// attempt is one POST the server answered: its Idempotency-Key and
// status.
type attempt struct {
	key    string
	status int
}

// TestClaimAcrossOutage claims a coupon while PostgreSQL or MariaDB is cut
// off for 2.5 s (SQLite, a file in the process, has no outage of this
// kind: see outagetest): the server answers 503 unavailable with a
// Retry-After, the client waits it out and retries under the same
// Idempotency-Key, and the claim succeeds exactly once: the user holds
// the one coupon the client was answered.
func TestClaimAcrossOutage(t *testing.T) {
	for _, b := range outagetest.Networked(t) {
		t.Run(b.Name, func(t *testing.T) {
			ctx := t.Context()
			var (
				mu   sync.Mutex
				seen []attempt
			)
			api := httpapi.New(httpapi.Config{Store: b.Open(t), Now: now})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				api.ServeHTTP(rec, r)
				if r.Method == http.MethodPost {
					mu.Lock()
					seen = append(seen, attempt{r.Header.Get("Idempotency-Key"), rec.Code})
					mu.Unlock()
				}
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
			}))
			t.Cleanup(srv.Close)
			c := clienttest.New(t, srv.URL, client.WithRetry(client.Retry{Attempts: 10, Backoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second}))
			tpl := clienttest.Must(c.CreateTemplate(ctx, hourTemplate)).On(t)

			b.Forwarder.Cut()
			time.AfterFunc(2500*time.Millisecond, b.Forwarder.Restore)
			got := clienttest.Must(c.Claim(ctx, "u1", client.ClaimParams{TemplateID: tpl.ID})).On(t)

			mu.Lock()
			claims := seen[1:] // after the template's
			mu.Unlock()
			if len(claims) < 2 || claims[0].status != http.StatusServiceUnavailable || claims[len(claims)-1].status != http.StatusCreated {
				t.Fatalf("claim attempts: got %+v, want 503 first, 201 last", claims)
			}
			for _, a := range claims {
				if a.key == "" || a.key != claims[0].key || a.status != http.StatusServiceUnavailable && a.status != http.StatusCreated {
					t.Fatalf("claim attempts: got %+v, want one Idempotency-Key throughout, each answered 503 or 201", claims)
				}
			}
			wallet := clienttest.All(t, c.Wallet(ctx, "u1", client.WalletQuery{}))
			if len(wallet) != 1 || wallet[0] != got {
				t.Fatalf("wallet: got %+v, want the one coupon answered, %+v", wallet, got)
			}
		})
	}
}
