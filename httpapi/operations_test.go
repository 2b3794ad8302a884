package httpapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// work works every operation the store holds to its end, as the engine
// would.
func (e *env) work() {
	e.t.Helper()
	for {
		op, ok, err := e.store.ClaimOperation(e.t.Context(), store.ClaimOperationParams{Holder: "test", TTL: time.Minute, Now: e.clock.Now()})
		if err != nil {
			e.t.Fatal(err)
		}
		if !ok {
			return
		}
		for op.State == storetype.OperationRunning {
			if op, err = e.store.WorkOperation(e.t.Context(), store.WorkOperationParams{ID: op.ID, Holder: "test", TTL: time.Minute, Now: e.clock.Now(), Limit: 2}); err != nil {
				e.t.Fatal(err)
			}
		}
	}
}

// operation reads an operation through the API.
func (e *env) operation(id string) operationJSON {
	e.t.Helper()
	return okJSON[operationJSON](e, e.get("/v1/operations/"+id), http.StatusOK)
}

// TestOperations: on every store, a dry run counts and changes nothing;
// a bulk void answers 202 with a running operation, the same one again
// under its key; worked, it voids the unused coupons and leaves the
// locked one to be voided when its lock ends; an extension moves what a
// read sees; bad input is refused and changes nothing.
func TestOperations(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		c1, c2, c3 := e.claim("u1", tpl), e.claim("u2", tpl), e.claim("u3", tpl)
		if res := e.post("/v1/coupons/"+c3.ID+"/lock", `{"order_id": "o1", "ttl": "15m"}`); res.status != http.StatusOK {
			t.Fatalf("lock: %d %s", res.status, res.body)
		}

		var dry dryRunJSON
		e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked", "dry_run": true}`), http.StatusOK, &dry)
		if !dry.DryRun || dry.Total != 3 || dry.Counts.Unused != 2 || dry.Counts.Locked != 1 {
			t.Fatalf("dry run: got %+v, want 2 unused and 1 locked of 3", dry)
		}
		if got, _ := e.coupon(c1.ID); got.Status != "unused" {
			t.Fatalf("after the dry run: %s", got.Status)
		}

		key := []string{"Idempotency-Key", "void-1"}
		var op operationJSON
		e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked"}`, key...), http.StatusAccepted, &op)
		if op.State != storetype.OperationRunning || op.Kind != "void" || op.Target.TemplateID != tpl || op.Progress.Total != 3 || op.Reason == nil || *op.Reason != "leaked" {
			t.Fatalf("started: got %+v", op)
		}
		var again operationJSON
		e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked"}`, key...), http.StatusAccepted, &again)
		if again.ID != op.ID {
			t.Fatalf("the same request again: operation %s, want %s", again.ID, op.ID)
		}
		e.work()
		done := e.operation(op.ID)
		if done.State != storetype.OperationDone || done.Progress.Done != 3 || done.Counts.Voided != 2 || done.Counts.PendingLocked != 1 || done.FinishedAt == nil {
			t.Fatalf("done: got %+v", done)
		}
		for id, want := range map[string]string{c1.ID: "voided", c2.ID: "voided", c3.ID: "locked"} {
			if got, _ := e.coupon(id); got.Status != want {
				t.Fatalf("coupon %s: got %s, want %s", id, got.Status, want)
			}
		}
		e.ok(e.post("/v1/coupons/"+c3.ID+"/unlock", `{"order_id": "o1"}`), http.StatusOK, &c3)
		if c3.Status != "voided" {
			t.Fatalf("unlocked after the void: got %s, want voided", c3.Status)
		}

		// Extend a list by an hour: a read past the old expires_at sees
		// it unused.
		c4 := e.claim("u4", tpl)
		e.ok(e.post("/v1/operations", `{"kind": "extend", "coupon_ids": ["`+c4.ID+`"], "by": "1h"}`), http.StatusAccepted, &op)
		e.work()
		e.clock.Add(90 * time.Minute)
		if got, _ := e.coupon(c4.ID); got.Status != "unused" || got.ExpiresAt != ms(t0.Add(2*time.Hour)) {
			t.Fatalf("extended: got %s until %s, want unused until %s", got.Status, got.ExpiresAt, ms(t0.Add(2*time.Hour)))
		}

		// Void what a list of users holds: a dry run counts it, then
		// the void takes it.
		c5 := e.claim("u5", tpl)
		e.ok(e.post("/v1/operations", `{"kind": "void", "user_ids": ["u5", "nobody"], "dry_run": true}`), http.StatusOK, &dry)
		if dry.Total != 1 || dry.Counts.Unused != 1 {
			t.Fatalf("dry run of u5 and nobody: got %+v, want the one unused coupon", dry)
		}
		e.ok(e.post("/v1/operations", `{"kind": "void", "user_ids": ["u5", "nobody"]}`), http.StatusAccepted, &op)
		if op.Progress.Total != 2 {
			t.Fatalf("void of two users: progress %+v, want a total of 2 users", op.Progress)
		}
		e.work()
		if got, _ := e.coupon(c5.ID); got.Status != "voided" {
			t.Fatalf("u5's coupon after the void of u5: got %s, want voided", got.Status)
		}

		for _, tc := range []struct {
			path, body string
			status     int
			slug       string
		}{
			{"/v1/templates/" + tpl + "/extend", `{"expires_at": "2020-01-01T00:00:00Z"}`, 422, "invalid"},
			{"/v1/templates/" + tpl + "/extend", `{"expires_at": "2099-01-01T00:00:00Z", "by": "1h"}`, 422, "invalid"},
			{"/v1/templates/" + tpl + "/extend", `{}`, 422, "invalid"},
			{"/v1/templates/" + tpl + "/extend", `{"by": "-1h"}`, 422, "invalid"},
			{"/v1/templates/" + tpl + "/extend", `{"by": 5}`, 400, "malformed"},
			{"/v1/templates/" + tpl + "/void", `{"by": "1h"}`, 422, "invalid"},
			{"/v1/templates/" + tpl + "/void", `{"kind": "void"}`, 400, "malformed"},
			{"/v1/templates/" + tpl + "/void", `[]`, 400, "malformed"},
			{"/v1/templates/tpl_none/void", `{}`, 404, "not-found"},
			{"/v1/templates/tpl_none/void", `{"dry_run": true}`, 404, "not-found"},
			{"/v1/operations", `{"kind": "burn", "template_id": "` + tpl + `"}`, 422, "invalid"},
			{"/v1/operations", `{"kind": "void"}`, 422, "invalid"},
			{"/v1/operations", `{"kind": "void", "coupon_ids": [" c"]}`, 422, "invalid"},
			{"/v1/operations", `{"kind": "void", "user_ids": ["u1", "u\u0000"]}`, 422, "invalid"},
			{"/v1/operations", `{"kind": "void", "coupon_ids": ["c"], "user_ids": ["u1"]}`, 422, "invalid"},
		} {
			e.problem(e.post(tc.path, tc.body), tc.status, tc.slug)
		}
		e.problem(e.get("/v1/operations/op_none"), 404, "not-found")
		if _, ok, err := e.store.ClaimOperation(t.Context(), store.ClaimOperationParams{Holder: "test", TTL: time.Minute, Now: e.clock.Now()}); ok || err != nil {
			t.Fatalf("a refused request started an operation: %v, %v", ok, err)
		}
	})
}

// TestOperationsWhileClaiming: on every store, a template void accepted
// while claims go on works the coupons claimed before it was accepted and
// no later one, its progress within its total throughout; an extension
// accepted 800 ms before coupons expire and worked after says it missed
// them, and they read expired.
func TestOperationsWhileClaiming(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		before := []couponJSON{e.claim("u1", tpl), e.claim("u2", tpl), e.claim("u3", tpl)}
		e.clock.Add(time.Second)
		var op operationJSON
		e.ok(e.post("/v1/templates/"+tpl+"/void", `{"reason": "leaked"}`), http.StatusAccepted, &op)
		var after []couponJSON
		for i := range 3 {
			e.clock.Add(time.Second)
			after = append(after, e.claim("u4", tpl), e.claim("u5", tpl))
			held, ok, err := e.store.ClaimOperation(t.Context(), store.ClaimOperationParams{Holder: "test", TTL: time.Minute, Now: e.clock.Now()})
			if err != nil || (!ok && i == 0) {
				t.Fatalf("claim the operation: %v, %v", ok, err)
			}
			if ok {
				if _, err := e.store.WorkOperation(t.Context(), store.WorkOperationParams{ID: held.ID, Holder: "test", TTL: time.Minute, Now: e.clock.Now(), Limit: 2}); err != nil {
					t.Fatal(err)
				}
			}
			if got := e.operation(op.ID); got.Progress.Done > got.Progress.Total {
				t.Fatalf("after batch %d: progress %+v", i, got.Progress)
			}
		}
		done := e.operation(op.ID)
		if done.State != storetype.OperationDone || done.Progress != (progressJSON{Done: 3, Total: 3}) || done.Counts.Voided != 3 {
			t.Fatalf("void: got %s, progress %+v, counts %+v; want done, 3 of 3, 3 voided", done.State, done.Progress, done.Counts)
		}
		for _, c := range before {
			if got, _ := e.coupon(c.ID); got.Status != "voided" {
				t.Fatalf("coupon %s claimed before the void: got %s, want voided", c.ID, got.Status)
			}
		}
		for _, c := range after {
			if got, _ := e.coupon(c.ID); got.Status != "unused" {
				t.Fatalf("coupon %s claimed after the void: got %s, want unused", c.ID, got.Status)
			}
		}

		// The coupons of u4 and u5 expire an hour after their claims;
		// an extension accepted 800 ms before the last of them.
		last := after[len(after)-1]
		expires, err := time.Parse(time.RFC3339Nano, last.ExpiresAt)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Set(expires.Add(-800 * time.Millisecond))
		e.ok(e.post("/v1/templates/"+tpl+"/extend", `{"by": "1h"}`), http.StatusAccepted, &op)
		e.clock.Add(time.Second)
		e.work()
		done = e.operation(op.ID)
		if done.Counts.Missed != 2 || done.Counts.Extended != 0 || done.Counts.Skipped["expired"] != 4 || done.Counts.Skipped["voided"] != 3 {
			t.Fatalf("extension: counts %+v, want the 2 coupons expired since its acceptance missed, 4 skipped expired and 3 voided", done.Counts)
		}
		if got, _ := e.coupon(last.ID); got.Status != "expired" || got.ExpiresAt != last.ExpiresAt {
			t.Fatalf("coupon %s: %s until %s, want expired as it was", last.ID, got.Status, got.ExpiresAt)
		}
	})
}
