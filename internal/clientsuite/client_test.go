package clientsuite_test

import (
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/store"
)

// TestEveryRoute calls each method of the client against a real server
// and checks what it decoded.
func TestEveryRoute(t *testing.T) { onEach(t, testEveryRoute) }

func testEveryRoute(t *testing.T, st store.Store) {
	ctx := t.Context()
	c := serve(t, st, nil)
	if err := c.Healthz(ctx); err != nil {
		t.Fatalf("healthz: %v", err)
	}
	if err := c.Readyz(ctx); err != nil {
		t.Fatalf("readyz: %v", err)
	}

	tpl := clienttest.Must(c.CreateTemplate(ctx, client.NewTemplate{Name: "¥20 off", Value: 2000, MinSpend: 100, PerUserLimit: 1, Total: 10,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}, Reminders: []client.Duration{client.Duration(30 * time.Minute)}})).On(t)
	if tpl.ID == "" || tpl.Name != "¥20 off" || tpl.Value != 2000 || tpl.Total != 10 || time.Duration(tpl.Validity.Duration) != time.Hour ||
		!tpl.Validity.EndsAt.IsZero() || !slices.Equal(tpl.Reminders, []client.Duration{client.Duration(30 * time.Minute)}) {
		t.Fatalf("created template: got %+v", tpl)
	}
	name, value := "¥25 off", int64(2500)
	changed := clienttest.Must(c.ChangeTemplate(ctx, tpl.ID, client.TemplateChange{Name: &name, Value: &value})).On(t)
	if changed.Name != name || changed.Value != value || changed.Total != 10 {
		t.Fatalf("changed template: got %+v", changed)
	}

	issued := clienttest.Must(c.Issue(ctx, tpl.ID, client.IssueParams{UserIDs: []string{"u1", "u2", "u1"}})).On(t)
	if issued.Issued != 2 || !slices.Equal(issued.Refused, []client.Refusal{{UserID: "u1", Reason: "limit-reached"}}) ||
		issued.RefusedCount["limit-reached"] != 1 {
		t.Fatalf("issued: got %+v, want 2 and the second u1 refused limit-reached", issued)
	}
	claimed := clienttest.Must(c.Claim(ctx, "u3", client.ClaimParams{TemplateID: tpl.ID})).On(t)
	if claimed.Status != "unused" || claimed.UserID != "u3" || claimed.TemplateID != tpl.ID || claimed.OrderID != "" ||
		!claimed.ExpiresAt.Equal(claimed.ClaimedAt.Add(time.Hour)) {
		t.Fatalf("claimed: got %+v", claimed)
	}
	if got := clienttest.Must(c.Coupon(ctx, claimed.ID)).On(t); got != claimed {
		t.Fatalf("coupon: got %+v, want %+v", got, claimed)
	}
	locked := clienttest.Must(c.Lock(ctx, claimed.ID, client.LockParams{OrderID: "o1", TTL: client.Duration(5 * time.Minute)})).On(t)
	if locked.Status != "locked" || locked.OrderID != "o1" || !locked.LockedUntil.Equal(locked.UpdatedAt.Add(5*time.Minute)) {
		t.Fatalf("locked: got %+v", locked)
	}
	for _, step := range []struct {
		do   func() (client.Coupon, error)
		want string
	}{
		{func() (client.Coupon, error) { return c.Unlock(ctx, claimed.ID, client.UnlockParams{OrderID: "o1"}) }, "unused"},
		{func() (client.Coupon, error) { return c.Redeem(ctx, claimed.ID, client.RedeemParams{OrderID: "o2"}) }, "used"},
		{func() (client.Coupon, error) { return c.Refund(ctx, claimed.ID, client.RefundParams{OrderID: "o2"}) }, "unused"},
		{func() (client.Coupon, error) { return c.Void(ctx, claimed.ID, client.VoidParams{Reason: "leaked"}) }, "voided"},
	} {
		if got := clienttest.Must(step.do()).On(t); got.Status != step.want {
			t.Fatalf("transition: got %+v, want %s", got, step.want)
		}
	}
	if _, err := c.Redeem(ctx, claimed.ID, client.RedeemParams{OrderID: "o3"}); !client.IsSlug(err, "invalid-state") {
		t.Fatalf("redeem a voided coupon: got %v, want invalid-state", err)
	}
	wallet := clienttest.All(t, c.Wallet(ctx, "u1", client.WalletQuery{Status: "unused"}))
	if len(wallet) != 1 || wallet[0].UserID != "u1" {
		t.Fatalf("wallet of u1: got %+v", wallet)
	}
	if voided := clienttest.All(t, c.Wallet(ctx, "u3", client.WalletQuery{Status: "voided"})); len(voided) != 1 || voided[0].ID != claimed.ID {
		t.Fatalf("voided wallet of u3: got %+v", voided)
	}
	info := clienttest.Must(c.Template(ctx, tpl.ID)).On(t)
	if info.Counts == nil || *info.Counts != (client.Counts{Unused: 2, Voided: 1}) {
		t.Fatalf("template counts: got %+v", info.Counts)
	}

	u := clienttest.Must(c.PutUser(ctx, client.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: []string{"sms"}})).On(t)
	if got := clienttest.Must(c.User(ctx, "u1")).On(t); got.Timezone != "Asia/Shanghai" || !slices.Equal(got.Channels, []string{"sms"}) || got.ID != u.ID {
		t.Fatalf("user: got %+v", got)
	}

	if k := clienttest.Must(c.PutSKU(ctx, "tea", client.Stock{Stock: 10})).On(t); k.Available != 10 || k.SKU != "tea" {
		t.Fatalf("put SKU: got %+v", k)
	}
	o := clienttest.Must(c.CreateOrder(ctx, client.NewOrder{UserID: "u1", Items: []client.Item{{SKU: "tea", Qty: 2, UnitPrice: 1500}},
		CouponIDs: []string{wallet[0].ID}, Timeout: client.Duration(10 * time.Minute)})).On(t)
	if o.Status != "unpaid" || o.Total != 3000 || o.Discount != 2500 || o.AmountDue != 500 || !o.Deadline.Equal(o.CreatedAt.Add(10*time.Minute)) {
		t.Fatalf("order: got %+v", o)
	}
	if paid := clienttest.Must(c.Pay(ctx, o.ID, client.PayParams{PaymentID: "p1", Amount: o.AmountDue})).On(t); paid.Status != "paid" {
		t.Fatalf("paid: got %+v", paid)
	}
	o2 := clienttest.Must(c.CreateOrder(ctx, client.NewOrder{UserID: "u2", Items: []client.Item{{SKU: "tea", Qty: 1, UnitPrice: 1500}}})).On(t)
	if got := clienttest.Must(c.Order(ctx, o2.ID)).On(t); got.ID != o2.ID || got.Status != "unpaid" {
		t.Fatalf("order: got %+v", got)
	}
	if closed := clienttest.Must(c.Cancel(ctx, o2.ID, client.CancelParams{})).On(t); closed.Status != "closed" || closed.CloseReason != "cancelled" {
		t.Fatalf("cancelled: got %+v", closed)
	}
	if k := clienttest.Must(c.SKU(ctx, "tea")).On(t); k != (client.SKU{SKU: "tea", Available: 8, Sold: 2, Buckets: k.Buckets}) {
		t.Fatalf("SKU: got %+v", k)
	}

	if closed := clienttest.Must(c.CloseTemplate(ctx, tpl.ID, client.CloseTemplateParams{Reason: "campaign over"})).On(t); closed.ClosedAt.IsZero() {
		t.Fatalf("closed template: got %+v", closed)
	}
	if _, err := c.Claim(ctx, "u4", client.ClaimParams{TemplateID: tpl.ID}); !client.IsSlug(err, "not-claimable") {
		t.Fatalf("claim of a closed template: got %v, want not-claimable", err)
	}

	var types []string
	for e, err := range c.Feed(ctx, client.EventQuery{Limit: 2}) {
		if err != nil {
			t.Fatalf("feed: %v", err)
		}
		types = append(types, e.Type)
	}
	for _, want := range []string{"coupon.claimed", "coupon.voided", "order.paid", "order.closed", "template.closed"} {
		if !slices.Contains(types, want) {
			t.Fatalf("feed: no %s in %v", want, types)
		}
	}
	sinks := clienttest.Must(c.Sinks(ctx)).On(t)
	if len(sinks) != 0 {
		t.Fatalf("sinks of a server without a relay: got %+v", sinks)
	}
	_, err := c.Replay(ctx, "nowhere")
	var p *client.Problem
	if !errors.As(err, &p) || p.Status != http.StatusNotFound || p.Slug != "not-found" || p.Type != "/problems/not-found" || p.Title == "" || p.Detail == "" {
		t.Fatalf("replay of an unknown sink: got %#v, want the not-found problem", err)
	}
}
