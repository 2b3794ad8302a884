package clientsuite_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/store"
)

// TestIssueStream issues a template's coupons to a list streamed as
// NDJSON through a server that refuses the first request 503: the retry
// streams the whole list again under the same key, and every user but
// the one listed twice holds one coupon.
func TestIssueStream(t *testing.T) {
	onEach(t, func(t *testing.T, st store.Store) {
		ctx := t.Context()
		tpl := clienttest.Must(serve(t, st, nil).CreateTemplate(ctx, client.NewTemplate{Name: "bulk", Value: 100, PerUserLimit: 1,
			Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
		users := func(yield func(string) bool) {
			for i := range 1000 {
				if !yield(fmt.Sprint("u", i)) {
					return
				}
			}
			yield("u7")
		}
		k := &keys{fail: busy}
		c := serve(t, st, k.wrap)
		got := clienttest.Must(c.IssueStream(ctx, tpl.ID, client.IssueStreamParams{Users: users, IdempotencyKey: "stream-1"})).On(t)
		if got.Issued != 1000 || !slices.Equal(got.Refused, []client.Refusal{{UserID: "u7", Reason: client.SlugLimitReached}}) {
			t.Fatalf("issued: got %+v, want 1000 and u7's second refused %s", got, client.SlugLimitReached)
		}
		if !slices.Equal(k.seen, []string{"stream-1", "stream-1"}) {
			t.Fatalf("Idempotency-Keys: got %q, want the one named, twice", k.seen)
		}
		if n := clienttest.Must(c.Template(ctx, tpl.ID)).On(t).Counts.Unused; n != 1000 {
			t.Fatalf("unused coupons: got %d, want 1000", n)
		}
	})
}

// TestIssueUntimed: a bulk issuance outlasts the client's per-request
// timeout, which still bounds any other call.
func TestIssueUntimed(t *testing.T) {
	onEach(t, func(t *testing.T, st store.Store) {
		ctx := t.Context()
		tpl := clienttest.Must(serve(t, st, nil).CreateTemplate(ctx, hourTemplate)).On(t)
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(300 * time.Millisecond)
			httpapi.New(httpapi.Config{Store: st, Now: now}).ServeHTTP(w, r)
		}))
		t.Cleanup(slow.Close)
		c := clienttest.New(t, slow.URL, client.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
		if _, err := c.Claim(ctx, "u1", client.ClaimParams{TemplateID: tpl.ID}); err == nil {
			t.Fatal("a claim slower than the timeout: got no error")
		}
		if got := clienttest.Must(c.Issue(ctx, tpl.ID, client.IssueParams{UserIDs: []string{"u2"}})).On(t); got.Issued != 1 {
			t.Fatalf("Issue: got %+v, want 1 issued", got)
		}
		one := slices.Values([]string{"u3"})
		if got := clienttest.Must(c.IssueStream(ctx, tpl.ID, client.IssueStreamParams{Users: one})).On(t); got.Issued != 1 {
			t.Fatalf("IssueStream: got %+v, want 1 issued", got)
		}
	})
}
