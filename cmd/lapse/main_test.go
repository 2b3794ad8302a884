package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// These tests run the real binary: signals, exit codes and restarts are
// what they are about.

var binary string

// httpc bounds every request made without the Go client (which bounds
// its own), so that a hung lapse fails a test instead of hanging it.
var httpc = &http.Client{Timeout: 30 * time.Second}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lapse-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "lapse")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build lapse: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is one lapse serve process.
type server struct {
	cmd  *exec.Cmd
	base string
	// api is a client of it that makes one attempt a call.
	api *client.Client
	log outboxtest.LogBuffer
}

// backend is a store the end-to-end tests run lapse on.
type backend struct {
	name string
	// store returns the --store URL of a fresh, empty store for t.
	store func(t *testing.T) string
	// open opens the store at url without an engine, to read what a
	// stopped lapse left there.
	open func(url string) (store.Store, error)
	// raw opens the database at url with database/sql, closed when t
	// ends, for what only SQL can do.
	raw func(t *testing.T, url string) *sql.DB
	// coupons and orders are how many the kill tests make due at once,
	// and lead how long before they fall due they start making them:
	// enough on a loaded machine. On PostgreSQL every write that records
	// an event holds the feed's position lock until its commit has reached
	// the disk, so they run one at a time: fewer, with more time.
	coupons, orders int
	lead            time.Duration
	// stormLead is how long before they fall due the distributed tests
	// start seeding their storm: enough to issue stormCoupons.
	stormLead time.Duration
}

var backends = []backend{
	{
		name:  "sqlite",
		store: func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "lapse.db") },
		open: func(url string) (store.Store, error) {
			return store.Options{}.Open(sqlite.Open(context.Background(), strings.TrimPrefix(url, "sqlite:"), sqlite.Options{}))
		},
		raw:     func(t *testing.T, url string) *sql.DB { return rawDB(t, "sqlite", strings.TrimPrefix(url, "sqlite:")) },
		coupons: 3000, orders: 2000, lead: 4 * time.Second,
	},
	{
		name:  "postgres",
		store: func(t *testing.T) string { return pgtest.SchemaURL(t) },
		open: func(url string) (store.Store, error) {
			return store.Options{}.Open(postgres.Open(context.Background(), url, postgres.Options{}))
		},
		raw:     func(t *testing.T, url string) *sql.DB { return rawDB(t, "pgx", url) },
		coupons: 1000, orders: 1000, lead: 15 * time.Second, stormLead: 30 * time.Second,
	},
	{
		name:  "mysql",
		store: func(t *testing.T) string { return mysqltest.FreshDB(t) },
		open: func(url string) (store.Store, error) {
			return store.Options{}.Open(mysql.Open(context.Background(), url, mysql.Options{}))
		},
		raw:     func(t *testing.T, url string) *sql.DB { return mysqltest.Raw(t, url) },
		coupons: 1000, orders: 1000, lead: 15 * time.Second, stormLead: 30 * time.Second,
	},
}

// rawDB opens dsn with the database/sql driver named, closed when t ends.
func rawDB(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatalf("open %s: %v", driver, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// sqliteBackend is the embedded backend, which one process runs.
var sqliteBackend = backends[0]

// onEach runs test once per backend, as a subtest named after it.
func onEach(t *testing.T, test func(t *testing.T, be backend)) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) { test(t, be) })
	}
}

// start runs lapse serve on the store at url and waits until it is ready.
// readyWithin is how long start waits for a lapse to answer /readyz.
const readyWithin = 30 * time.Second

func start(t *testing.T, url string, extra ...string) *server {
	t.Helper()
	addr := outboxtest.FreeAddr(t)
	s := &server{base: "http://" + addr}
	s.api = clienttest.New(t, s.base)
	// Text, which the tests reading times off its lines parse; a pipe
	// would have JSON.
	args := append([]string{"serve", "--listen", addr, "--store", url, "--log-format", "text"}, extra...)
	s.cmd = exec.Command(binary, args...)
	s.cmd.Stderr = &s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start lapse: %v", err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	})
	// Opening a store migrates it, and a loaded machine (CI runs
	// packages side by side) has taken more than 5 s to.
	for deadline := time.Now().Add(readyWithin); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		if s.api.Readyz(t.Context()) == nil {
			return s
		}
	}
	t.Fatalf("lapse not ready within %s; log:\n%s", readyWithin, s.log.String())
	return nil
}

// raw answers GET path on s, for a test of the bytes themselves; it fails
// t unless the answer is 200.
func (s *server) raw(t *testing.T, path string) string {
	t.Helper()
	resp, err := httpc.Get(s.base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: got %d %s, %v; want 200", path, resp.StatusCode, b, err)
	}
	return string(b)
}

// expiredEvents reads the whole feed and returns the coupon.expired events
// by subject, failing on a duplicate.
func (s *server) expiredEvents(t *testing.T) map[string]client.Event {
	t.Helper()
	return s.eventsOf(t, "coupon.expired")
}

// eventsOf reads the whole feed and returns the events of one type by
// subject, failing on a duplicate.
func (s *server) eventsOf(t *testing.T, typ string) map[string]client.Event {
	t.Helper()
	return follow(typ).read(t, s)
}

// follower gathers the feed's events of one type by subject, reading only
// what is new on each call: a wait that polls a storm's feed reads each
// event once, not the whole feed every time.
type follower struct {
	typ   string
	after string
	got   map[string]client.Event
}

// follow returns a follower of the events of typ from the feed's front.
func follow(typ string) *follower {
	return &follower{typ: typ, got: map[string]client.Event{}}
}

// read reads the events stored after the last read and returns those of
// f's type so far by subject, failing on a second event of a subject.
func (f *follower) read(t *testing.T, s *server) map[string]client.Event {
	t.Helper()
	for {
		page := clienttest.Must(s.api.Events(t.Context(), client.EventQuery{After: f.after, Limit: 1000})).On(t)
		for _, e := range page.Events {
			if e.Type != f.typ {
				continue
			}
			if _, dup := f.got[e.Subject]; dup {
				t.Fatalf("%s: two %s events", e.Subject, f.typ)
			}
			f.got[e.Subject] = e
		}
		if len(page.Events) == 0 || page.Next == "" {
			return f.got
		}
		f.after = page.Next
	}
}

// feed reads the whole feed and returns the events of one type in feed
// order.
func (s *server) feed(t *testing.T, typ string) []client.Event {
	t.Helper()
	var out []client.Event
	for e, err := range s.api.Feed(t.Context(), client.EventQuery{Limit: 1000}) {
		if err != nil {
			t.Fatalf("feed: %v", err)
		}
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// seed creates a template whose coupons all expire at endsAt and claims n,
// from a few clients at once. It returns the template ID and the coupons.
func (s *server) seed(t *testing.T, n int, endsAt time.Time) (string, []client.Coupon) {
	t.Helper()
	tpl := clienttest.Must(s.api.CreateTemplate(t.Context(), client.NewTemplate{Name: "storm", Value: 100,
		Validity: client.Validity{EndsAt: endsAt}})).On(t)
	s.issue(t, tpl.ID, n)
	exp := endsAt.UTC().Truncate(time.Millisecond)
	cs := make([]client.Coupon, 0, n)
	for id := range s.eventsOf(t, "coupon.claimed") {
		cs = append(cs, client.Coupon{ID: id, Status: "unused", ExpiresAt: exp})
	}
	return tpl.ID, cs
}

// issue issues a coupon of template tpl to each of the users u0…u(n-1)
// by bulk issuance, in requests of up to 100,000 users, each well within
// the client's timeout.
func (s *server) issue(t *testing.T, tpl string, n int) {
	t.Helper()
	for from := 0; from < n; from += 100_000 {
		users := make([]string, min(n-from, 100_000))
		for i := range users {
			users[i] = fmt.Sprintf("u%d", from+i)
		}
		res := clienttest.Must(s.api.Issue(t.Context(), tpl, client.IssueParams{UserIDs: users})).On(t)
		if res.Issued != int64(len(users)) {
			t.Fatalf("bulk issuance: issued %d, want %d", res.Issued, len(users))
		}
	}
}

// waitUntil polls cond until it holds, failing the test after a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// checkAllExpiredOnce checks every coupon has exactly one coupon.expired
// event, none before its expires_at, and reads as expired.
func checkAllExpiredOnce(t *testing.T, s *server, cs []client.Coupon) {
	t.Helper()
	ev := s.expiredEvents(t)
	if len(ev) != len(cs) {
		t.Fatalf("coupon.expired events: got %d, want %d", len(ev), len(cs))
	}
	for _, c := range cs {
		e, ok := ev[c.ID]
		if !ok {
			t.Fatalf("coupon %s has no coupon.expired event", c.ID)
		}
		if e.Time.Before(c.ExpiresAt) {
			t.Fatalf("coupon %s expired early: %s < %s", c.ID, e.Time, c.ExpiresAt)
		}
	}
	got := clienttest.Must(s.api.Coupon(t.Context(), cs[0].ID)).On(t)
	if got.Status != "expired" {
		t.Fatalf("coupon %s: got %s, want expired", cs[0].ID, got.Status)
	}
}

// openStopped opens the store at url of a stopped lapse, without an
// engine; the caller closes it.
func openStopped(t *testing.T, be backend, url string) store.Store {
	t.Helper()
	st, err := be.open(url)
	if err != nil {
		t.Fatalf("open %s store: %v", be.name, err)
	}
	return st
}

// feedOf reads the whole outbox of the store of a stopped lapse.
func feedOf(t *testing.T, be backend, url string) []storetype.Event {
	t.Helper()
	st := openStopped(t, be, url)
	defer st.Close()
	return outboxtest.Feed(t, st)
}

// killMidway kills s with SIGKILL and fails the test unless fewer than n
// events of typ were written by then: a kill after the work is done tests
// nothing.
func (s *server) killMidway(t *testing.T, be backend, db, typ string, n int) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	s.cmd.Wait()
	k := len(outboxtest.OfType(feedOf(t, be, db), typ))
	if k == n {
		t.Fatalf("the kill came after all %d %s events were written: nothing was tested", n, typ)
	}
	t.Logf("killed with %d of %d %s events written", k, n, typ)
}

// cursor returns the cursor of the feed's head, its newest event.
func (s *server) cursor(t *testing.T) string {
	t.Helper()
	return clienttest.Must(s.api.Cursor(t.Context())).On(t)
}

// waitEventAfter waits until the feed has an event after cursor.
func (s *server) waitEventAfter(t *testing.T, what, cursor string) {
	t.Helper()
	waitUntil(t, what, func() bool {
		return len(clienttest.Must(s.api.Events(t.Context(), client.EventQuery{After: cursor, Limit: 1})).On(t).Events) > 0
	})
}

// waitExpired polls, for up to 45 s (past any backend's storm lead), until
// at least n coupons have expired.
func waitExpired(t *testing.T, s *server, n int) {
	t.Helper()
	expired := follow("coupon.expired")
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); {
		if len(expired.read(t, s)) >= n {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("fewer than %d coupons expired in time; log:\n%s", n, s.log.String())
}

// restartExpiresAll starts lapse again on db and checks that it expires
// every coupon of cs, each once.
func restartExpiresAll(t *testing.T, db string, cs []client.Coupon) {
	t.Helper()
	s := start(t, db)
	waitExpired(t, s, len(cs))
	checkAllExpiredOnce(t, s, cs)
}

// TestGracefulStopLosesNothing stops lapse with SIGTERM before its coupons
// are due; it must exit 0, and a later start must expire all of them.
func TestGracefulStopLosesNothing(t *testing.T) { onEach(t, testGracefulStop) }

func testGracefulStop(t *testing.T, be backend) {
	db := be.store(t)
	s := start(t, db)
	_, cs := s.seed(t, 100, time.Now().Add(be.lead/2))
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v; log:\n%s", err, s.log.String())
	}
	time.Sleep(time.Until(cs[0].ExpiresAt))
	restartExpiresAll(t, db, cs)
}

// TestKill9MidStormLosesNothing kills lapse with SIGKILL while it drains a
// storm of coupons due in the same instant, in small batches; after a
// restart every coupon is expired exactly once.
func TestKill9MidStormLosesNothing(t *testing.T) { onEach(t, testKill9MidStorm) }

func testKill9MidStorm(t *testing.T, be backend) {
	db := be.store(t)
	s := start(t, db, "--batch-size", "5")
	_, cs := s.seed(t, be.coupons, time.Now().Add(be.lead))
	s.waitEventAfter(t, "the engine's first stored expiry", s.cursor(t))
	s.killMidway(t, be, db, store.EventCouponExpired, len(cs))
	restartExpiresAll(t, db, cs)
}

// TestKill9OrdersCloseOnce kills lapse while it closes a storm of unpaid orders
// that fall due in the same instant; after a restart every order is closed
// on timeout exactly once, none before its deadline, and the stock is back
// to what was set.
func TestKill9OrdersCloseOnce(t *testing.T) { onEach(t, testKill9OrdersClose) }

func testKill9OrdersClose(t *testing.T, be backend) {
	db := be.store(t)
	s := start(t, db, "--batch-size", "5")
	// The orders are made as fast as they were without the client: no
	// idempotency key each to record.
	api := clienttest.New(t, s.base, client.WithoutIdempotencyKeys())
	const stock = 100000
	n := be.orders
	ctx := t.Context()
	clienttest.Must(s.api.PutSKU(ctx, "tea", client.Stock{Stock: stock})).On(t)
	deadline := time.Now().Add(be.lead).UTC()
	ids := make([]string, n)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < n; i += 4 {
				ids[i] = clienttest.Must(api.CreateOrder(ctx, client.NewOrder{UserID: fmt.Sprintf("u%d", i), Deadline: deadline,
					Items: []client.Item{{SKU: "tea", Qty: int64(1 + i%3), UnitPrice: 100}}})).On(t).ID
			}
		})
	}
	wg.Wait()
	waitUntil(t, "the first order to close", func() bool {
		return clienttest.Must(s.api.Order(ctx, ids[0])).On(t).Status == "closed"
	})
	s.killMidway(t, be, db, store.EventOrderClosed, n)
	s2 := start(t, db)
	var sku client.SKU
	for range 400 {
		sku = clienttest.Must(s2.api.SKU(ctx, "tea")).On(t)
		if sku.Reserved == 0 {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if sku.Available != stock || sku.Reserved != 0 || sku.Sold != 0 {
		t.Fatalf("stock after restart: got %+v, want %d available", sku, stock)
	}
	closed := s2.eventsOf(t, "order.closed")
	if len(closed) != n {
		t.Fatalf("order.closed events: got %d, want %d", len(closed), n)
	}
	for _, id := range ids {
		e, ok := closed[id]
		if !ok {
			t.Fatalf("order %s has no order.closed event", id)
		}
		if e.Time.Before(deadline.Truncate(time.Millisecond)) {
			t.Fatalf("order %s closed early: %s < %s", id, e.Time, deadline)
		}
	}
}
