package engine_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/timer"
)

// aheadBy is how far the local clock of the instance under test runs
// ahead of the database's: inside the default bound of its skew, 1s, so
// that the instance fires.
const aheadBy = 900 * time.Millisecond

// sharedStore is a store many instances can share: url makes a database
// of the test's own, openURL opens it.
type sharedStore struct {
	name    string
	url     func(t testing.TB) string
	openURL func(ctx context.Context, url string, hooks store.Hooks) (*store.DB, error)
}

// sharedStores are the stores many instances can share.
var sharedStores = []sharedStore{
	{"postgres", pgtest.SchemaURL, func(ctx context.Context, url string, hooks store.Hooks) (*store.DB, error) {
		return store.Options{Hooks: hooks}.Open(postgres.Open(ctx, url, postgres.Options{}))
	}},
	{"mysql", mysqltest.FreshDB, func(ctx context.Context, url string, hooks store.Hooks) (*store.DB, error) {
		return store.Options{Hooks: hooks}.Open(mysql.Open(ctx, url, mysql.Options{}))
	}},
}

// open opens s on a database of the test's own.
func (s sharedStore) open(t *testing.T, hooks store.Hooks) store.Store {
	st, err := s.openURL(t.Context(), s.url(t), hooks)
	return opened(t, st, err)
}

// opened fails t on err, else closes st when t ends.
func opened[S store.Store](t *testing.T, st S, err error) store.Store {
	t.Helper()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// aheadInstance is one `lapse serve` on a shared store, wired as the cli
// wires it, whose local clock runs aheadBy ahead of the database's.
type aheadInstance struct {
	st  store.Store
	eng *engine.Engine
	api http.Handler
}

// aheadOnEach runs test on each shared store, as a subtest of its name,
// with an aheadInstance on it and now, the database's time to the
// millisecond.
func aheadOnEach(t *testing.T, test func(t *testing.T, in *aheadInstance, now time.Time)) {
	for _, s := range sharedStores {
		t.Run(s.name, func(t *testing.T) {
			in := startAhead(t, s.open)
			test(t, in, in.dbNow(t).Truncate(time.Millisecond))
		})
	}
}

// startAhead starts an aheadInstance on the store open opens.
func startAhead(t *testing.T, open func(*testing.T, store.Hooks) store.Store) *aheadInstance {
	t.Helper()
	local := func() time.Time { return time.Now().UTC().Add(aheadBy) }
	clock := engine.NewClock(local)
	now := func() time.Time { return clock.Now().Truncate(time.Millisecond) }
	wheel := timer.NewWheel(tick, 1024, now)
	in := &aheadInstance{st: open(t, store.Hooks{OnTimer: engine.Hint(wheel)})}
	in.eng = engine.New(engine.Config{Store: in.st, Wheel: wheel, Now: now, Clock: clock, Holder: "ahead",
		LoadInterval: 200 * time.Millisecond, LeaseTTL: 1500 * time.Millisecond})
	if err := in.eng.Start(t.Context()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(in.eng.Stop)
	if err := in.eng.Err(); err != nil {
		t.Fatalf("the engine %s ahead does not fire: %v", aheadBy, err)
	}
	in.api = httpapi.New(httpapi.Config{Store: in.st, Now: now, Firing: in.eng.Err})
	return in
}

// dbNow reads the database's clock.
func (in *aheadInstance) dbNow(t *testing.T) time.Time {
	t.Helper()
	now, err := in.st.Clock(t.Context())
	if err != nil {
		t.Fatalf("database clock: %v", err)
	}
	return now
}

// claim claims a coupon of a new template ending at endsAt, now being
// now on the database's clock.
func (in *aheadInstance) claim(t *testing.T, now, endsAt time.Time) coupon.Coupon {
	t.Helper()
	tp, err := in.st.CreateTemplate(t.Context(), store.CreateTemplateParams{Now: now, Template: coupon.Template{
		Name: "due", Value: 100, StartsAt: now.Add(-time.Hour), EndsAt: endsAt,
	}})
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	c, err := in.st.Claim(t.Context(), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return c
}

// order creates an unpaid order of one item due to be paid by deadline,
// now being now on the database's clock.
func (in *aheadInstance) order(t *testing.T, now, deadline time.Time) order.Order {
	t.Helper()
	if _, err := in.st.PutSKU(t.Context(), store.PutSKUParams{SKU: "sku", Stock: 100, Now: now}); err != nil {
		t.Fatalf("sku: %v", err)
	}
	o, err := in.st.CreateOrder(t.Context(), store.CreateOrderParams{UserID: "u1", Deadline: deadline, Now: now,
		Items: []order.Item{{SKU: "sku", Qty: 1, UnitPrice: 500}}})
	if err != nil {
		t.Fatalf("order: %v", err)
	}
	return o
}

// TestAheadNeverEarly: an instance whose clock runs 900ms ahead of the
// database's, inside the bound of its skew, expires a coupon, releases a
// lock and closes an order, all due at one instant on the database's
// clock, none before the database's clock reaches it and all soon after.
func TestAheadNeverEarly(t *testing.T) {
	aheadOnEach(t, func(t *testing.T, in *aheadInstance, now time.Time) {
		due := now.Add(2 * time.Second).Truncate(time.Millisecond)
		expiring := in.claim(t, now, due)
		locked := in.claim(t, now, now.Add(time.Hour))
		if _, err := in.st.Transition(t.Context(), store.TransitionParams{CouponID: locked.ID, Action: coupon.Lock,
			OrderID: "o1", LockTTL: due.Sub(now), Now: now}); err != nil {
			t.Fatalf("lock: %v", err)
		}
		unpaid := in.order(t, now, due)
		for {
			// What a read shows done was done before the clock read
			// after it says.
			c1, c2, o := read(t, in.st.Coupon, expiring.ID), read(t, in.st.Coupon, locked.ID), read(t, in.st.Order, unpaid.ID)
			at := in.dbNow(t)
			done := c1.Status == coupon.Expired && c2.Status == coupon.Unused && o.Status == order.Closed
			if (c1.Status != coupon.Unused || c2.Status != coupon.Locked || o.Status != order.Unpaid) && at.Before(due) {
				t.Fatalf("at %s on the database's clock, %s before the due time %s: coupon %s, locked coupon %s, order %s",
					at.Format(time.StampMilli), due.Sub(at), due.Format(time.StampMilli), c1.Status, c2.Status, o.Status)
			}
			if done {
				break
			}
			if at.After(due.Add(10 * time.Second)) {
				t.Fatalf("10s past due: coupon %s, locked coupon %s, order %s", c1.Status, c2.Status, o.Status)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// read returns what get reads of id, failing t on error.
func read[T any](t *testing.T, get func(context.Context, string) (T, error), id string) T {
	t.Helper()
	v, err := get(t.Context(), id)
	if err != nil {
		t.Fatalf("read %s: %v", id, err)
	}
	return v
}

// TestAheadAPIDecidesByTheDatabase: the API of an instance whose clock
// runs 900ms ahead of the database's locks and redeems a coupon expiring
// 500ms later on the database's clock, and takes the payment of an order
// due then: by its own clock, both are past.
func TestAheadAPIDecidesByTheDatabase(t *testing.T) {
	aheadOnEach(t, func(t *testing.T, in *aheadInstance, now time.Time) {
		due := now.Add(500 * time.Millisecond)
		c := in.claim(t, now, due)
		o := in.order(t, now, due)
		in.post(t, "/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1", "ttl": "1m"}`)
		in.post(t, "/v1/coupons/"+c.ID+"/redeem", `{"order_id": "o1"}`)
		in.post(t, "/v1/orders/"+o.ID+"/pay", `{"payment_id": "p1", "amount": 500}`)
		if at := in.dbNow(t); !at.Before(due) {
			t.Fatalf("the requests took until %s past the due time on the database's clock: too slow to tell", at.Sub(due))
		}
	})
}

// post posts body to the instance's API at path, as JSON from this
// machine (the API serves open), and fails t unless it is answered 200.
func (in *aheadInstance) post(t *testing.T, path, body string) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	in.api.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local)))
	if w.Code != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, w.Code, w.Body)
	}
}
