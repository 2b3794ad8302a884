package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestReconcile: on every store, GET /v1/reconcile of a store in step
// finds no drift; a group timer deleted under pending coupons is drift
// that GET reports and leaves, and POST {"repair": true} puts back with
// one timer.repaired event; bad bodies are malformed, a bad Idempotency-Key
// invalid, and neither changes anything.
func TestReconcile(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		e.claim("u1", e.template(hourTemplate))
		var clean reconcileJSON
		e.ok(e.get("/v1/reconcile"), http.StatusOK, &clean)
		if clean.CheckedAt != formatTime(t0) || len(clean.Drift) != 0 || len(clean.Counts) != len(store.Checks) {
			t.Fatalf("clean store: got %+v, want no drift, checked at %s, a count per check", clean, formatTime(t0))
		}
		dropTimers(t, e.store)
		var found reconcileJSON
		e.ok(e.get("/v1/reconcile"), http.StatusOK, &found)
		if len(found.Drift) != 1 || found.Counts[store.CheckTimer] != 1 || found.Drift[0].Check != store.CheckTimer ||
			!found.Drift[0].Repairable || found.Drift[0].Repaired || found.Repaired != 0 {
			t.Fatalf("timer gone: got %+v, want one repairable timer drift, not repaired", found)
		}
		before := e.get("/v1/events?limit=1000").body
		e.problem(e.post("/v1/reconcile", `{"repair": "yes"}`), http.StatusBadRequest, "malformed")
		e.problem(e.post("/v1/reconcile", `{"fix": true}`), http.StatusBadRequest, "malformed")
		e.problem(e.post("/v1/reconcile", `[]`), http.StatusBadRequest, "malformed")
		e.problem(e.post("/v1/reconcile", `{"repair": true}`, "Idempotency-Key", strings.Repeat("k", 129)), http.StatusUnprocessableEntity, "invalid")
		if after := e.get("/v1/events?limit=1000").body; string(after) != string(before) {
			t.Fatalf("GET and refused POSTs wrote events:\n%s", after)
		}
		var repaired reconcileJSON
		e.ok(e.post("/v1/reconcile", `{"repair": true}`), http.StatusOK, &repaired)
		if len(repaired.Drift) != 1 || !repaired.Drift[0].Repaired || repaired.Repaired != 1 {
			t.Fatalf("repair: got %+v, want the timer drift repaired", repaired)
		}
		if evs := e.eventsOfType(store.EventTimerRepaired); len(evs) != 1 || evs[0].Subject != found.Drift[0].Subject {
			t.Fatalf("events: got %+v, want one timer.repaired about %s", evs, found.Drift[0].Subject)
		}
		var after reconcileJSON
		e.ok(e.post("/v1/reconcile", ``), http.StatusOK, &after)
		if len(after.Drift) != 0 {
			t.Fatalf("after the repair: got %+v, want no drift", after)
		}
	})
}

// dropTimers deletes every expiry timer of st, through its driver, past
// the service's rules.
func dropTimers(t *testing.T, st store.Store) {
	t.Helper()
	tx, err := st.(*store.DB).Driver().Begin(t.Context(), false)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer tx.Rollback()
	if err := tx.DeleteTimers(t.Context(), driver.DeleteTimersParams{Kind: storetype.TimerExpire, Through: t0.AddDate(10, 0, 0)}); err != nil {
		t.Fatalf("delete timers: %v", err)
	}
	if _, err := tx.Commit(t.Context(), nil); err != nil {
		t.Fatalf("commit: %v", err)
	}
}
