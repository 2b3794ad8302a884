package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// TestConsoleWorkbench walks the console's find, act and watch paths in a
// real chromium against a real lapse on each store, and checks what the
// page shows against the API: a reconciliation finds the timers deleted
// under a template's coupons and repairs them once confirmed
// (reconcileInBrowser).
func TestConsoleWorkbench(t *testing.T) { onEach(t, testConsoleWorkbench) }

func testConsoleWorkbench(t *testing.T, be backend) {
	db := be.store(t)
	s := start(t, db)
	ctx := t.Context()
	wallet := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "wallet", Value: 100,
		Validity: client.Validity{Duration: client.Duration(720 * time.Hour)}})).On(t)
	clienttest.Must(s.api.Claim(ctx, "w", client.ClaimParams{TemplateID: wallet.ID})).On(t)

	page := browse(t, s.base+"/")
	if _, err := be.raw(t, db).Exec("DELETE FROM timers"); err != nil {
		t.Fatalf("delete the timers: %v", err)
	}
	reconcileInBrowser(t, page, s)
}

// click clicks the element sel finds, again if a redraw of the table it
// is in replaced it first (the console redraws its tables as it polls).
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	for try := 1; ; try++ {
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
		if err == nil {
			return
		}
		if try == 5 {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
}

// confirmInBrowser waits for the confirmation, checks that it starts
// with want, and confirms it.
func confirmInBrowser(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	got := shown(t, ctx, "the confirmation", `document.getElementById('confirm').hidden ? '' : document.getElementById('confirm-text').textContent`,
		func(s string) bool { return s != "" })
	if !strings.HasPrefix(got, want) {
		t.Fatalf("confirmation: got %q, want it to start %q", got, want)
	}
	click(t, ctx, "#confirm-yes")
}

// driftShown is the drift the page shows, a line a drift: its check,
// subject and whether it is repaired.
const driftShown = `[...document.querySelectorAll('#drift tr')].map((tr) => tr.dataset.check + ' ' + tr.dataset.subject + ' ' + tr.dataset.repaired).join('\n')`

// driftLines is rec's drift as driftShown shows it.
func driftLines(rec client.Reconciliation) string {
	var lines []string
	for _, d := range rec.Drift {
		lines = append(lines, fmt.Sprintf("%s %s %t", d.Check, d.Subject, d.Repaired))
	}
	return strings.Join(lines, "\n")
}

// reconcileInBrowser checks the store from the console, which shows the
// drift the API reads, some of it; confirms a repair, after which the
// page shows it repaired and the API finds none, and the feed holds a
// timer.repaired event a repair.
func reconcileInBrowser(t *testing.T, ctx context.Context, s *server) {
	t.Helper()
	found := clienttest.Must(s.api.Reconcile(t.Context())).On(t)
	if len(found.Drift) == 0 {
		t.Fatalf("reconciliation: no drift found, want the deleted timers")
	}
	click(t, ctx, "#reconcile-check")
	if got, want := shown(t, ctx, "the drift", driftShown, func(s string) bool { return s != "" }), driftLines(found); got != want {
		t.Fatalf("drift: the page shows\n%s\nthe API reads\n%s", got, want)
	}
	click(t, ctx, "#reconcile-repair")
	confirmInBrowser(t, ctx, fmt.Sprintf("repair %d of the %d drifts", len(found.Drift), len(found.Drift)))
	repaired := shown(t, ctx, "the drift repaired", driftShown, func(s string) bool { return strings.HasSuffix(s, " true") })
	if want := strings.ReplaceAll(driftLines(found), " false", " true"); repaired != want {
		t.Fatalf("repaired: the page shows\n%s\nwant\n%s", repaired, want)
	}
	screenshot(t, ctx, "reconcile.png", "#reconcile-box")
	if after := clienttest.Must(s.api.Reconcile(t.Context())).On(t); len(after.Drift) != 0 {
		t.Fatalf("after the repair the API finds %+v, want no drift", after.Drift)
	}
	if evs := s.feed(t, "timer.repaired"); len(evs) != len(found.Drift) {
		t.Fatalf("timer.repaired events: got %d, want %d", len(evs), len(found.Drift))
	}
}
