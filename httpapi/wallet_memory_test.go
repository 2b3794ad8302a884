package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
	"github.com/lapsehq/lapse/storetype"
)

// whaleCoupons is the size of the wallet TestWalletReadBounded reads: the
// one that made a whole read a 56 MB answer.
const whaleCoupons = 200_000

// TestWalletReadBounded: on every store, a wallet of 200,000 coupons is
// read through the server a page at a time: a page holds at most its
// limit, and what one read allocates (server and client, in this process)
// is bounded by the page, not by the wallet. A status that no coupon is in
// walks the wallet in the database and answers an empty page just as
// cheaply. Read whole, the same wallet allocated hundreds of MB.
func TestWalletReadBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 200,000 coupons on each store")
	}
	for _, be := range backendtest.All(t) {
		t.Run(be.Name, func(t *testing.T) {
			st := be.Open(t)
			start := time.Now()
			seedWallet(t, st, "whale", whaleCoupons)
			t.Logf("seeded %d coupons in %s", whaleCoupons, time.Since(start).Round(time.Millisecond))
			srv := httptest.NewServer(New(Config{Store: st, Now: func() time.Time { return t0 }}))
			t.Cleanup(srv.Close)
			cases := []struct {
				query string
				size  int
				// alloc bounds the bytes one read allocates.
				alloc uint64
			}{
				{"", defaultWalletLimit, 2 << 20},
				{"?limit=1000", storetype.MaxWalletPage, 16 << 20},
				{"?status=used", 0, 2 << 20},
			}
			for _, c := range cases {
				start := time.Now()
				page, alloc := readPage(t, srv.URL+"/v1/users/whale/coupons"+c.query)
				t.Logf("%q: %d coupons, %d KB allocated, in %s", c.query, len(page.Coupons), alloc>>10, time.Since(start).Round(time.Millisecond))
				if len(page.Coupons) != c.size {
					t.Fatalf("%q: got %d coupons, want a page of %d", c.query, len(page.Coupons), c.size)
				}
				if alloc > c.alloc {
					t.Fatalf("%q: one read allocated %d KB, want at most %d KB: memory grows with the wallet", c.query, alloc>>10, c.alloc>>10)
				}
				if ids := pageIDs(page.Coupons); !slices.IsSorted(ids) || (len(ids) > 0 && page.Next != ids[len(ids)-1]) {
					t.Fatalf("%q: coupons %d…, next %q: want them by ID, next the last", c.query, len(ids), page.Next)
				}
			}
		})
	}
}

// walletPage is a page of a wallet as a client reads it.
type walletPage struct {
	Coupons []couponJSON `json:"coupons"`
	Next    string       `json:"next"`
}

// readPage reads one page of a wallet at url, and returns it with the
// bytes the process allocated meanwhile (after a collection, so that
// the count is the read's).
func readPage(t *testing.T, url string) (walletPage, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %.200s (%v)", url, res.StatusCode, body, err)
	}
	var page walletPage
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	runtime.ReadMemStats(&after)
	return page, after.TotalAlloc - before.TotalAlloc
}

// seedWallet issues n coupons of an hour-long template to user through
// bulk issuance, the fastest way in that every store offers, and writes
// each coupon as a claim would.
func seedWallet(t *testing.T, st store.Store, user string, n int) {
	t.Helper()
	tp, err := st.CreateTemplate(t.Context(), store.CreateTemplateParams{
		Template: coupon.Template{Name: "whale", Value: 100, StartsAt: t0.Add(-time.Minute), Duration: time.Hour}, Now: t0})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	got, err := st.Issue(t.Context(), store.IssueParams{TemplateID: tp.ID, Users: store.UserList(slices.Repeat([]string{user}, n)), Now: t0})
	if err != nil || got.Issued != int64(n) {
		t.Fatalf("issue %d coupons to %s: issued %d, %v", n, user, got.Issued, err)
	}
}

// pageIDs returns the IDs of cs, in their order.
func pageIDs(cs []couponJSON) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}
