package clientsuite_test

import (
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/store"
)

// TestOperatorRoutes calls each method of the client for the operator's
// routes (bulk operations, the filtered feed, archive, reconcile, the
// console) against a real server and checks what it decoded and what the
// calls changed.
func TestOperatorRoutes(t *testing.T) { onEach(t, testOperatorRoutes) }

func testOperatorRoutes(t *testing.T, st store.Store) {
	ctx := t.Context()
	c := serve(t, st, nil)
	work(t, st)
	tpl := clienttest.Must(c.CreateTemplate(ctx, hourTemplate)).On(t)
	var cs []client.Coupon
	for _, u := range []string{"u1", "u2", "u3"} {
		cs = append(cs, clienttest.Must(c.Claim(ctx, u, client.ClaimParams{TemplateID: tpl.ID})).On(t))
	}
	lock := clienttest.Must(c.Lock(ctx, cs[2].ID, client.LockParams{OrderID: "o1", TTL: client.Duration(15 * time.Minute)})).On(t)

	f := clienttest.Must(c.Forecast(ctx, client.ForecastQuery{})).On(t)
	want := []client.Due{
		{Kind: "coupon.expire", At: cs[0].ExpiresAt.Truncate(time.Minute), Count: 2},
		{Kind: "coupon.release", At: lock.LockedUntil.Truncate(time.Minute), Count: 1},
	}
	for i := range want {
		want[i].Minute = int64(want[i].At.Sub(f.From) / time.Minute)
	}
	if f.Minutes != 24*60 || !slices.EqualFunc(f.Due, want, func(a, b client.Due) bool {
		return a.Kind == b.Kind && a.At.Equal(b.At) && a.Minute == b.Minute && a.Count == b.Count
	}) {
		t.Fatalf("forecast: got %+v, want %+v", f, want)
	}
	if short := clienttest.Must(c.Forecast(ctx, client.ForecastQuery{Minutes: 5})).On(t); short.Minutes != 5 || len(short.Due) != 0 {
		t.Fatalf("forecast of 5 minutes: got %+v, want nothing due", short)
	}
	if s := clienttest.Must(c.Status(ctx)).On(t); s.Time.IsZero() || s.DBTime.IsZero() || s.Metrics == nil {
		t.Fatalf("status: got %+v", s)
	}

	dry := clienttest.Must(c.PreviewOperation(ctx, client.NewOperation{Kind: "void", TemplateID: tpl.ID})).On(t)
	if dry.Kind != "void" || dry.Target.TemplateID != tpl.ID || dry.Counts != (client.Counts{Unused: 2, Locked: 1}) || dry.Total != 3 {
		t.Fatalf("dry run: got %+v, want 2 unused and 1 locked", dry)
	}
	ext := clienttest.Must(c.ExtendTemplate(ctx, tpl.ID, client.Extension{By: client.Duration(2 * time.Hour)})).On(t)
	if ext.ID == "" || ext.Kind != "extend" || time.Duration(ext.By) != 2*time.Hour || ext.Target.TemplateID != tpl.ID || ext.CreatedAt.IsZero() {
		t.Fatalf("extend: got %+v", ext)
	}
	var seen int
	ext = clienttest.Must(c.WaitOperation(ctx, ext.ID, func(client.Operation) { seen++ })).On(t)
	if !ext.Done() || seen == 0 || ext.Counts.Extended != 3 || ext.Progress != (client.Progress{Done: 3, Total: 3}) || ext.FinishedAt.IsZero() {
		t.Fatalf("extend done: got %+v after %d reads", ext, seen)
	}
	if got := clienttest.Must(c.Coupon(ctx, cs[0].ID)).On(t); !got.ExpiresAt.Equal(cs[0].ExpiresAt.Add(2 * time.Hour)) {
		t.Fatalf("extended coupon: expires %s, want %s", got.ExpiresAt, cs[0].ExpiresAt.Add(2*time.Hour))
	}

	one := clienttest.Must(c.StartOperation(ctx, client.NewOperation{Kind: "void", CouponIDs: []string{cs[0].ID}, Reason: "fraud"})).On(t)
	one = clienttest.Must(c.WaitOperation(ctx, one.ID, nil)).On(t)
	if one.Reason != "fraud" || !slices.Equal(one.Target.CouponIDs, []string{cs[0].ID}) || one.Counts.Voided != 1 {
		t.Fatalf("void of one coupon: got %+v", one)
	}
	all := clienttest.Must(c.VoidTemplate(ctx, tpl.ID, client.VoidTemplateParams{Reason: "leaked"})).On(t)
	all = clienttest.Must(c.WaitOperation(ctx, all.ID, nil)).On(t)
	if all.Kind != "void" || all.Reason != "leaked" || all.Counts.Voided != 1 || all.Counts.PendingLocked != 1 || all.Counts.Skipped["voided"] != 1 {
		t.Fatalf("void of the template: got %+v, want 1 voided, 1 pending locked, 1 skipped voided", all)
	}
	if got := clienttest.Must(c.Operation(ctx, all.ID)).On(t); got.ID != all.ID || got.State != "done" {
		t.Fatalf("operation: got %+v", got)
	}

	voided := clienttest.Must(c.Events(ctx, client.EventQuery{Type: "coupon.voided", Limit: 100})).On(t).Events
	if len(voided) != 2 || voided[0].Subject != cs[0].ID || voided[1].Subject != cs[1].ID {
		t.Fatalf("coupon.voided events: got %+v, want of %s and %s", voided, cs[0].ID, cs[1].ID)
	}
	var types []string
	for e, err := range c.Feed(ctx, client.EventQuery{Subject: cs[0].ID, Limit: 1}) {
		if err != nil {
			t.Fatalf("feed of one coupon: %v", err)
		}
		if e.Subject != cs[0].ID {
			t.Fatalf("feed of %s: got an event of %s", cs[0].ID, e.Subject)
		}
		types = append(types, e.Type)
	}
	if !slices.Equal(types, []string{"coupon.claimed", "coupon.extended", "coupon.voided"}) {
		t.Fatalf("feed of %s a page of one at a time: got %v", cs[0].ID, types)
	}

	before := now()
	time.Sleep(time.Millisecond) // before is in the past on the server's clock
	if a := clienttest.Must(c.Archive(ctx, client.ArchiveRun{Before: before, DryRun: true})).On(t); !a.DryRun || a.Coupons != 2 || !a.Before.Equal(before) {
		t.Fatalf("archive dry run: got %+v, want the 2 voided coupons", a)
	}
	if a := clienttest.Must(c.Archive(ctx, client.ArchiveRun{Before: before})).On(t); a.DryRun || a.Coupons != 2 || a.Orders != 0 {
		t.Fatalf("archive: got %+v, want the 2 voided coupons moved", a)
	}
	if w := clienttest.All(t, c.Wallet(ctx, "u1", client.WalletQuery{})); len(w) != 0 {
		t.Fatalf("wallet of u1 after the archive: got %+v, want none", w)
	}
	if w := clienttest.All(t, c.Wallet(ctx, "u1", client.WalletQuery{Status: "voided", Archived: true})); len(w) != 1 || w[0].ID != cs[0].ID || w[0].Status != "voided" {
		t.Fatalf("wallet of u1 with archived: got %+v, want %s voided", w, cs[0].ID)
	}

	rec := clienttest.Must(c.Reconcile(ctx)).On(t)
	if rec.CheckedAt.IsZero() || len(rec.Drift) != 0 || rec.Repaired != 0 || rec.Counts == nil {
		t.Fatalf("reconcile: got %+v, want no drift", rec)
	}
	if rep := clienttest.Must(c.Repair(ctx)).On(t); len(rep.Drift) != 0 || rep.Repaired != 0 {
		t.Fatalf("repair: got %+v, want nothing repaired", rep)
	}
}
