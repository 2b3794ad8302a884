package clientsuite_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/store"
)

// keys records the Idempotency-Key and User-Agent of every POST it passes on, and
// fails the first POST as fail says, after (lost) or instead of
// (refused) serving it.
type keys struct {
	mu     sync.Mutex
	seen   []string
	agents []string
	fail   func(w http.ResponseWriter, r *http.Request, next http.Handler)
}

func (k *keys) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		k.mu.Lock()
		k.seen = append(k.seen, r.Header.Get("Idempotency-Key"))
		k.agents = append(k.agents, r.Header.Get("User-Agent"))
		first := len(k.seen) == 1
		k.mu.Unlock()
		if first {
			k.fail(w, r, next)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// lost serves the request, so that its work is done, then drops the
// connection without an answer.
func lost(w http.ResponseWriter, r *http.Request, next http.Handler) {
	next.ServeHTTP(httptest.NewRecorder(), r)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	conn.Close()
}

// busy answers 503 with a Retry-After of 0 seconds, doing nothing.
func busy(w http.ResponseWriter, r *http.Request, next http.Handler) {
	w.Header().Set("Retry-After", "0")
	w.WriteHeader(http.StatusServiceUnavailable)
}

// TestRetrySendsTheSameKey claims a coupon through a server that loses
// the first answer, or refuses the first request 503: the client retries
// with the same Idempotency-Key, and the user holds one coupon, the one
// the client was answered.
func TestRetrySendsTheSameKey(t *testing.T) {
	for _, fail := range []struct {
		name string
		fail func(http.ResponseWriter, *http.Request, http.Handler)
	}{{"lost", lost}, {"busy", busy}} {
		t.Run(fail.name, func(t *testing.T) {
			onEach(t, func(t *testing.T, st store.Store) {
				ctx := t.Context()
				tpl := clienttest.Must(serve(t, st, nil).CreateTemplate(ctx, hourTemplate)).On(t)
				k := &keys{fail: fail.fail}
				c := serve(t, st, k.wrap)
				got := clienttest.Must(c.Claim(ctx, "u1", client.ClaimParams{TemplateID: tpl.ID})).On(t)
				if len(k.seen) != 2 || k.seen[0] == "" || k.seen[0] != k.seen[1] {
					t.Fatalf("Idempotency-Keys of the claim and its retry: got %q, want two the same", k.seen)
				}
				wallet := clienttest.All(t, c.Wallet(ctx, "u1", client.WalletQuery{}))
				if len(wallet) != 1 || wallet[0] != got {
					t.Fatalf("wallet: got %+v, want the one coupon answered, %+v", wallet, got)
				}
				if again := clienttest.Must(c.Claim(ctx, "u1", client.ClaimParams{TemplateID: tpl.ID})).On(t); again.ID == got.ID || k.seen[2] == k.seen[0] {
					t.Fatalf("a second claim: got the same coupon or key (%q), want a new one", k.seen)
				}
			})
		})
	}
}

// TestChosenKeys: a key the params name is sent and kept across a
// retry; without keys, a mutation sends none and is not retried.
func TestChosenKeys(t *testing.T) {
	onEach(t, func(t *testing.T, st store.Store) {
		ctx := t.Context()
		tpl := clienttest.Must(serve(t, st, nil).CreateTemplate(ctx, hourTemplate)).On(t)
		k := &keys{fail: busy}
		c := serve(t, st, k.wrap)
		clienttest.Must(c.Claim(ctx, "u1", client.ClaimParams{TemplateID: tpl.ID, IdempotencyKey: "claim-u1"})).On(t)
		if !slices.Equal(k.seen, []string{"claim-u1", "claim-u1"}) {
			t.Fatalf("Idempotency-Keys: got %q, want the one named, twice", k.seen)
		}
		if want := "lapse-go/devel"; !slices.Equal(k.agents, []string{want, want}) {
			t.Fatalf("User-Agents: got %q, want %s (the client module is replaced by its checkout) on each", k.agents, want)
		}

		k = &keys{fail: busy}
		srv := httptest.NewServer(k.wrap(httpapi.New(httpapi.Config{Store: st, Now: now})))
		t.Cleanup(srv.Close)
		bare := clienttest.New(t, srv.URL, client.WithoutIdempotencyKeys(), client.WithRetry(client.DefaultRetry))
		var p *client.Problem
		if _, err := bare.Claim(ctx, "u2", client.ClaimParams{TemplateID: tpl.ID}); !errors.As(err, &p) || p.Status != http.StatusServiceUnavailable {
			t.Fatalf("a claim without a key answered 503: got %v, want the 503, not retried", err)
		}
		if !slices.Equal(k.seen, []string{""}) {
			t.Fatalf("Idempotency-Keys without keys: got %q, want one request with none", k.seen)
		}
		if w := clienttest.All(t, bare.Wallet(ctx, "u2", client.WalletQuery{})); len(w) != 0 {
			t.Fatalf("wallet of u2: got %+v, want none", w)
		}
	})
}
