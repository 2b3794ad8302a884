package httpapi

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// operationsPage is a page of GET /v1/operations.
type operationsPage struct {
	Operations []operationJSON `json:"operations"`
	Next       string          `json:"next"`
}

// ids returns the IDs of a page's operations, in order.
func (p operationsPage) ids() []string {
	var out []string
	for _, op := range p.Operations {
		out = append(out, op.ID)
	}
	return out
}

// workBatch works one batch of limit coupons of operation id, as the
// engine would, and returns it as the store left it.
func (e *env) workBatch(id string, limit int) store.Operation {
	e.t.Helper()
	if _, _, err := e.store.ClaimOperation(e.t.Context(), store.ClaimOperationParams{Holder: "test", TTL: time.Minute, Now: e.clock.Now()}); err != nil {
		e.t.Fatal(err)
	}
	op, err := e.store.WorkOperation(e.t.Context(), store.WorkOperationParams{ID: id, Holder: "test", TTL: time.Minute, Now: e.clock.Now(), Limit: limit})
	if err != nil {
		e.t.Fatal(err)
	}
	return op
}

// TestCancelOperation: on every store, a running void cancelled after
// one batch stops there: the coupons it voided stay voided, the others
// unused, its progress is the batch's of the total, and a batch after
// the cancel changes nothing; the cancel is an operation.cancelled event;
// cancelling it again answers it as it is; a done operation is 409
// invalid-state, an unknown one 404 not-found.
func TestCancelOperation(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		for i := range 5 {
			e.claim(fmt.Sprintf("u%d", i), tpl)
		}
		op := okJSON[operationJSON](e, e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked"}`), http.StatusAccepted)
		if got := e.workBatch(op.ID, 2); got.State != storetype.OperationRunning || got.Done != 2 {
			t.Fatalf("first batch: got %s with %d done, want running with 2", got.State, got.Done)
		}
		e.clock.Add(time.Second)
		cancelled := okJSON[operationJSON](e, e.post("/v1/operations/"+op.ID+"/cancel", ""), http.StatusOK)
		if cancelled.State != storetype.OperationCancelled || cancelled.Progress != (progressJSON{Done: 2, Total: 5}) ||
			cancelled.Counts.Voided != 2 || cancelled.FinishedAt == nil || *cancelled.FinishedAt != ms(e.clock.Now()) {
			t.Fatalf("cancelled: got %+v, want cancelled at %s with 2 of 5 done, 2 voided", cancelled, ms(e.clock.Now()))
		}
		if got := e.workBatch(op.ID, 10); got.State != storetype.OperationCancelled || got.Done != 2 {
			t.Fatalf("a batch after the cancel: got %s with %d done, want cancelled with 2", got.State, got.Done)
		}
		var dry dryRunJSON
		e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "x", "dry_run": true}`), http.StatusOK, &dry)
		if dry.Counts.Voided != 2 || dry.Counts.Unused != 3 {
			t.Fatalf("after the cancel: counts %+v, want 2 voided and 3 unused", dry.Counts)
		}
		e.clock.Add(time.Second)
		if again := okJSON[operationJSON](e, e.post("/v1/operations/"+op.ID+"/cancel", `{}`), http.StatusOK); again.FinishedAt == nil || *again.FinishedAt != *cancelled.FinishedAt {
			t.Fatalf("cancelled again: got %+v, want it as the first cancel left it", again)
		}
		evs := e.events("/v1/events?before=latest&type=operation.cancelled")
		if len(evs.Events) != 1 || evs.Events[0].Subject != op.ID {
			t.Fatalf("events: got %+v, want one operation.cancelled about %s", evs.Events, op.ID)
		}

		other := okJSON[operationJSON](e, e.post("/v1/templates/"+tpl+"/extend", `{"by": "1h"}`), http.StatusAccepted)
		e.work()
		e.problem(e.post("/v1/operations/"+other.ID+"/cancel", ""), http.StatusConflict, "invalid-state")
		if got := e.operation(other.ID); got.State != storetype.OperationDone {
			t.Fatalf("a done operation after a refused cancel: %s", got.State)
		}
		e.problem(e.post("/v1/operations/op_nothing/cancel", ""), http.StatusNotFound, "not-found")
		e.problem(e.post("/v1/operations/"+op.ID+"/cancel", `{"now": true}`), http.StatusBadRequest, "malformed")
	})
}

// TestListOperations: on every store, operations list newest first, a
// page at a time, filtered by state; a bad state or cursor is refused.
func TestListOperations(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		e.claim("u1", tpl)
		var ids []string
		for range 3 {
			ids = append(ids, okJSON[operationJSON](e, e.post("/v1/templates/"+tpl+"/extend", `{"by": "1h"}`), http.StatusAccepted).ID)
			e.clock.Add(time.Millisecond)
		}
		e.ok(e.post("/v1/operations/"+ids[1]+"/cancel", ""), http.StatusOK, &operationJSON{})

		first := okJSON[operationsPage](e, e.get("/v1/operations?limit=2"), http.StatusOK)
		if got, want := first.ids(), []string{ids[2], ids[1]}; fmt.Sprint(got) != fmt.Sprint(want) || first.Next != ids[1] {
			t.Fatalf("first page: got %v next %s, want %v next %s", got, first.Next, want, ids[1])
		}
		second := okJSON[operationsPage](e, e.get("/v1/operations?limit=2&after="+first.Next), http.StatusOK)
		if got := second.ids(); fmt.Sprint(got) != fmt.Sprint([]string{ids[0]}) {
			t.Fatalf("second page: got %v, want [%s]", got, ids[0])
		}
		for state, want := range map[string][]string{
			"running": {ids[2], ids[0]}, "cancelled": {ids[1]}, "done": nil,
		} {
			page := okJSON[operationsPage](e, e.get("/v1/operations?state="+state), http.StatusOK)
			if got := page.ids(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("state %s: got %v, want %v", state, got, want)
			}
		}
		for q, field := range map[string]string{"state=paused": "state", "limit=0": "limit", "limit=101": "limit", "after=%20x": "after"} {
			if p := e.problem(e.get("/v1/operations?"+q), http.StatusUnprocessableEntity, "invalid"); p.Detail[:len(field)] != field {
				t.Fatalf("%s: detail %q, want it to name %s", q, p.Detail, field)
			}
		}
	})
}

// TestTemplatesNewestFirst: on every store, ?order=newest lists templates
// newest first, a page at a time; an unknown order is refused.
func TestTemplatesNewestFirst(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		var ids []string
		for range 3 {
			ids = append(ids, e.template(hourTemplate))
			e.clock.Add(time.Millisecond)
		}
		type page struct {
			Templates []templateJSON `json:"templates"`
			Next      string         `json:"next"`
		}
		first := okJSON[page](e, e.get("/v1/templates?order=newest&limit=2"), http.StatusOK)
		if len(first.Templates) != 2 || first.Templates[0].ID != ids[2] || first.Templates[1].ID != ids[1] || first.Next != ids[1] {
			t.Fatalf("first page: got %+v, want %s then %s", first, ids[2], ids[1])
		}
		second := okJSON[page](e, e.get("/v1/templates?order=newest&limit=2&after="+first.Next), http.StatusOK)
		if len(second.Templates) != 1 || second.Templates[0].ID != ids[0] {
			t.Fatalf("second page: got %+v, want %s", second, ids[0])
		}
		if oldest := okJSON[page](e, e.get("/v1/templates?order=oldest&limit=1"), http.StatusOK); oldest.Templates[0].ID != ids[0] {
			t.Fatalf("order=oldest: got %+v, want %s first", oldest, ids[0])
		}
		e.problem(e.get("/v1/templates?order=desc"), http.StatusUnprocessableEntity, "invalid")
	})
}
