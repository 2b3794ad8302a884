package httpapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
)

func TestPutUser(t *testing.T) {
	e := setup(t)
	res := e.do(http.MethodPut, "/v1/users/u1", `{"timezone": "Asia/Shanghai", "channels": ["sms", "push", "in_app"]}`)
	want := `{"id":"u1","timezone":"Asia/Shanghai","channels":["sms","push","in_app"],"last_active_at":null}`
	var v userJSON
	e.ok(res, http.StatusOK, &v)
	if got := string(res.body); got != want {
		t.Fatalf("put:\n got %s\nwant %s", got, want)
	}
	res = e.get("/v1/users/u1")
	e.ok(res, http.StatusOK, &v)
	if got := string(res.body); got != want {
		t.Fatalf("read back:\n got %s\nwant %s", got, want)
	}

	// A claim marks the user active; a new profile keeps that.
	e.clock.Add(time.Minute)
	e.claim("u1", e.template(hourTemplate))
	res = e.do(http.MethodPut, "/v1/users/u1", ``)
	want = `{"id":"u1","timezone":"UTC","channels":[],"last_active_at":"` + ms(t0.Add(time.Minute)) + `"}`
	e.ok(res, http.StatusOK, &v)
	if got := string(res.body); got != want {
		t.Fatalf("replaced by the defaults:\n got %s\nwant %s", got, want)
	}
}

func TestGetUser(t *testing.T) {
	e := setup(t)
	e.problem(e.get("/v1/users/nobody"), http.StatusNotFound, "not-found")
	e.claim("u2", e.template(hourTemplate))
	var v userJSON
	e.ok(e.get("/v1/users/u2"), http.StatusOK, &v)
	if v.Timezone != "UTC" || len(v.Channels) != 0 || v.LastActiveAt == nil || *v.LastActiveAt != ms(t0) {
		t.Fatalf("a user met by a claim: got %+v, want UTC, no channels, active at %s", v, ms(t0))
	}
}

func TestPutUserRejected(t *testing.T) {
	e := setup(t)
	cases := []rejection{
		{`{"timezone": 8}`, 400, "malformed", ""},
		{`{"timezone": "UTC", "channel": ["sms"]}`, 400, "malformed", ""},
		{`{"channels": "sms"}`, 400, "malformed", ""},
		{`[]`, 400, "malformed", ""},
		{`{"timezone": "Mars/Olympus"}`, 422, "invalid", "timezone"},
		{`{"timezone": "Local"}`, 422, "invalid", "timezone"},
		{`{"timezone": ""}`, 422, "invalid", "timezone"},
		{`{"channels": ["sms", "email"]}`, 422, "invalid", "channels[1]"},
		{`{"channels": ["push", "push"]}`, 422, "invalid", "channels[1]"},
	}
	e.wantRejected(cases, func(body string) response {
		res := e.do(http.MethodPut, "/v1/users/u1", body)
		e.problem(e.get("/v1/users/u1"), http.StatusNotFound, "not-found")
		return res
	})
}

func FuzzDecodeUser(f *testing.F) {
	f.Add([]byte(`{"timezone": "Asia/Shanghai", "channels": ["sms", "push", "in_app"]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		u, err := decodeUser("u1", body)
		err = validAsInput(t, string(body), err, store.PutUserParams{User: u}.Validate)
		if err == nil && u.ID != "u1" {
			t.Fatalf("%q: accepted %+v", body, u)
		}
	})
}
