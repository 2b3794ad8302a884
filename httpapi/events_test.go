package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
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
	// Prev answers a page before a cursor.
	Prev string `json:"prev"`
}

func (e *env) events(pathAndQuery string) eventsPage {
	e.t.Helper()
	return okJSON[eventsPage](e, e.get(pathAndQuery), http.StatusOK)
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
	for _, q := range []string{"after=x", "after=-1", "after=1.5", "after=1", "limit=0", "limit=1001", "limit=ten", "limit="} {
		p := e.problem(e.get("/v1/events?"+q), http.StatusUnprocessableEntity, "invalid")
		field, _, _ := strings.Cut(q, "=")
		if !strings.HasPrefix(p.Detail, field) {
			t.Fatalf("%s: detail %q, want it to name %s", q, p.Detail, field)
		}
	}
	if got := e.events("/v1/events?limit=1000"); got.Next != "0" {
		t.Fatalf("limit=1000: got next %s, want 0", got.Next)
	}
	if got := e.events("/v1/events?after="); got.Next != "0" {
		t.Fatalf("after= (empty, as none): got next %s, want 0", got.Next)
	}
}

// TestEventsPastEnd: a cursor past the feed's end, which no page
// answered, is 422 naming the end, not an empty page forever; the end
// itself is an empty page.
func TestEventsPastEnd(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	e.claim("u1", tpl)
	end := e.events("/v1/events").Next
	if got := e.events("/v1/events?after=" + end); len(got.Events) != 0 || got.Next != end {
		t.Fatalf("at the end: got %d events, next %s; want none, next %s", len(got.Events), got.Next, end)
	}
	n, _ := strconv.ParseInt(end, 10, 64)
	for _, after := range []int64{n + 1, n + 1000} {
		p := e.problem(e.get(fmt.Sprintf("/v1/events?after=%d", after)), http.StatusUnprocessableEntity, "invalid")
		if !strings.HasPrefix(p.Detail, "after") || !strings.Contains(p.Detail, end) {
			t.Fatalf("after=%d: detail %q, want it to name after and the end, %s", after, p.Detail, end)
		}
	}
}

// TestEventsPageBoundedInBytes: large events, written straight to the
// outbox, end pages early; a page passes maxEventsPage only to hold
// one event, and following next yields every event once, in order.
func TestEventsPageBoundedInBytes(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	ctx := context.Background()
	users := make([]string, 250) // small events first
	for i := range users {
		users[i] = fmt.Sprintf("bulk%d", i)
	}
	issue, _ := json.Marshal(map[string][]string{"user_ids": users})
	e.ok(e.post("/v1/templates/"+tpl+"/issue", string(issue)), http.StatusOK, &struct{}{})
	// "<" is written \u003c: the bound counts the bytes sent.
	e.writeEvents(strings.Repeat("x", 300<<10), "x", strings.Repeat("x", 500<<10), strings.Repeat("x", 2<<20),
		strings.Repeat("<", 200<<10), strings.Repeat("x", 300<<10), "x")
	all, err := e.store.Events(ctx, store.EventsParams{Limit: 1000})
	if err != nil {
		t.Fatalf("read the feed: %v", err)
	}
	var got []string
	pages := 0
	for after := "0"; ; pages++ {
		res := e.get("/v1/events?limit=1000&after=" + after)
		var page eventsPage
		e.ok(res, http.StatusOK, &page)
		if len(page.Events) == 0 {
			if page.Next != after {
				t.Fatalf("past the end: next %s, want %s", page.Next, after)
			}
			break
		}
		if len(res.body) > maxEventsPage && len(page.Events) > 1 {
			t.Fatalf("page %d: %d bytes in %d events, want at most %d unless it holds one", pages, len(res.body), len(page.Events), maxEventsPage)
		}
		if pages == 0 && len(page.Events) <= len(users) {
			t.Fatalf("first page: got %d events, want the %d claims of the issuance and more", len(page.Events), len(users))
		}
		for _, ev := range page.Events {
			got = append(got, ev.ID)
		}
		after = page.Next
	}
	var want []string
	for _, ev := range all {
		want = append(want, ev.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("events over the pages:\n got %v\nwant %v", got, want)
	}
	if pages < 4 {
		t.Fatalf("pages: got %d, want the large events to end pages early", pages)
	}
}

// TestEventsMemory: readers of a feed of large events hold a page at a
// time, never the events of a whole limit. Events of 1 MiB each are written
// straight to the outbox (no request makes one that large; a feed must
// still page what the outbox holds), then four readers walk the feed at once with limit=1000 while the
// heap in use is sampled. Before pages were bounded in bytes, each reader
// held every event in one page, and the heap grew with them.
func TestEventsMemory(t *testing.T) {
	const (
		large   = 24
		readers = 4
	)
	e := setup(t)
	tpl := e.template(hourTemplate)
	for i := range large {
		e.claim(fmt.Sprintf("u%d", i), tpl)
		e.writeEvents(strings.Repeat("x", 1<<20))
	}
	stop := heapGrowth()
	counts := make([]int, readers)
	errs := make(chan error, readers)
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for after := "0"; ; {
				res, err := send(e.url, "GET", "/v1/events?limit=1000&after="+after, "", nil)
				if err != nil || res.status != http.StatusOK {
					errs <- fmt.Errorf("reader %d: status %d, %v", r, res.status, err)
					return
				}
				var page eventsPage
				if err := json.Unmarshal(res.body, &page); err != nil {
					errs <- fmt.Errorf("reader %d: %v", r, err)
					return
				}
				if len(page.Events) == 0 {
					return
				}
				counts[r] += len(page.Events)
				after = page.Next
			}
		})
	}
	wg.Wait()
	peak := stop()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for r, n := range counts {
		if n != 2*large { // a claim and a large event each
			t.Fatalf("reader %d: read %d events, want %d", r, n, 2*large)
		}
	}
	t.Logf("heap in use: grew by %d MiB at most, %d readers of %d events of 1 MiB", peak>>20, readers, large)
	if peak > issueMemoryBound {
		t.Fatalf("heap in use: grew by %d MiB, want at most %d MiB", peak>>20, issueMemoryBound>>20)
	}
}

// writeEvents writes one event a reason straight to the outbox, its data
// holding the reason, in one transaction of the store's driver: events
// larger than any request makes, as a feed must still page.
func (e *env) writeEvents(reasons ...string) {
	e.t.Helper()
	tx, err := e.store.(*store.DB).Driver().Begin(e.t.Context(), false)
	if err != nil {
		e.t.Fatalf("begin: %v", err)
	}
	defer tx.Rollback()
	now := e.clock.Now()
	var events []storetype.Event
	for i, reason := range reasons {
		data, _ := json.Marshal(map[string]string{"reason": reason})
		events = append(events, storetype.Event{ID: store.NewID("evt", now), Type: "test.large", Subject: fmt.Sprintf("s%d", i), Time: now, Data: data})
	}
	record := storetype.Record{N: len(events), ID: events[0].ID, Time: now, Body: store.EncodeRecord(events)}
	if _, err := tx.Commit(e.t.Context(), []storetype.Record{record}); err != nil {
		e.t.Fatalf("commit: %v", err)
	}
}
