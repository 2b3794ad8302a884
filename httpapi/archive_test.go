package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// archived runs POST /v1/archive with body and returns its answer.
func (e *env) archived(body string) archiveJSON {
	e.t.Helper()
	return okJSON[archiveJSON](e, e.post("/v1/archive", body), http.StatusOK)
}

// couponIDs lists the IDs of cs, sorted.
func couponIDs(cs []couponJSON) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	slices.Sort(ids)
	return ids
}

// TestArchive: on every store, POST /v1/archive moves the terminal
// coupons and the finished orders last changed --archive-after ago (or
// before the time asked), counts them first in a dry run, and what it
// moved is still found by ID, and in the wallet with ?include=archived.
func TestArchive(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		voided := e.claim("u1", tpl)
		e.ok(e.post("/v1/coupons/"+voided.ID+"/void", `{"reason": "leaked"}`), http.StatusOK, &couponJSON{})
		kept := e.claim("u1", tpl) // unused: never archived
		e.ok(e.do(http.MethodPut, "/v1/skus/apple", `{"stock": 5}`), http.StatusOK, &map[string]any{})
		var o orderJSON
		e.ok(e.post("/v1/orders", appleOrder), http.StatusCreated, &o)
		e.ok(e.post("/v1/orders/"+o.ID+"/cancel", ""), http.StatusOK, &o)
		e.clock.Add(24*time.Hour + time.Millisecond)

		want := archiveJSON{Before: ms(t0.Add(time.Millisecond)), DryRun: true, Coupons: 1, Orders: 1}
		if got := e.archived(`{"dry_run": true}`); got != want {
			t.Fatalf("dry run: got %+v, want %+v", got, want)
		}
		if got := couponIDs(e.userCoupons("/v1/users/u1/coupons")); len(got) != 2 {
			t.Fatalf("wallet after a dry run: got %v, want both coupons", got)
		}
		want.DryRun = false
		if got := e.archived(""); got != want {
			t.Fatalf("archive: got %+v, want %+v", got, want)
		}
		if got := couponIDs(e.userCoupons("/v1/users/u1/coupons")); !slices.Equal(got, []string{kept.ID}) {
			t.Fatalf("hot wallet: got %v, want %v", got, []string{kept.ID})
		}
		all := couponIDs([]couponJSON{voided, kept})
		if got := couponIDs(e.userCoupons("/v1/users/u1/coupons?include=archived")); !slices.Equal(got, all) {
			t.Fatalf("wallet with the archive: got %v, want %v", got, all)
		}
		if got := couponIDs(e.userCoupons("/v1/users/u1/coupons?status=voided&include=archived")); !slices.Equal(got, []string{voided.ID}) {
			t.Fatalf("voided with the archive: got %v, want %v", got, []string{voided.ID})
		}
		if c, _ := e.coupon(voided.ID); c.Status != "voided" {
			t.Fatalf("archived coupon by ID: got %+v", c)
		}
		var got orderJSON
		e.ok(e.get("/v1/orders/"+o.ID), http.StatusOK, &got)
		if got.Status != "closed" || got.ID != o.ID {
			t.Fatalf("archived order by ID: got %+v", got)
		}
		if again := e.archived(`{"before": "` + ms(e.clock.Now()) + `"}`); again.Coupons != 0 || again.Orders != 0 {
			t.Fatalf("second run: got %+v, want nothing moved", again)
		}
	}, func(c *Config) { c.ArchiveAfter = 24 * time.Hour })
}

// TestArchiveRefused: bad input to POST /v1/archive and to the wallet's
// include is refused, naming the field, and moves nothing.
func TestArchiveRefused(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	c := e.claim("u1", tpl)
	e.ok(e.post("/v1/coupons/"+c.ID+"/void", `{"reason": "leaked"}`), http.StatusOK, &couponJSON{})
	e.clock.Add(time.Hour)
	for _, tc := range []struct {
		body, slug string
	}{
		{`{}`, "invalid"}, // no --archive-after: before is required
		{`{"before": "` + ms(e.clock.Now().Add(time.Millisecond)) + `"}`, "invalid"},
		{`{"before": "1969-12-31T23:59:59Z"}`, "invalid"},
		{`{"before": "yesterday"}`, "malformed"},
		{`{"dry_run": "yes"}`, "malformed"},
		{`{"after": "2026-01-01T00:00:00Z"}`, "malformed"},
	} {
		status := http.StatusUnprocessableEntity
		if tc.slug == "malformed" {
			status = http.StatusBadRequest
		}
		p := e.problem(e.post("/v1/archive", tc.body), status, tc.slug)
		if tc.slug == "invalid" && !strings.HasPrefix(p.Detail, "before: ") {
			t.Fatalf("%s: problem %+v names no field before", tc.body, p)
		}
	}
	for _, q := range []string{"include=all", "include=", "include=archived&include=archived", "include=ARCHIVED"} {
		p := e.problem(e.get("/v1/users/u1/coupons?"+q), http.StatusUnprocessableEntity, "invalid")
		if !strings.HasPrefix(p.Detail, "include: ") {
			t.Fatalf("?%s: problem %+v names no field include", q, p)
		}
	}
	if got := couponIDs(e.userCoupons("/v1/users/u1/coupons")); !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("wallet after refusals: got %v, want %v", got, []string{c.ID})
	}
}
