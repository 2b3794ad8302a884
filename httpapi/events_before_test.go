package httpapi

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// subjects returns the subjects of a page's events, in order.
func (p eventsPage) subjects() []string {
	var out []string
	for _, ev := range p.Events {
		out = append(out, ev.Subject)
	}
	return out
}

// TestEventsHead: on every store, after=latest is an empty page whose next
// is the feed's head, and following it reads only what commits later;
// before=latest is the head's page, and following prev walks the feed
// backwards to its start (prev 0), each page in feed order; filters keep
// what passes them; bad cursors are refused naming them.
func TestEventsHead(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		if got := e.events("/v1/events?before=latest"); len(got.Events) != 0 || got.Next != "0" || got.Prev != "0" {
			t.Fatalf("empty feed, before=latest: got %+v, want no events, next and prev 0", got)
		}
		if got := e.events("/v1/events?after=latest"); len(got.Events) != 0 || got.Next != "0" {
			t.Fatalf("empty feed, after=latest: got %+v, want no events, next 0", got)
		}
		tpl := e.template(hourTemplate)
		var ids []string
		for i := range 5 {
			ids = append(ids, e.claim(fmt.Sprintf("u%d", i), tpl).ID)
			e.clock.Add(time.Second)
		}
		end := e.events("/v1/events").Next

		head := e.events("/v1/events?after=latest")
		if len(head.Events) != 0 || head.Next != end {
			t.Fatalf("after=latest: got %d events, next %s; want none, next %s", len(head.Events), head.Next, end)
		}
		back := e.events("/v1/events?before=latest&limit=2")
		if got, want := back.subjects(), ids[3:5]; !slices.Equal(got, want) || back.Next != end {
			t.Fatalf("before=latest: got %v next %s, want %v next %s", got, back.Next, want, end)
		}
		var walked [][]string
		for page := back; ; {
			walked = append([][]string{page.subjects()}, walked...)
			if page.Prev == "0" {
				break
			}
			page = e.events("/v1/events?limit=2&before=" + page.Prev)
			if len(walked) > 5 {
				t.Fatalf("walking back: no prev 0 after %d pages", len(walked))
			}
		}
		if fmt.Sprint(walked) != fmt.Sprint([][]string{ids[0:1], ids[1:3], ids[3:5]}) {
			t.Fatalf("walking back: got pages %v, want %v", walked, [][]string{ids[0:1], ids[1:3], ids[3:5]})
		}

		e.ok(e.post("/v1/coupons/"+ids[1]+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})
		if got := e.events("/v1/events?after=" + head.Next); len(got.Events) != 1 || got.Events[0].Type != "coupon.locked" {
			t.Fatalf("after the head: got %+v, want the lock only", got.Events)
		}
		locks := e.events("/v1/events?before=latest&type=coupon.locked")
		if got := locks.subjects(); !slices.Equal(got, ids[1:2]) || locks.Prev != "0" {
			t.Fatalf("before=latest&type=coupon.locked: got %v prev %s, want [%s] prev 0", got, locks.Prev, ids[1])
		}
		history := e.events("/v1/events?before=latest&subject=" + ids[1])
		if len(history.Events) != 2 || history.Events[0].Type != "coupon.claimed" || history.Events[1].Type != "coupon.locked" {
			t.Fatalf("a coupon's history: got %+v, want claimed then locked", history.Events)
		}

		n, _ := strconv.ParseInt(e.events("/v1/events?after=latest").Next, 10, 64)
		for q, field := range map[string]string{
			"before=x": "before", "before=-1": "before", fmt.Sprintf("before=%d", n+1): "before",
			"after=1&before=latest": "before", "after=head": "after",
		} {
			p := e.problem(e.get("/v1/events?"+q), http.StatusUnprocessableEntity, "invalid")
			if !strings.HasPrefix(p.Detail, field) {
				t.Fatalf("%s: detail %q, want it to name %s", q, p.Detail, field)
			}
		}
	})
}

// TestEventsBeforeBoundedInBytes: large events end a page before a cursor
// early, keeping its end; following prev reads every event once.
func TestEventsBeforeBoundedInBytes(t *testing.T) {
	e := setup(t)
	big := strings.Repeat("x", maxEventsPage/3)
	e.writeEvents(big+"1", big+"2", big+"3", big+"4", big+"5")
	var seen []string
	for page := e.events("/v1/events?before=latest"); ; page = e.events("/v1/events?before=" + page.Prev) {
		if len(page.Events) == 0 || len(page.Events) > 2 {
			t.Fatalf("page before %s: %d events, want 1 or 2", page.Next, len(page.Events))
		}
		seen = append(page.subjects(), seen...)
		if page.Prev == "0" {
			break
		}
	}
	if want := []string{"s0", "s1", "s2", "s3", "s4"}; !slices.Equal(seen, want) {
		t.Fatalf("walking back: got %v, want %v", seen, want)
	}
}
