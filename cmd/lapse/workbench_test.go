package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// TestConsoleWorkbench walks the console's find, act and watch paths in a
// real chromium against a real lapse on each store, and checks what the
// page shows against the API. Find: a user's wallet a page at a time
// (walletInBrowser), a coupon's history (findInBrowser), an order with
// its items, coupons and history (orderInBrowser), a template with its
// counts by state and its operations (templateInBrowser). Act, each
// behind a confirmation that says what the API reads: an extension of a
// template's coupons, from its row, shows its dry run's counts and is
// watched to its end (operateInBrowser); a template is closed
// (closeInBrowser); a running void is cancelled (cancelInBrowser); a
// reconciliation finds the timers deleted under the coupons and repairs
// them (reconcileInBrowser). Watch: the feed filtered by the cancelled
// void shows its events as the API, the cancel by the operator whose
// token the page was given (eventsInBrowser); the page holds no cookie.
func TestConsoleWorkbench(t *testing.T) { onEach(t, testConsoleWorkbench) }

func testConsoleWorkbench(t *testing.T, be backend) {
	db := be.store(t)
	// The test's calls under one token, the operator's in the page under
	// another: what the page does is the operator's in the feed.
	const all = "admin,events,wallet,orders"
	run(t, "migrate", "--store", db) // lapse tokens makes no store (SQLite's file)
	setup := lapseTokens(t, db, "create", "--name", "setup", "--scopes", all)
	operator := lapseTokens(t, db, "create", "--name", "operator", "--scopes", all)
	// Batches of 10 resting 49 times as long as each took: a void of
	// 3,000 coupons runs for many seconds, long enough to be cancelled.
	s := start(t, db, "--operation-batch", "10", "--operation-share", "0.02")
	s.api = clienttest.New(t, s.base, client.WithToken(setup))
	ctx := t.Context()
	wallet := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "wallet", Value: 100,
		Validity: client.Validity{Duration: client.Duration(720 * time.Hour)}})).On(t)
	var held []client.Coupon
	for range 60 {
		held = append(held, clienttest.Must(s.api.Claim(ctx, "w", client.ClaimParams{TemplateID: wallet.ID})).On(t))
	}
	for _, sku := range []string{"sku-a", "sku-b"} {
		clienttest.Must(s.api.PutSKU(ctx, sku, client.Stock{Stock: 10})).On(t)
	}
	ord := clienttest.Must(s.api.CreateOrder(ctx, client.NewOrder{UserID: "w", CouponIDs: []string{held[0].ID},
		Items: []client.Item{{SKU: "sku-a", Qty: 2, UnitPrice: 250}, {SKU: "sku-b", Qty: 1, UnitPrice: 400}}})).On(t)

	page := browse(t, s.base+"/")
	fill(t, page, map[string]string{"token": operator})
	click(t, page, "#auth button")
	walletInBrowser(t, page, s, "w")
	findInBrowser(t, page, s, held[0].ID, "coupon.claimed coupon.locked")
	orderInBrowser(t, page, s, ord.ID)

	click(t, page, "#extend-"+wallet.ID)
	if got := evaluate(t, page, `document.getElementById('act-kind').value + ' ' + document.getElementById('act-ids').value`); got != "extend "+wallet.ID {
		t.Fatalf("the template's Extend… button filled the act form with %q", got)
	}
	ext := operateInBrowser(t, page, s, client.NewOperation{Kind: "extend", TemplateID: wallet.ID, By: client.Duration(24 * time.Hour)})
	if ext.Counts.Extended != int64(len(held)) || ext.Actor != "operator" {
		t.Fatalf("the extension: %d extended by %q, want %d by the operator", ext.Counts.Extended, ext.Actor, len(held))
	}
	if c := clienttest.Must(s.api.Coupon(ctx, held[1].ID)).On(t); !c.ExpiresAt.Equal(held[1].ExpiresAt.Add(24 * time.Hour)) {
		t.Fatalf("coupon %s expires at %s after the extension, want %s", c.ID, c.ExpiresAt, held[1].ExpiresAt.Add(24*time.Hour))
	}
	screenshot(t, page, "extend.png", "#operations-box")
	templateInBrowser(t, page, s, wallet.ID)
	closeInBrowser(t, page, s, wallet.ID)

	big := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "big", Value: 100,
		Validity: client.Validity{Duration: client.Duration(720 * time.Hour)}})).On(t)
	s.issue(t, big.ID, 3000)
	void := clienttest.Must(s.api.VoidTemplate(ctx, big.ID, client.VoidTemplateParams{Reason: "leaked"})).On(t)
	cancelInBrowser(t, page, s, void.ID)
	eventsInBrowser(t, page, s, void.ID)
	if cookies := evaluate(t, page, `document.cookie`); cookies != "" {
		t.Fatalf("the page holds cookies %q, want none: the token is its only credential", cookies)
	}

	if _, err := be.raw(t, db).Exec("DELETE FROM timers"); err != nil {
		t.Fatalf("delete the timers: %v", err)
	}
	reconcileInBrowser(t, page, s)
}

// click clicks the element sel finds, once it is there. The click is the
// element's own click(), not the mouse's: a mouse click lands where the
// element was found, and the console redraws its tables as it polls, so
// under load a redraw between finding and clicking made it miss.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	q, err := json.Marshal(sel)
	if err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
	shown(t, ctx, sel+" clicked", `(() => { const el = document.querySelector(`+string(q)+`); if (!el) return ''; el.click(); return 'yes'; })()`,
		func(s string) bool { return s == "yes" })
}

// confirmation waits for the confirmation and checks that it starts
// with want.
func confirmation(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	got := shown(t, ctx, "the confirmation", `document.getElementById('confirm').hidden ? '' : document.getElementById('confirm-text').textContent`,
		func(s string) bool { return s != "" })
	if !strings.HasPrefix(got, want) {
		t.Fatalf("confirmation: got %q, want it to start %q", got, want)
	}
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
	confirmation(t, ctx, fmt.Sprintf("repair %d of the %d drifts", len(found.Drift), len(found.Drift)))
	click(t, ctx, "#confirm-yes")
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

// find finds id with the console's Find and waits until the page shows
// it.
func find(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	fill(t, ctx, map[string]string{"find-id": id})
	click(t, ctx, "#find button")
	shown(t, ctx, id+" found", foundJS("id"), func(s string) bool { return s == id })
}

// foundJS is JavaScript for the field of what Find shows, as text.
func foundJS(field string) string {
	return `(document.querySelector('#found dd[data-field="` + field + `"]') || {}).textContent || ''`
}

// foundField is the field of what Find shows, as text.
func foundField(t *testing.T, ctx context.Context, field string) string {
	t.Helper()
	return evaluate(t, ctx, foundJS(field))
}

// evaluate evaluates the JavaScript expression js, a string, in the page.
func evaluate(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return got
}

// cellsText is a table row as rowsShown shows it: its cells' text.
const cellsText = `[...tr.cells].map((td) => td.textContent).join(' ')`

// rowsShown returns the rows of the table sel finds, a line each, as the
// JavaScript expression row makes them of tr.
func rowsShown(t *testing.T, ctx context.Context, sel, row string) string {
	t.Helper()
	return evaluate(t, ctx, `[...document.querySelectorAll('`+sel+` tbody tr')].map((tr) => `+row+`).join('\n')`)
}

// checkHistory checks the history Find shows against subject's events in
// the feed, oldest first, and returns their types.
func checkHistory(t *testing.T, ctx context.Context, s *server, subject string) string {
	t.Helper()
	page := clienttest.Must(s.api.Events(t.Context(), client.EventQuery{Subject: subject, Before: client.Latest, Limit: 1000})).On(t)
	var want, types []string
	for _, e := range page.Events {
		want = append(want, e.ID+" "+e.Type)
		types = append(types, e.Type)
	}
	if got := rowsShown(t, ctx, "#found-history", `tr.cells[0].textContent + ' ' + tr.dataset.type`); got != strings.Join(want, "\n") {
		t.Fatalf("history of %s: the page shows\n%s\nthe feed holds\n%s", subject, got, strings.Join(want, "\n"))
	}
	return strings.Join(types, " ")
}

// shownTime is t as the console shows it.
func shownTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000") }

// couponLine is c as the console's tables of coupons show it.
func couponLine(c client.Coupon) string {
	return strings.Join([]string{c.ID, c.Status, shownTime(c.ExpiresAt), c.TemplateID}, " ")
}

// walletInBrowser finds user in the console, whose wallet holds more than
// a page: the page shows the first 50 coupons and More, then all of them,
// as the API lists them.
func walletInBrowser(t *testing.T, ctx context.Context, s *server, user string) {
	t.Helper()
	var want []string
	for c, err := range s.api.Wallet(t.Context(), user, client.WalletQuery{}) {
		if err != nil {
			t.Fatalf("wallet: %v", err)
		}
		want = append(want, couponLine(c))
	}
	if len(want) <= 50 {
		t.Fatalf("wallet of %s: %d coupons, want more than a page of 50", user, len(want))
	}
	find(t, ctx, user)
	if got := rowsShown(t, ctx, "#found-wallet", cellsText); got != strings.Join(want[:50], "\n") || evaluate(t, ctx, `String(document.getElementById('found-more').hidden)`) != "false" {
		t.Fatalf("wallet's first page: the page shows\n%s\nwant\n%s\nand More", got, strings.Join(want[:50], "\n"))
	}
	click(t, ctx, "#found-more")
	got := shown(t, ctx, "the wallet's second page", `document.getElementById('found-more').hidden ? `+
		`[...document.querySelectorAll('#found-wallet tbody tr')].map((tr) => `+cellsText+`).join('\n') : ''`,
		func(s string) bool { return s != "" })
	if got != strings.Join(want, "\n") {
		t.Fatalf("wallet: the page shows\n%s\nthe API lists\n%s", got, strings.Join(want, "\n"))
	}
	screenshot(t, ctx, "wallet.png", "#find-box")
}

// orderInBrowser finds order id in the console: the page shows its items,
// its coupons and its history as the API reads them, and the link of its
// coupon finds it.
func orderInBrowser(t *testing.T, ctx context.Context, s *server, id string) {
	t.Helper()
	o := clienttest.Must(s.api.Order(t.Context(), id)).On(t)
	find(t, ctx, id)
	if got := foundField(t, ctx, "status"); got != o.Status {
		t.Fatalf("order %s: the page shows it %s, the API reads it %s", id, got, o.Status)
	}
	var items, coupons []string
	for _, it := range o.Items {
		items = append(items, fmt.Sprintf("%s %d %d %d", it.SKU, it.Qty, it.UnitPrice, it.Qty*it.UnitPrice))
	}
	for _, c := range o.CouponIDs {
		coupons = append(coupons, couponLine(clienttest.Must(s.api.Coupon(t.Context(), c)).On(t)))
	}
	if got := rowsShown(t, ctx, "#found-items", cellsText); got != strings.Join(items, "\n") || len(items) == 0 {
		t.Fatalf("order %s's items: the page shows\n%s\nthe API reads\n%s", id, got, strings.Join(items, "\n"))
	}
	if got := rowsShown(t, ctx, "#found-coupons", cellsText); got != strings.Join(coupons, "\n") || len(coupons) == 0 {
		t.Fatalf("order %s's coupons: the page shows\n%s\nthe API reads\n%s", id, got, strings.Join(coupons, "\n"))
	}
	if types := checkHistory(t, ctx, s, id); !strings.HasPrefix(types, "order.created") {
		t.Fatalf("history of %s: %q, want it to start with its creation", id, types)
	}
	screenshot(t, ctx, "order.png", "#find-box")
	click(t, ctx, "#found-coupons a")
	shown(t, ctx, "the order's coupon found from its link", foundJS("id"), func(s string) bool { return s == o.CouponIDs[0] })
}

// templateInBrowser finds template id in the console: the page shows its
// counts by state, its storm (some of its coupons fall due within 24 h)
// and its operations as the API reads them.
func templateInBrowser(t *testing.T, ctx context.Context, s *server, id string) {
	t.Helper()
	tpl := clienttest.Must(s.api.Template(t.Context(), id)).On(t)
	storm := clienttest.Must(s.api.Forecast(t.Context(), client.ForecastQuery{Template: id})).On(t)
	find(t, ctx, id)
	c := tpl.Counts
	want := fmt.Sprintf("%d %d %d %d %d", c.Unused, c.Locked, c.Used, c.Expired, c.Voided)
	if got := rowsShown(t, ctx, "#found-counts", cellsText); got != want {
		t.Fatalf("template %s's counts: the page shows %q, the API reads %q", id, got, want)
	}
	slices.SortFunc(storm.Due, func(a, b client.Due) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Minute, b.Minute))
	})
	var due []string
	for _, d := range storm.Due[:min(10, len(storm.Due))] {
		due = append(due, fmt.Sprintf("%s %s %d", d.At.UTC().Format("2006-01-02 15:04"), d.Kind, d.Count))
	}
	if got := rowsShown(t, ctx, "#found-storm", cellsText); got != strings.Join(due, "\n") || len(due) == 0 {
		t.Fatalf("template %s's storm: the page shows\n%s\nthe API forecasts\n%s", id, got, strings.Join(due, "\n"))
	}
	var ops []string
	for _, op := range clienttest.Must(s.api.OperationPage(t.Context(), client.OperationQuery{Limit: 100})).On(t).Operations {
		if op.Target.TemplateID == id {
			ops = append(ops, op.ID+" "+op.Kind+" "+op.State)
		}
	}
	if got := rowsShown(t, ctx, "#found-operations", `[0, 1, 2].map((i) => tr.cells[i].textContent).join(' ')`); got != strings.Join(ops, "\n") {
		t.Fatalf("template %s's operations: the page shows\n%s\nthe API lists\n%s", id, got, strings.Join(ops, "\n"))
	}
	screenshot(t, ctx, "template.png", "#find-box")
}

// fill sets the value of each input or select named by its ID, empty or
// not (chromedp's SetValue sets no empty value).
func fill(t *testing.T, ctx context.Context, values map[string]string) {
	t.Helper()
	js, err := json.Marshal(values)
	if err != nil {
		t.Fatalf("fill %v: %v", values, err)
	}
	evaluate(t, ctx, `(Object.entries(`+string(js)+`).forEach(([id, v]) => { document.getElementById(id).value = v; }), '')`)
}

// operations is how many operations the API lists, up to 100.
func operations(t *testing.T, s *server) int {
	t.Helper()
	return len(clienttest.Must(s.api.OperationPage(t.Context(), client.OperationQuery{Limit: 100})).On(t).Operations)
}

// operateInBrowser runs op, a bulk void or extension of a template's
// coupons, from the console's act form: the confirmation shows the dry
// run's counts, the API's, and nothing starts until it is confirmed; the
// operations table then shows its progress to its end as the API reads
// it, which operateInBrowser returns.
func operateInBrowser(t *testing.T, ctx context.Context, s *server, op client.NewOperation) client.Operation {
	t.Helper()
	dry := clienttest.Must(s.api.PreviewOperation(t.Context(), op)).On(t)
	before := operations(t, s)
	by := ""
	if op.By != 0 {
		by = time.Duration(op.By).String()
	}
	fill(t, ctx, map[string]string{"act-kind": op.Kind, "act-target": "template_id", "act-ids": op.TemplateID, "act-reason": op.Reason, "act-by": by})
	click(t, ctx, "#act-dry")
	c := dry.Counts
	confirmation(t, ctx, fmt.Sprintf("%s %d coupons (%d unused, %d locked, %d used, %d expired, %d voided):",
		op.Kind, dry.Total, c.Unused, c.Locked, c.Used, c.Expired, c.Voided))
	if dry.Total == 0 {
		t.Fatalf("the API's dry run of %+v: no coupons", op)
	}
	if n := operations(t, s); n != before {
		t.Fatalf("before the confirmation: %d operations, want %d", n, before)
	}
	click(t, ctx, "#confirm-yes")
	said := shown(t, ctx, "the operation started", `document.getElementById('said').textContent`,
		func(s string) bool { return strings.HasPrefix(s, "operation op_") })
	id := strings.Fields(said)[1]
	progress := shown(t, ctx, "the operation's progress to its end",
		`(() => { const tr = document.querySelector('#operations tr[data-operation="`+id+`"]'); if (!tr) return '';
		   const p = tr.querySelector('.progress'); return [tr.dataset.state, p.dataset.done, p.dataset.total, tr.querySelector('.voided').textContent, tr.querySelector('.extended').textContent, tr.querySelector('.actor').textContent].join(' '); })()`,
		func(s string) bool { return strings.HasPrefix(s, "done ") })
	got := clienttest.Must(s.api.Operation(t.Context(), id)).On(t)
	actor := got.Actor
	if actor == "" {
		actor = "–"
	}
	if want := fmt.Sprintf("done %d %d %d %d %s", got.Progress.Done, got.Progress.Total, got.Counts.Voided, got.Counts.Extended, actor); progress != want {
		t.Fatalf("the operation as the page shows it: %q; the API reads it %q", progress, want)
	}
	return got
}

// closeInBrowser closes template id from its row in the console: the
// confirmation says its counts as the API reads them, and once confirmed
// the page shows it closed, as the API reads it.
func closeInBrowser(t *testing.T, ctx context.Context, s *server, id string) {
	t.Helper()
	tpl := clienttest.Must(s.api.Template(t.Context(), id)).On(t)
	c := tpl.Counts
	click(t, ctx, "#close-"+id)
	confirmation(t, ctx, fmt.Sprintf("close %s (%s), whose coupons are %d unused, %d locked, %d used, %d expired, %d voided:",
		id, tpl.Name, c.Unused, c.Locked, c.Used, c.Expired, c.Voided))
	if !clienttest.Must(s.api.Template(t.Context(), id)).On(t).ClosedAt.IsZero() {
		t.Fatalf("template %s closed before the confirmation", id)
	}
	click(t, ctx, "#confirm-yes")
	shown(t, ctx, "the template closed", `(document.querySelector('#templates tr[data-template="`+id+`"] .state') || {}).textContent || ''`,
		func(s string) bool { return s == "closed" })
	if clienttest.Must(s.api.Template(t.Context(), id)).On(t).ClosedAt.IsZero() {
		t.Fatalf("the page shows %s closed, the API reads it open", id)
	}
	screenshot(t, ctx, "templates.png", "#templates-box")
}

// cancelInBrowser cancels running operation id from its row in the
// console: once confirmed the page shows it cancelled, part done, as the
// API reads it, in the operations table and found by its ID.
func cancelInBrowser(t *testing.T, ctx context.Context, s *server, id string) {
	t.Helper()
	shown(t, ctx, "the running operation's Cancel… button", `document.getElementById('cancel-`+id+`') ? 'yes' : ''`,
		func(s string) bool { return s == "yes" })
	click(t, ctx, "#cancel-"+id)
	confirmation(t, ctx, "cancel "+id+", the void of ")
	click(t, ctx, "#confirm-yes")
	got := shown(t, ctx, "the operation cancelled",
		`(() => { const tr = document.querySelector('#operations tr[data-operation="`+id+`"]'); if (!tr || tr.dataset.state !== 'cancelled') return '';
		   const p = tr.querySelector('.progress'); return p.dataset.done + ' ' + p.dataset.total; })()`,
		func(s string) bool { return s != "" })
	op := clienttest.Must(s.api.Operation(t.Context(), id)).On(t)
	if want := fmt.Sprintf("%d %d", op.Progress.Done, op.Progress.Total); got != want || op.State != client.OperationCancelled || op.Progress.Done >= op.Progress.Total {
		t.Fatalf("the cancelled operation: the page shows %q, the API reads %s %q, want it cancelled part done", got, op.State, want)
	}
	screenshot(t, ctx, "cancel.png", "#operations-box")
	find(t, ctx, id)
	if got := foundField(t, ctx, "state"); got != op.State {
		t.Fatalf("found %s: the page shows it %s, the API reads it %s", id, got, op.State)
	}
}

// eventsInBrowser filters the console's latest events by subject: the
// page shows the subject's events, newest first, as the feed's head holds
// them.
func eventsInBrowser(t *testing.T, ctx context.Context, s *server, subject string) {
	t.Helper()
	page := clienttest.Must(s.api.Events(t.Context(), client.EventQuery{Subject: subject, Before: client.Latest, Limit: 25})).On(t)
	var want []string
	for i := len(page.Events) - 1; i >= 0; i-- {
		e := page.Events[i]
		want = append(want, e.Type+" "+e.Subject+" "+string(e.Data))
	}
	if len(want) == 0 {
		t.Fatalf("the feed holds no event of %s", subject)
	}
	fill(t, ctx, map[string]string{"filter-subject": subject})
	click(t, ctx, "#filter button")
	row := `tr.dataset.type + ' ' + tr.dataset.subject + ' ' + tr.querySelector('.data').textContent`
	got := shown(t, ctx, "the events of "+subject, `[...document.querySelectorAll('#events tr')].map((tr) => `+row+`).join('\n')`,
		func(s string) bool { return s == strings.Join(want, "\n") })
	if !strings.Contains(got, "operation.cancelled "+subject+` {"actor":"operator",`) {
		t.Fatalf("the events of %s: %q, want its cancellation by the operator", subject, got)
	}
	screenshot(t, ctx, "events.png", "#events-box")
}
