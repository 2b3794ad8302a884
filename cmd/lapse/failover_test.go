package main

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/driver/postgres/pgaftest"
)

// TestPostgresFailover: three instances on a pg_auto_failover formation
// (synchronous standby, multi-host URL), a storm draining and shoppers
// claiming, ordering and paying through each instance with the Go client;
// the primary's host dies (SIGKILL to its pg_autoctl and PostgreSQL).
// The standby takes over; meanwhile lapse answers 503 and never 500, the
// client's retries under the same Idempotency-Key succeed once the new
// primary serves, every instance writes again, and its loops (the
// engine's drains among them) run again, within the failover's time +
// 5 s, nothing acknowledged is lost, and every coupon of the storm is
// expired once, none early.
func TestPostgresFailover(t *testing.T) {
	f := pgaftest.Start(t)
	acrossWriterChange(t, f, "the primary's crash", func() (*pgaftest.Node, time.Time) {
		old := f.Primary()
		f.Kill(old)
		return f.Other(old), time.Now()
	})
}

// TestPostgresSwitchover: TestPostgresFailover with a planned switchover
// (pg_autoctl perform switchover) in place of the crash: the client
// absorbs it by retrying, and no call fails.
func TestPostgresSwitchover(t *testing.T) {
	f := pgaftest.Start(t)
	acrossWriterChange(t, f, "the switchover", func() (*pgaftest.Node, time.Time) {
		next, began := f.Other(f.Primary()), time.Now()
		f.Switchover()
		return next, began
	})
}

// failoverStorm is the storm due as the primary changes.
const failoverStorm = 20_000

// formation is a replicated database whose writer a test moves from one
// node to another (pgaftest's, galeratest's): lapse's store URL of it,
// and a wait until node n takes writes, which returns when it first did.
type formation[N fmt.Stringer] interface {
	URL() string
	WaitWritable(n N, within time.Duration) time.Time
}

// acrossWriterChange runs three instances on formation f with shoppers
// through each, seeds a storm, and once it drains calls change, which
// hands the writer to the node it returns and says when the old one
// stopped serving; then it checks the guarantees and logs the gaps and
// the answers by status.
func acrossWriterChange[N fmt.Stringer](t *testing.T, f formation[N], what string, change func() (N, time.Time)) {
	ss := startShared(t, f.URL(), 3)
	ctx := t.Context()
	tpl := clienttest.Must(ss[0].api.CreateTemplate(ctx, client.NewTemplate{Name: "shop", Value: 100,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
	clienttest.Must(ss[0].api.PutSKU(ctx, "fo-sku", client.Stock{Stock: 1_000_000})).On(t)

	cs := seedStorm(t, ss[0], failoverStorm, 15*time.Second)
	shop := newShoppers(t, ss, tpl.ID)
	waitFirstExpiry(t, ss)
	next, began := change()
	shop.mark(began)
	changed := f.WaitWritable(next, time.Minute)
	took := changed.Sub(began)
	t.Logf("%s: %s took writes %s after it began", what, next, took.Round(time.Millisecond))

	shop.waitEachWrote(t, changed.Add(30*time.Second))
	time.Sleep(2 * time.Second)
	shop.stop()

	for i, at := range shop.firstAfter {
		gap := at.Sub(began)
		t.Logf("instance %d: first acknowledged write %s after %s began", i, gap.Round(time.Millisecond), what)
		if gap > took+5*time.Second {
			t.Errorf("instance %d wrote again %s after %s began, past its %s + 5 s", i, gap, what, took)
		}
	}
	t.Logf("answers by status during the run: %v; acknowledged: %d claims, %d payments", shop.statuses, len(shop.claims), len(shop.paid))
	for status, n := range shop.statuses {
		if status >= 500 && status != http.StatusServiceUnavailable {
			t.Errorf("%d answers %d: an outage is 503 unavailable", n, status)
		}
	}
	for _, err := range shop.failed {
		t.Errorf("a call failed after its retries: %v", err)
	}
	shop.checkAcknowledged(t, ss[0].api)
	waitAllExpired(t, ss[0], len(cs))
	checkAllExpiredOnce(t, ss[0], cs)
	drainedAfter(t, ss[0], began, what)
	for i, s := range ss {
		if _, down := lastLogged(s.log.String(), "store: database unavailable"); !down {
			t.Logf("instance %d: its loops rode the change out within their retries", i)
			continue
		}
		back, ok := lastLogged(s.log.String(), "store: database available again")
		if !ok {
			t.Errorf("instance %d logged an outage and never its loops' return; log:\n%s", i, s.log.String())
			continue
		}
		t.Logf("instance %d: its loops back %s after %s began", i, back.Sub(began).Round(time.Millisecond), what)
		if back.After(changed.Add(5 * time.Second)) {
			t.Errorf("instance %d's loops came back %s after the new primary took writes, past 5 s", i, back.Sub(changed))
		}
	}
}

// lastLogged returns the time of the last line of lapse's text log that
// holds msg.
func lastLogged(log, msg string) (time.Time, bool) {
	var at time.Time
	for line := range strings.Lines(log) {
		if !strings.Contains(line, msg) {
			continue
		}
		v, _, _ := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			at = t
		}
	}
	return at, !at.IsZero()
}

// shoppers claim a coupon, order with it and pay, in a loop, one through
// each instance, with a client that retries an outage for up to a minute.
type shoppers struct {
	done chan struct{}
	wg   sync.WaitGroup

	mu         sync.Mutex
	since      time.Time         // the writes firstAfter watches for
	firstAfter []time.Time       // each instance's first write acknowledged after since
	statuses   map[int]int       // every answer, each retry's included
	claims     map[string]string // coupon ID → user, acknowledged claims
	paid       map[string]string // order ID → its coupon, acknowledged payments
	failed     []error           // calls that failed after their retries
}

// outageRetry rides out a failover: a minute of retries, a second apart
// at most.
var outageRetry = client.Retry{Attempts: 70, Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}

func newShoppers(t *testing.T, ss []*server, tpl string) *shoppers {
	sh := &shoppers{done: make(chan struct{}), firstAfter: make([]time.Time, len(ss)),
		statuses: map[int]int{}, claims: map[string]string{}, paid: map[string]string{}}
	t.Cleanup(sh.stop)
	for i, s := range ss {
		c, err := client.New(s.base, client.WithRetry(outageRetry),
			client.WithHTTPClient(&http.Client{Timeout: 10 * time.Second, Transport: counting{sh}}))
		if err != nil {
			t.Fatal(err)
		}
		sh.wg.Go(func() { sh.shop(t, i, c, tpl) })
	}
	return sh
}

// shop is instance i's shopper.
func (sh *shoppers) shop(t *testing.T, i int, c *client.Client, tpl string) {
	ctx := t.Context()
	for k := 0; ; k++ {
		select {
		case <-sh.done:
			return
		default:
		}
		user := fmt.Sprintf("shopper%d-%d", i, k)
		called := time.Now()
		cp, err := c.Claim(ctx, user, client.ClaimParams{TemplateID: tpl})
		if sh.acked(i, called, err) {
			sh.mu.Lock()
			sh.claims[cp.ID] = user
			sh.mu.Unlock()
		} else {
			continue
		}
		called = time.Now()
		o, err := c.CreateOrder(ctx, client.NewOrder{UserID: user, CouponIDs: []string{cp.ID},
			Items: []client.Item{{SKU: "fo-sku", Qty: 1, UnitPrice: 1000}}})
		if !sh.acked(i, called, err) {
			continue
		}
		called = time.Now()
		if _, err := c.Pay(ctx, o.ID, client.PayParams{PaymentID: "pay-" + o.ID, Amount: o.AmountDue}); sh.acked(i, called, err) {
			sh.mu.Lock()
			sh.paid[o.ID] = cp.ID
			sh.mu.Unlock()
		}
	}
}

// acked records the end of a call made at called: a write of instance i
// acknowledged, or a failure (unless the test is ending).
func (sh *shoppers) acked(i int, called time.Time, err error) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if err != nil {
		select {
		case <-sh.done:
		default:
			sh.failed = append(sh.failed, err)
		}
		return false
	}
	if !sh.since.IsZero() && called.After(sh.since) && sh.firstAfter[i].IsZero() {
		sh.firstAfter[i] = time.Now()
	}
	return true
}

// mark starts watching for each instance's first write of a call made
// after at: one made before may have committed before at.
func (sh *shoppers) mark(at time.Time) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.since = at
}

// waitEachWrote waits, until deadline at most, for a write acknowledged
// by each instance since mark.
func (sh *shoppers) waitEachWrote(t *testing.T, deadline time.Time) {
	t.Helper()
	for ; time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		sh.mu.Lock()
		wrote := !slices.ContainsFunc(sh.firstAfter, time.Time.IsZero)
		sh.mu.Unlock()
		if wrote {
			return
		}
	}
	t.Fatalf("not every instance wrote again: first writes %v; failures %v", sh.firstAfter, sh.failed)
}

// stop ends the shoppers and waits for them.
func (sh *shoppers) stop() {
	select {
	case <-sh.done:
	default:
		close(sh.done)
	}
	sh.wg.Wait()
}

// checkAcknowledged fails t unless every claim acknowledged is its
// user's coupon and every payment acknowledged left its order paid and
// its coupon used.
func (sh *shoppers) checkAcknowledged(t *testing.T, api *client.Client) {
	t.Helper()
	ids := make([]string, 0, len(sh.claims))
	for id := range sh.claims {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := clienttest.Must(api.Coupon(t.Context(), id)).On(t)
		if c.UserID != sh.claims[id] {
			t.Errorf("coupon %s acknowledged to %s is %s's", id, sh.claims[id], c.UserID)
		}
	}
	for oid, cid := range sh.paid {
		if o := clienttest.Must(api.Order(t.Context(), oid)).On(t); o.Status != "paid" {
			t.Errorf("order %s acknowledged paid is %s", oid, o.Status)
		}
		if c := clienttest.Must(api.Coupon(t.Context(), cid)).On(t); c.Status != "used" {
			t.Errorf("coupon %s of paid order %s is %s, want used", cid, oid, c.Status)
		}
	}
}

// counting is the shoppers' transport: it counts every answer by status.
type counting struct{ sh *shoppers }

func (c counting) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		c.sh.mu.Lock()
		c.sh.statuses[res.StatusCode]++
		c.sh.mu.Unlock()
	}
	return res, err
}
