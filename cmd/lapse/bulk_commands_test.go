package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// TestBulkCommands: on every store, against a running lapse, lapse void
// and lapse extend --dry-run print the counts by state and change
// nothing; lapse extend --wait and lapse void --wait (of a template, of
// listed coupons, of the coupons of listed users) work every coupon
// and print the finished operation, which lapse operations show prints
// again; lapse archive --dry-run counts and lapse archive moves the
// voided coupons (still in the wallet with the archived); lapse reconcile
// finds no drift, as a table and as JSON.
func TestBulkCommands(t *testing.T) { onEach(t, testBulkCommands) }

func testBulkCommands(t *testing.T, be backend) {
	s := start(t, be.store(t))
	ctx := t.Context()
	tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "leaked", Value: 100,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
	var cs []client.Coupon
	for i := range 3 {
		cs = append(cs, clienttest.Must(s.api.Claim(ctx, fmt.Sprint("u", i), client.ClaimParams{TemplateID: tpl.ID})).On(t))
	}
	clienttest.Must(s.api.Void(ctx, cs[2].ID, client.VoidParams{Reason: "one"})).On(t)
	remote := []string{"--url", s.base, "--template", tpl.ID}

	for _, cmd := range []string{"void", "extend"} {
		args := append([]string{cmd, "--dry-run", "--by", "1h"}, remote...)
		if cmd == "void" {
			args = append([]string{cmd, "--dry-run"}, remote...)
		}
		if out, want := run(t, args...), "dry run: "+cmd+" of 3 coupon(s): unused 2, locked 0, used 0, expired 0, voided 1"; out != want {
			t.Fatalf("lapse %s --dry-run: got %q, want %q", cmd, out, want)
		}
	}
	if got := clienttest.Must(s.api.Template(ctx, tpl.ID)).On(t).Counts; *got != (client.Counts{Unused: 2, Voided: 1}) {
		t.Fatalf("after the dry runs: got %+v, want nothing changed", got)
	}

	out := run(t, append([]string{"extend", "--by", "2h", "--wait", "--poll", "20ms"}, remote...)...)
	id := strings.TrimSuffix(strings.Fields(out)[1], ":")
	want := fmt.Sprintf("operation %s: extend of template %s, done, 3/3 done: voided 0, extended 2, pending locked 0, missed 0, skipped voided 1", id, tpl.ID)
	if out != want {
		t.Fatalf("lapse extend --wait: got %q, want %q", out, want)
	}
	if got := clienttest.Must(s.api.Coupon(ctx, cs[0].ID)).On(t); !got.ExpiresAt.Equal(cs[0].ExpiresAt.Add(2 * time.Hour)) {
		t.Fatalf("extended coupon: expires %s, want %s", got.ExpiresAt, cs[0].ExpiresAt.Add(2*time.Hour))
	}
	if again := run(t, "operations", "show", id, "--url", s.base); again != want {
		t.Fatalf("lapse operations show: got %q, want %q", again, want)
	}

	out = run(t, "void", "--coupons", cs[0].ID, "--reason", "leaked", "--wait", "--poll", "20ms", "--url", s.base)
	if !strings.HasSuffix(out, ": void of 1 coupon(s), done, 1/1 done: voided 1, extended 0, pending locked 0, missed 0, skipped 0") {
		t.Fatalf("lapse void --coupons --wait: got %q", out)
	}
	out = run(t, "void", "--users", "u1,nobody", "--reason", "fraud", "--wait", "--poll", "20ms", "--url", s.base)
	if !strings.HasSuffix(out, ": void of the coupons of 2 user(s), done, 2/2 done: voided 1, extended 0, pending locked 0, missed 0, skipped 0") {
		t.Fatalf("lapse void --users --wait: got %q", out)
	}
	if got := clienttest.Must(s.api.Template(ctx, tpl.ID)).On(t).Counts; *got != (client.Counts{Voided: 3}) {
		t.Fatalf("after lapse void: got %+v, want all 3 voided", got)
	}
	if voided := s.eventsOf(t, "coupon.voided"); len(voided) != 3 {
		t.Fatalf("coupon.voided events: got %d, want 3", len(voided))
	}

	before := time.Now().UTC().Format(time.RFC3339Nano)
	time.Sleep(time.Millisecond)
	if out := run(t, "archive", "--dry-run", "--before", before, "--url", s.base); !strings.HasPrefix(out, "dry run: would archive 3 coupon(s) and 0 order(s)") {
		t.Fatalf("lapse archive --dry-run: got %q", out)
	}
	if out := run(t, "archive", "--before", before, "--url", s.base); !strings.HasPrefix(out, "archived 3 coupon(s) and 0 order(s)") {
		t.Fatalf("lapse archive: got %q", out)
	}
	if w := clienttest.All(t, s.api.Wallet(ctx, "u0", client.WalletQuery{})); len(w) != 0 {
		t.Fatalf("wallet of u0 after lapse archive: got %+v, want none", w)
	}
	if w := clienttest.All(t, s.api.Wallet(ctx, "u0", client.WalletQuery{Archived: true})); len(w) != 1 || w[0].ID != cs[0].ID || w[0].Status != "voided" {
		t.Fatalf("wallet of u0 with the archived: got %+v, want %s voided", w, cs[0].ID)
	}

	table := strings.Split(run(t, "reconcile", "--repair", "--url", s.base), "\n")
	if table[0] != "CHECK  SUBJECT  EXPECTED  ACTUAL  REPAIRED  DETAIL" || table[len(table)-1] != "0 drift(s), 0 repaired" {
		t.Fatalf("lapse reconcile --repair: got\n%s", strings.Join(table, "\n"))
	}
	var rec client.Reconciliation
	if err := json.Unmarshal([]byte(run(t, "reconcile", "--json", "--url", s.base)), &rec); err != nil || rec.CheckedAt.IsZero() || len(rec.Drift) != 0 {
		t.Fatalf("lapse reconcile --json: got %+v, %v", rec, err)
	}
}
