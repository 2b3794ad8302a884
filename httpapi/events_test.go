package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// eventsPage is a page of the feed as a client reads it.
type eventsPage struct {
	Events []struct {
		ID      string          `json:"id"`
		Type    string          `json:"type"`
		Subject string          `json:"subject"`
		Time    string          `json:"time"`
		Data    json.RawMessage `json:"data"`
	} `json:"events"`
	Next string `json:"next"`
}

func (e *env) events(pathAndQuery string) eventsPage {
	e.t.Helper()
	var p eventsPage
	e.ok(e.get(pathAndQuery), http.StatusOK, &p)
	return p
}

func TestEventsEmpty(t *testing.T) {
	e := setup(t)
	res := e.get("/v1/events")
	if res.status != http.StatusOK || string(res.body) != `{"events":[],"next":"0"}` {
		t.Fatalf("empty feed: got %d %s, want 200 {\"events\":[],\"next\":\"0\"}", res.status, res.body)
	}
}

func TestEventsPaging(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	var ids []string
	for _, u := range []string{"u1", "u2", "u3"} {
		ids = append(ids, e.claim(u, tpl).ID)
		e.clock.Add(time.Second)
	}
	e.ok(e.post("/v1/coupons/"+ids[0]+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})

	first := e.events("/v1/events?limit=2")
	if len(first.Events) != 2 || first.Events[0].Subject != ids[0] || first.Events[1].Subject != ids[1] {
		t.Fatalf("first page: got %+v, want the claims of %s and %s", first.Events, ids[0], ids[1])
	}
	ev := first.Events[0]
	if ev.Type != "coupon.claimed" || ev.Time != ms(t0) || !strings.HasPrefix(ev.ID, "evt_") {
		t.Fatalf("first event: got %+v, want coupon.claimed at %s with an evt_ id", ev, ms(t0))
	}
	var data struct {
		UserID     string `json:"user_id"`
		TemplateID string `json:"template_id"`
	}
	if err := json.Unmarshal(ev.Data, &data); err != nil || data.UserID != "u1" || data.TemplateID != tpl {
		t.Fatalf("first event data: got %s (%v), want user u1 and template %s", ev.Data, err, tpl)
	}

	second := e.events("/v1/events?limit=2&after=" + first.Next)
	if len(second.Events) != 2 || second.Events[0].Subject != ids[2] || second.Events[1].Type != "coupon.locked" {
		t.Fatalf("second page: got %+v, want the claim of %s then a lock", second.Events, ids[2])
	}
	if second.Next == first.Next {
		t.Fatalf("next: got %s twice, want it to move", second.Next)
	}
	last := e.events("/v1/events?after=" + second.Next)
	if len(last.Events) != 0 || last.Next != second.Next {
		t.Fatalf("past the end: got %d events, next %s; want none, next %s", len(last.Events), last.Next, second.Next)
	}
	if all := e.events("/v1/events"); len(all.Events) != 4 || all.Next != second.Next {
		t.Fatalf("default page: got %d events, next %s; want 4, next %s", len(all.Events), all.Next, second.Next)
	}
}

func TestEventsRejected(t *testing.T) {
	e := setup(t)
	for _, q := range []string{"after=x", "after=-1", "after=1.5", "after=", "limit=0", "limit=1001", "limit=ten", "limit="} {
		p := e.problem(e.get("/v1/events?"+q), http.StatusUnprocessableEntity, "invalid")
		field, _, _ := strings.Cut(q, "=")
		if !strings.HasPrefix(p.Detail, field) {
			t.Fatalf("%s: detail %q, want it to name %s", q, p.Detail, field)
		}
	}
	if got := e.events("/v1/events?limit=1000"); got.Next != "0" {
		t.Fatalf("limit=1000: got next %s, want 0", got.Next)
	}
}
