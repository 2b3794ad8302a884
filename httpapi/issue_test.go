package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// issued decodes a successful bulk issuance.
func (e *env) issued(res response) issuedJSON {
	e.t.Helper()
	var v issuedJSON
	e.ok(res, http.StatusOK, &v)
	return v
}

func wantIssued(t *testing.T, got issuedJSON, n int64, refused ...refusalJSON) {
	t.Helper()
	if got.Issued != n || len(got.Refused) != len(refused) {
		t.Fatalf("issued: got %+v, want %d issued and refused %+v", got, n, refused)
	}
	for i := range refused {
		if got.Refused[i] != refused[i] {
			t.Fatalf("refused[%d]: got %+v, want %+v", i, got.Refused[i], refused[i])
		}
	}
}

func TestIssueJSON(t *testing.T) {
	e := setup(t)
	tpl := e.template(`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "per_user_limit": 1, "total": 3}`)
	e.claim("u1", tpl)
	got := e.issued(e.post("/v1/templates/"+tpl+"/issue", `{"user_ids": ["u1", "u2", "u3", "u4"]}`))
	wantIssued(t, got, 2, refusalJSON{"u1", "limit-reached"}, refusalJSON{"u4", "sold-out"})
	cs := e.userCoupons("/v1/users/u2/coupons")
	if len(cs) != 1 || cs[0].TemplateID != tpl || cs[0].Status != "unused" || cs[0].ClaimedAt != ms(t0) ||
		cs[0].ExpiresAt != ms(t0.Add(time.Hour)) {
		t.Fatalf("u2's coupons: got %+v, want one unused of %s claimed now for an hour", cs, tpl)
	}
	var info templateJSON
	e.ok(e.get("/v1/templates/"+tpl), http.StatusOK, &info)
	if info.Counts.Unused != 3 {
		t.Fatalf("unused count: got %d, want 3", info.Counts.Unused)
	}
	if n := len(e.events("/v1/events").Events); n != 3 {
		t.Fatalf("events: got %d, want 3 coupon.claimed", n)
	}
}

func TestIssueNDJSON(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	var body strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&body, "{\"user_id\": \"u%d\"}\n", i)
	}
	body.WriteString("\n  \n") // blank lines are skipped
	got := e.issued(e.post("/v1/templates/"+tpl+"/issue", body.String(), "Content-Type", "application/x-ndjson; charset=utf-8"))
	wantIssued(t, got, 1200)
	if cs := e.userCoupons("/v1/users/u1199/coupons"); len(cs) != 1 {
		t.Fatalf("u1199's coupons: got %d, want 1", len(cs))
	}
}

// TestIssueRefusedWhole: requests that are refused as a whole answer a
// problem and issue nothing.
func TestIssueRefusedWhole(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	closed := e.template(fmt.Sprintf(`{"name": "n", "value": 1, "validity": {"starts_at": %q, "duration": "1h"}}`, ms(t0.Add(time.Hour))))
	path := "/v1/templates/" + tpl + "/issue"
	cases := []struct {
		path, body, ctype string
		status            int
		slug              string
	}{
		{path, `{"user_ids": ["u1", ""]}`, "", 422, "invalid"},
		{path, `{"user_ids": []}`, "", 422, "invalid"},
		{path, `{}`, "", 422, "invalid"},
		{path, ``, "", 422, "invalid"},
		{path, `{"user_ids": ["u1"], "extra": 1}`, "", 400, "malformed"},
		{path, `{"USER_IDS": ["u1"]}`, "", 400, "malformed"},
		{path, `{"user_ids": ["u1"]} []`, "", 400, "malformed"},
		{path, `{"user_ids": [1]}`, "", 400, "malformed"},
		{path, "{\"user_id\": \"u1\"}\n{\"user_id\": 2}\n", ndjson, 400, "malformed"},
		{path, "{\"user_id\": \"u1\"}\n{\"user\": \"u2\"}\n", ndjson, 400, "malformed"},
		{path, "{\"user_id\": \"u1\"}\n{\"user_id\": null}\n", ndjson, 422, "invalid"},
		{path, "\n", ndjson, 422, "invalid"},
		{"/v1/templates/tpl_nosuch/issue", `{"user_ids": ["u1"]}`, "", 404, "not-found"},
		{"/v1/templates/" + closed + "/issue", `{"user_ids": ["u1"]}`, "", 409, "not-claimable"},
	}
	for _, c := range cases {
		e.problem(e.post(c.path, c.body, "Content-Type", c.ctype), c.status, c.slug)
	}
	if n := len(e.events("/v1/events").Events); n != 0 {
		t.Fatalf("events after refused issuances: got %d, want 0", n)
	}
}

func TestIssueIdempotent(t *testing.T) {
	e := setup(t)
	tpl := e.template(`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "total": 2}`)
	path := "/v1/templates/" + tpl + "/issue"
	body := `{"user_ids": ["a", "b", "c"]}`
	first := e.post(path, body, "Idempotency-Key", "bulk-1")
	wantIssued(t, e.issued(first), 2, refusalJSON{"c", "sold-out"})
	e.clock.Add(time.Minute)
	again := e.post(path, body, "Idempotency-Key", "bulk-1")
	if again.status != first.status || !bytes.Equal(again.body, first.body) {
		t.Fatalf("replay: got %d %s, want %d %s", again.status, again.body, first.status, first.body)
	}
	if n := len(e.events("/v1/events").Events); n != 2 {
		t.Fatalf("events after the replay: got %d, want 2", n)
	}
	e.problem(e.post(path, `{"user_ids": ["d"]}`, "Idempotency-Key", "bulk-1"), http.StatusConflict, "idempotency-conflict")
}
