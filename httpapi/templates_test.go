package httpapi

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCreateTemplate(t *testing.T) {
	e := setup(t)
	res := e.post("/v1/templates", `{"name": "11.11 ¥20 off", "value": 2000, "min_spend": 10000,
		"validity": {"starts_at": "2026-11-01T16:00:00+08:00", "ends_at": "2026-11-12T00:00:00Z", "duration": "72h"},
		"per_user_limit": 1, "total": 1000000, "reminders": ["24h", "30m", "72h", "24h"]}`)
	var v templateJSON
	e.ok(res, http.StatusCreated, &v)
	if !strings.HasPrefix(v.ID, "tpl_") {
		t.Fatalf("id: got %q, want a tpl_ id", v.ID)
	}
	want := `{"id":"` + v.ID + `","name":"11.11 ¥20 off","value":2000,"min_spend":10000,` +
		`"validity":{"starts_at":"2026-11-01T08:00:00.000Z","ends_at":"2026-11-12T00:00:00.000Z","duration":"72h"},` +
		`"per_user_limit":1,"total":1000000,"reminders":["72h","24h","30m"],"created_at":"` + ms(t0) + `","closed_at":null}`
	if got := string(res.body); got != want {
		t.Fatalf("created:\n got %s\nwant %s", got, want)
	}

	res = e.get("/v1/templates/" + v.ID)
	wantGet := strings.TrimSuffix(want, "}") + `,"counts":{"unused":0,"locked":0,"used":0,"expired":0,"voided":0}}`
	if res.status != http.StatusOK || string(res.body) != wantGet {
		t.Fatalf("get: got %d\n %s\nwant 200\n %s", res.status, res.body, wantGet)
	}
}

func TestCreateTemplateDefaults(t *testing.T) {
	e := setup(t)
	var v templateJSON
	e.ok(e.post("/v1/templates", `{"name": "n", "value": 1, "validity": {"ends_at": "2026-12-01T00:00:00Z"}}`), http.StatusCreated, &v)
	if v.Validity.StartsAt != ms(t0) {
		t.Fatalf("starts_at: got %s, want now %s", v.Validity.StartsAt, ms(t0))
	}
	if v.Validity.Duration != nil || v.Reminders == nil || len(v.Reminders) != 0 {
		t.Fatalf("absent fields: got duration %v, reminders %#v; want null and []", v.Validity.Duration, v.Reminders)
	}
}

func TestCreateTemplateRejected(t *testing.T) {
	e := setup(t)
	cases := []rejection{
		{`not json`, 400, "malformed", ""},
		{`[]`, 400, "malformed", ""},
		{`null`, 400, "malformed", ""},
		{`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "colour": "red"}`, 400, "malformed", ""},
		{`{"Name": "n", "value": 1, "validity": {"duration": "1h"}}`, 400, "malformed", ""},
		{`{"name": "n", "value": 1, "validity": {"duration": "1h"}} {}`, 400, "malformed", ""},
		{`{"name": "n", "value": "1", "validity": {"duration": "1h"}}`, 400, "malformed", ""},
		{`{"name": "n", "value": 1, "validity": {"duration": "an hour"}}`, 400, "malformed", ""},
		{`{"name": "n", "value": 1, "validity": {"ends_at": "tomorrow"}}`, 400, "malformed", ""},
		{`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "reminders": ["1x"]}`, 400, "malformed", ""},
		{`{"value": 1, "validity": {"duration": "1h"}}`, 422, "invalid", "name"},
		{`{"name": "n", "value": 0, "validity": {"duration": "1h"}}`, 422, "invalid", "value"},
		{`{"name": "n", "value": 1}`, 422, "invalid", "validity"},
		{`{"name": "n", "value": 1, "validity": {"duration": "-1h"}}`, 422, "invalid", "validity.duration"},
		{`{"name": "n", "value": 1, "validity": {"ends_at": "2026-10-01T00:00:00Z"}}`, 422, "invalid", "validity.ends_at"},
		{`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "total": -1}`, 422, "invalid", "total"},
		{`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "reminders": ["0s"]}`, 422, "invalid", "reminders"},
	}
	e.wantRejected(cases, func(body string) response { return e.post("/v1/templates", body) })
}

func TestGetTemplateNotFound(t *testing.T) {
	e := setup(t)
	e.problem(e.get("/v1/templates/tpl_nothing"), http.StatusNotFound, "not-found")
}

func TestTemplateCounts(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	var ids []string
	for _, u := range []string{"u1", "u2", "u3", "u4"} {
		ids = append(ids, e.claim(u, tpl).ID)
	}
	e.ok(e.post("/v1/coupons/"+ids[0]+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})
	e.ok(e.post("/v1/coupons/"+ids[1]+"/redeem", `{"order_id": "o2"}`), http.StatusOK, &couponJSON{})
	e.ok(e.post("/v1/coupons/"+ids[2]+"/void", ``), http.StatusOK, &couponJSON{})

	counts := func() countsJSON {
		var v templateJSON
		e.ok(e.get("/v1/templates/"+tpl), http.StatusOK, &v)
		return *v.Counts
	}
	if got, want := counts(), (countsJSON{Unused: 1, Locked: 1, Used: 1, Voided: 1}); got != want {
		t.Fatalf("counts: got %+v, want %+v", got, want)
	}
	e.clock.Add(time.Hour) // the unused one is due; no engine has run
	if got, want := counts(), (countsJSON{Locked: 1, Used: 1, Expired: 1, Voided: 1}); got != want {
		t.Fatalf("counts past expiry: got %+v, want %+v", got, want)
	}
}
