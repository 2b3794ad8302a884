package clientsuite_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/store"
)

// TestPaging iterates over templates, a wallet and the feed in pages
// smaller than they are, and stops an iteration early.
func TestPaging(t *testing.T) { onEach(t, testPaging) }

func testPaging(t *testing.T, st store.Store) {
	ctx := t.Context()
	c := serve(t, st, nil)
	var want []string
	for i := range 5 {
		tpl := hourTemplate
		tpl.Name = fmt.Sprint("t", i)
		want = append(want, clienttest.Must(c.CreateTemplate(ctx, tpl)).On(t).ID)
	}
	// By ID in byte order: creation order only between milliseconds.
	slices.Sort(want)
	var got []string
	for tpl, err := range c.Templates(ctx, client.TemplateQuery{Limit: 2}) {
		if err != nil {
			t.Fatalf("templates: %v", err)
		}
		got = append(got, tpl.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("templates in pages of 2: got %v, want %v", got, want)
	}
	got = nil
	for tpl, err := range c.Templates(ctx, client.TemplateQuery{After: want[1], Limit: 2}) {
		if err != nil {
			t.Fatalf("templates: %v", err)
		}
		if got = append(got, tpl.ID); len(got) == 2 {
			break
		}
	}
	if !slices.Equal(got, want[2:4]) {
		t.Fatalf("two templates after the second: got %v, want %v", got, want[2:4])
	}

	users := []string{"u0", "u1", "u2", "u3", "u4"}
	clienttest.Must(c.Issue(ctx, want[0], client.IssueParams{UserIDs: users})).On(t)
	var subjects []string
	for e, err := range c.Feed(ctx, client.EventQuery{Limit: 2}) {
		if err != nil {
			t.Fatalf("feed: %v", err)
		}
		if e.Type == "coupon.claimed" {
			subjects = append(subjects, e.Subject)
		}
	}
	if len(subjects) != len(users) {
		t.Fatalf("coupon.claimed in pages of 2: got %d, want %d", len(subjects), len(users))
	}
	cursor := clienttest.Must(c.Cursor(ctx)).On(t)
	clienttest.Must(c.Claim(ctx, "u9", client.ClaimParams{TemplateID: want[0]})).On(t)
	var after []client.Event
	for e, err := range c.Feed(ctx, client.EventQuery{After: cursor}) {
		if err != nil {
			t.Fatalf("feed: %v", err)
		}
		after = append(after, e)
	}
	if len(after) != 1 || after[0].Type != "coupon.claimed" {
		t.Fatalf("feed after the cursor: got %+v, want the one claim since", after)
	}
	if _, err := c.Events(ctx, client.EventQuery{After: "x"}); !client.IsSlug(err, "invalid") {
		t.Fatalf("a bad cursor: got %v, want invalid", err)
	}
	var errs []error
	for _, err := range c.Feed(ctx, client.EventQuery{After: "x"}) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !client.IsSlug(errs[0], "invalid") {
		t.Fatalf("feed from a bad cursor: got %v, want one invalid", errs)
	}

	var coupons []string
	for range 5 {
		coupons = append(coupons, clienttest.Must(c.Claim(ctx, "w", client.ClaimParams{TemplateID: want[0]})).On(t).ID)
	}
	slices.Sort(coupons)
	var wallet []string
	for cpn, err := range c.Wallet(ctx, "w", client.WalletQuery{Status: "unused", Limit: 2}) {
		if err != nil {
			t.Fatalf("wallet: %v", err)
		}
		wallet = append(wallet, cpn.ID)
	}
	if !slices.Equal(wallet, coupons) {
		t.Fatalf("wallet in pages of 2: got %v, want %v, by ID", wallet, coupons)
	}
	page := clienttest.Must(c.WalletPage(ctx, "w", client.WalletQuery{After: coupons[0], Limit: 2})).On(t)
	if len(page.Coupons) != 2 || page.Coupons[0].ID != coupons[1] || page.Next != coupons[2] {
		t.Fatalf("a page of 2 after the first coupon: got %+v, want %v and next %s", page, coupons[1:3], coupons[2])
	}
}
