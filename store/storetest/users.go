package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var userTests = []test{
	{"PutAndGet", testPutUser},
	{"RefusalsChangeNothing", testPutUserRefusals},
	{"CouponActionsMarkActivity", testActivityCoupons},
	{"OrdersMarkActivity", testActivityOrders},
}

// user reads a user.
func (f *fixture) user(id string) remind.User {
	f.t.Helper()
	return get(f, "User", f.s.User, id)
}

// wantUser fails unless got has want's fields.
func (f *fixture) wantUser(what string, got, want remind.User) {
	f.t.Helper()
	if got.ID != want.ID || got.Timezone != want.Timezone || !slices.Equal(got.Channels, want.Channels) {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	f.wantTime(what+": last_active_at", got.LastActiveAt, want.LastActiveAt)
}

// testPutUser: a profile is stored and read back; a second PUT replaces
// it; a user never seen is not found.
func testPutUser(t *testing.T, open opener) {
	f := newFixture(t, open)
	_, err := f.s.User(f.ctx, "nobody")
	f.wantErr("unknown user", err, storetype.ErrNotFound)
	want := remind.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: []remind.Channel{remind.SMS, remind.Push, remind.InApp}}
	f.wantUser("PutUser", f.putUser("u1", "Asia/Shanghai", remind.SMS, remind.Push, remind.InApp), want)
	f.wantUser("User", f.user("u1"), want)
	want = remind.User{ID: "u1", Timezone: "UTC", Channels: []remind.Channel{}}
	f.wantUser("replaced", f.putUser("u1", "UTC"), want)
	f.wantUser("replaced, read", f.user("u1"), want)
}

// testPutUserRefusals: an invalid profile is refused with the field named
// and stores nothing.
func testPutUserRefusals(t *testing.T, open opener) {
	f := newFixture(t, open)
	cases := []struct {
		u     remind.User
		field string
	}{
		{remind.User{ID: "", Timezone: "UTC"}, "user_id"},
		{remind.User{ID: "u", Timezone: "Mars/Olympus"}, "timezone"},
		{remind.User{ID: "u", Timezone: "Local"}, "timezone"},
		{remind.User{ID: "u", Timezone: ""}, "timezone"},
		{remind.User{ID: "u", Timezone: "UTC", Channels: []remind.Channel{"fax"}}, "channels[0]"},
		{remind.User{ID: "u", Timezone: "UTC", Channels: []remind.Channel{remind.Push, remind.Push}}, "channels[1]"},
	}
	for _, c := range cases {
		_, err := f.s.PutUser(f.ctx, store.PutUserParams{User: c.u, Now: t0})
		var inv *coupon.InvalidError
		if !errors.As(err, &inv) || inv.Field != c.field {
			f.t.Fatalf("PutUser(%+v): got %v, want an invalid %s", c.u, err, c.field)
		}
		_, err = f.s.User(f.ctx, "u")
		f.wantErr("after a refused PutUser", err, storetype.ErrNotFound)
	}
}

// testActivityCoupons: claims and the holder's own coupon actions mark
// the user active; an operator's void and the clock's expiry do not; a
// profile change keeps the activity.
func testActivityCoupons(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	step := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	active := func(what string, want time.Time) {
		f.t.Helper()
		f.wantTime(what+": last_active_at", f.user("a").LastActiveAt, want)
	}
	c := f.claim(tp.ID, "a", step(1))
	active("claim", step(1))
	f.do(c.ID, lock("o1", step(2), time.Hour))
	active("lock", step(2))
	f.do(c.ID, act(coupon.Unlock, "o1", step(3)))
	active("unlock", step(3))
	f.do(c.ID, act(coupon.Redeem, "o2", step(4)))
	active("redeem", step(4))
	f.do(c.ID, act(coupon.Refund, "o2", step(5)))
	active("refund", step(5))
	f.putUser("a", "Europe/Paris", remind.Push)
	active("profile set", step(5))
	f.do(c.ID, act(coupon.Void, "", step(6)))
	active("voided by an operator", step(5))
	_, err := f.s.Transition(f.ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Lock, OrderID: "o3", LockTTL: time.Hour, Now: step(7)})
	f.wantErr("lock of a voided coupon", err, coupon.ErrInvalidState)
	active("refused action", step(5))
	f.claim(tp.ID, "a", step(8))
	f.expireDue(t0.Add(48*time.Hour), 100)
	active("expiry", step(8))
}

// testActivityOrders: creating, paying and cancelling an order mark the
// buyer active; a close on timeout does not.
func testActivityOrders(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	active := func(what string, want time.Time) {
		f.t.Helper()
		f.wantTime(what+": last_active_at", f.user(buyer).LastActiveAt, want)
	}
	o := f.create()
	active("create", t0)
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue, Now: t0.Add(time.Minute)}); err != nil {
		f.t.Fatalf("PayOrder: %v", err)
	}
	active("pay", t0.Add(time.Minute))
	o2 := f.create()
	if _, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o2.ID, Reason: order.ReasonCancelled, Now: t0.Add(2 * time.Minute)}); err != nil {
		f.t.Fatalf("CloseOrder: %v", err)
	}
	active("cancel", t0.Add(2*time.Minute))
	f.create()
	if _, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: t0.Add(time.Hour), Limit: 100}); err != nil {
		f.t.Fatalf("CloseDueOrders: %v", err)
	}
	active("timeout", t0.Add(2*time.Minute))
}
