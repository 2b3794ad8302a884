package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// templatesPage is the answer of GET /v1/templates.
type templatesPage struct {
	Templates []templateJSON `json:"templates"`
	Next      string         `json:"next"`
}

// page reads one page of the template list.
func (e *env) page(query string) templatesPage {
	e.t.Helper()
	return okJSON[templatesPage](e, e.get("/v1/templates"+query), http.StatusOK)
}

// patch sends PATCH path with body.
func (e *env) patch(path, body string, header ...string) response {
	e.t.Helper()
	return e.do(http.MethodPatch, path, body, header...)
}

// TestListTemplates: pages follow next, by ID, each template once; an
// empty page answers the cursor it was given.
func TestListTemplates(t *testing.T) {
	e := setup(t)
	if p := e.page(""); len(p.Templates) != 0 || p.Next != "" || p.Templates == nil {
		t.Fatalf("empty list: got %+v, want [] and next \"\"", p)
	}
	var ids []string
	for range 5 {
		ids = append(ids, e.template(hourTemplate))
		e.clock.Add(time.Millisecond)
	}
	var got []string
	after := ""
	for {
		p := e.page("?limit=2&after=" + after)
		if len(p.Templates) == 0 {
			if p.Next != after {
				t.Fatalf("empty page: next %q, want the cursor %q", p.Next, after)
			}
			break
		}
		for _, tp := range p.Templates {
			got = append(got, tp.ID)
			if tp.Counts != nil || tp.ClosedAt != nil || tp.Name != "¥20 off" {
				t.Fatalf("listed %+v: want no counts, open, its name", tp)
			}
		}
		if p.Next != p.Templates[len(p.Templates)-1].ID {
			t.Fatalf("next %q, want the page's last ID", p.Next)
		}
		after = p.Next
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("walk: got %v, want %v", got, ids)
	}
	if p := e.page(""); len(p.Templates) != 5 || p.Next != ids[4] {
		t.Fatalf("default page: got %d, next %q", len(p.Templates), p.Next)
	}
	for _, q := range []string{"?limit=0", "?limit=1001", "?limit=x", "?after=%20tpl", "?after=" + strings.Repeat("a", 129)} {
		e.problem(e.get("/v1/templates"+q), http.StatusUnprocessableEntity, "invalid")
	}
}

// TestChangeTemplate: a PATCH changes the fields it names, answers the
// template, and makes one template.updated event with what changed.
func TestChangeTemplate(t *testing.T) {
	e := setup(t)
	tpl := e.template(`{"name": "a", "value": 100, "validity": {"duration": "1h"}, "total": 10, "reminders": ["30m"]}`)
	var v templateJSON
	e.ok(e.patch("/v1/templates/"+tpl, `{"name": "b", "total": null, "reminders": ["10m", "45m"]}`), http.StatusOK, &v)
	if v.Name != "b" || v.Value != 100 || v.Total != 10 || !slices.Equal(v.Reminders, []string{"45m", "10m"}) {
		t.Fatalf("changed: got %+v", v)
	}
	e.ok(e.patch("/v1/templates/"+tpl, `{}`), http.StatusOK, &v)
	e.ok(e.patch("/v1/templates/"+tpl, `{"name": "b"}`), http.StatusOK, &v)
	evs := e.eventsOfType("template.updated")
	if len(evs) != 1 || evs[0].Subject != tpl ||
		string(evs[0].Data) != `{"from":{"name":"a","reminders":["30m"]},"to":{"name":"b","reminders":["45m","10m"]}}` {
		t.Fatalf("events: got %+v, want one template.updated", evs)
	}
	cases := []rejection{
		{`{"name": 1}`, 400, "malformed", ""},
		{`{"colour": "red"}`, 400, "malformed", ""},
		{`{"Name": "c"}`, 400, "malformed", ""},
		{`{"reminders": ["soon"]}`, 400, "malformed", ""},
		{`[]`, 400, "malformed", ""},
		{`{"name": ""}`, 422, "invalid", "name"},
		{`{"value": 0}`, 422, "invalid", "value"},
		{`{"total": -5}`, 422, "invalid", "total"},
		{`{"reminders": ["1h", "0s"]}`, 422, "invalid", "reminders[1]"},
	}
	e.wantRejected(cases, func(body string) response { return e.patch("/v1/templates/"+tpl, body) })
	e.problem(e.patch("/v1/templates/tpl_nothing", `{"name": "c"}`), http.StatusNotFound, "not-found")
	var after templateJSON
	e.ok(e.get("/v1/templates/"+tpl), http.StatusOK, &after)
	if after.Name != "b" || after.Total != 10 || len(e.eventsOfType("template.updated")) != 1 {
		t.Fatalf("refused changes changed the template: %+v", after)
	}
}

// TestChangeTemplateTotal: a total below what is issued is 422 invalid
// naming total; at it, claims are sold out.
func TestChangeTemplateTotal(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	e.claim("u1", tpl)
	e.claim("u2", tpl)
	p := e.problem(e.patch("/v1/templates/"+tpl, `{"total": 1}`), http.StatusUnprocessableEntity, "invalid")
	if !strings.HasPrefix(p.Detail, "total") || !strings.Contains(p.Detail, "2") {
		t.Fatalf("detail %q: want it to name total and the 2 issued", p.Detail)
	}
	var v templateJSON
	e.ok(e.patch("/v1/templates/"+tpl, `{"total": 2}`), http.StatusOK, &v)
	e.problem(e.post("/v1/users/u3/coupons", `{"template_id": "`+tpl+`"}`), http.StatusConflict, "sold-out")
}

// TestCloseTemplate: a closed template refuses claims and issuance with
// 409 not-claimable saying it is closed, changing nothing; its coupons
// lock and redeem; closing again answers the first close.
func TestCloseTemplate(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	c := e.claim("u1", tpl)
	e.clock.Add(time.Minute)
	closedAt := ms(e.clock.Now())
	first := e.post("/v1/templates/"+tpl+"/close", `{"reason": "leaked"}`)
	var v templateJSON
	e.ok(first, http.StatusOK, &v)
	if v.ClosedAt == nil || *v.ClosedAt != closedAt {
		t.Fatalf("closed_at: got %v, want %s", v.ClosedAt, closedAt)
	}
	e.clock.Add(time.Minute)
	if again := e.post("/v1/templates/"+tpl+"/close", ``); again.status != http.StatusOK || string(again.body) != string(first.body) {
		t.Fatalf("second close: got %d %s, want the first answer %s", again.status, again.body, first.body)
	}
	evs := e.eventsOfType("template.closed")
	if len(evs) != 1 || string(evs[0].Data) != `{"from":"open","reason":"leaked","issued":1}` {
		t.Fatalf("events: got %+v, want one template.closed", evs)
	}
	before := e.get("/v1/events?limit=1000").body
	p := e.problem(e.post("/v1/users/u2/coupons", `{"template_id": "`+tpl+`"}`), http.StatusConflict, "not-claimable")
	if !strings.Contains(p.Detail, "closed") {
		t.Fatalf("claim detail %q: want it to say the template is closed", p.Detail)
	}
	e.problem(e.post("/v1/templates/"+tpl+"/issue", `{"user_ids": ["u2", "u3"]}`), http.StatusConflict, "not-claimable")
	if after := e.get("/v1/events?limit=1000").body; string(after) != string(before) {
		t.Fatalf("refused claim and issue wrote events:\n%s", after)
	}
	if cs := e.userCoupons("/v1/users/u2/coupons"); len(cs) != 0 {
		t.Fatalf("u2 holds %d coupons of a closed template", len(cs))
	}
	e.ok(e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})
	var used couponJSON
	e.ok(e.post("/v1/coupons/"+c.ID+"/redeem", `{"order_id": "o1"}`), http.StatusOK, &used)
	if used.Status != "used" {
		t.Fatalf("redeem after the close: got %s", used.Status)
	}
	e.problem(e.post("/v1/templates/"+tpl+"/close", `{"reason": "`+strings.Repeat("a", 501)+`"}`), http.StatusUnprocessableEntity, "invalid")
	e.problem(e.post("/v1/templates/tpl_nothing/close", ``), http.StatusNotFound, "not-found")
}

// TestTemplateChangesIdempotent: a PATCH and a close under a key replay
// their first answer; a refused claim under a key keeps its refusal.
func TestTemplateChangesIdempotent(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	first := e.patch("/v1/templates/"+tpl, `{"value": 900}`, "Idempotency-Key", "chg-1")
	e.ok(first, http.StatusOK, &templateJSON{})
	e.ok(e.patch("/v1/templates/"+tpl, `{"value": 800}`), http.StatusOK, &templateJSON{})
	again := e.patch("/v1/templates/"+tpl, `{"value": 900}`, "Idempotency-Key", "chg-1")
	if again.status != http.StatusOK || string(again.body) != string(first.body) {
		t.Fatalf("retried change: got %d %s, want %s", again.status, again.body, first.body)
	}
	e.problem(e.patch("/v1/templates/"+tpl, `{"value": 901}`, "Idempotency-Key", "chg-1"), http.StatusConflict, "idempotency-conflict")
	var v templateJSON
	e.ok(e.get("/v1/templates/"+tpl), http.StatusOK, &v)
	if v.Value != 800 || len(e.eventsOfType("template.updated")) != 2 {
		t.Fatalf("after the retry: value %d, want 800 and two changes", v.Value)
	}
	e.ok(e.post("/v1/templates/"+tpl+"/close", ``, "Idempotency-Key", "close-1"), http.StatusOK, &templateJSON{})
	claim := func() response {
		return e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`, "Idempotency-Key", "claim-1")
	}
	p := e.problem(claim(), http.StatusConflict, "not-claimable")
	if kept := e.problem(claim(), http.StatusConflict, "not-claimable"); kept.Detail != p.Detail {
		t.Fatalf("kept refusal: detail %q, want %q", kept.Detail, p.Detail)
	}
}

// eventsOfType reads the feed's events of one type.
func (e *env) eventsOfType(typ string) []eventJSON {
	e.t.Helper()
	var page struct {
		Events []eventJSON `json:"events"`
	}
	e.ok(e.get("/v1/events?limit=1000"), http.StatusOK, &page)
	var out []eventJSON
	for _, ev := range page.Events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}
