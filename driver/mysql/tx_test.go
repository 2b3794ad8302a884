package mysql_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestDeadlockRetried: a store transaction chosen as a deadlock's victim
// is run again and succeeds, with one event and one count change.
func TestDeadlockRetried(t *testing.T) {
	ctx := t.Context()
	dbURL := freshDB(t)
	s := open(t, dbURL, mysql.Options{})
	raw := rawDB(t, dbURL)
	tp := storetest.Template(t, s, t0, nil)
	c := claim(t, s, tp.ID, "victim")
	for range 20 {
		claim(t, s, tp.ID, "other")
	}

	// A transaction outside the store, made the heavier of the two by
	// rewriting twenty rows, holds the template's voided count. It reads
	// committed, as the store does, so it locks only the rows it names.
	rtx, err := raw.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer rtx.Rollback()
	if _, err := rtx.ExecContext(ctx, "UPDATE coupons SET updated_at = updated_at + INTERVAL 1 SECOND WHERE user_id = 'other'"); err != nil {
		t.Fatalf("raw update: %v", err)
	}
	var n int64
	if err := rtx.QueryRowContext(ctx, "SELECT n FROM template_counts WHERE template_id = ? AND status = 'voided' FOR UPDATE", tp.ID).Scan(&n); err != nil {
		t.Fatalf("raw lock of the count: %v", err)
	}

	// The store's void takes the coupon's row, then waits for the count.
	done := make(chan error, 1)
	go func() {
		_, err := s.Transition(ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Void, Now: t0.Add(time.Minute)})
		done <- err
	}()
	waitLockWait(t, raw, done)

	// Asking for the coupon's row closes the cycle; the server rolls back
	// the lighter transaction, the store's.
	if _, err := rtx.ExecContext(ctx, "UPDATE coupons SET version = version WHERE id = ?", c.ID); err != nil {
		t.Fatalf("test setup: the raw transaction, not the store's, was the deadlock's victim: %v", err)
	}
	if err := rtx.Rollback(); err != nil {
		t.Fatalf("raw rollback: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("void that lost a deadlock: got %v, want it retried to success", err)
	}
	if got, err := s.Coupon(ctx, c.ID); err != nil || got.Status != coupon.Voided || got.Version != 2 {
		t.Fatalf("after the retry: got %+v (err %v), want voided at v2", got, err)
	}
	info, err := s.Template(ctx, store.TemplateParams{ID: tp.ID, Now: t0})
	if err != nil || info.Counts[coupon.Voided] != 1 || info.Counts[coupon.Unused] != 20 {
		t.Fatalf("counts after the retry: got %v (err %v), want 20 unused, 1 voided", info.Counts, err)
	}
	es, err := s.Events(ctx, store.EventsParams{After: 0, Limit: 100})
	if err != nil || len(es) != 22 || es[21].Type != store.EventCouponVoided {
		t.Fatalf("events: got %d (err %v), want 21 claims then one void", len(es), err)
	}
}

// waitLockWait waits until some transaction waits for a row lock, failing
// if done tells first that the store's call ended. It polls more slowly
// than every 100ms: the server refreshes innodb_trx no more often, and
// not at all while it is read faster.
func waitLockWait(t *testing.T, db *sql.DB, done <-chan error) {
	t.Helper()
	for range 100 {
		select {
		case err := <-done:
			t.Fatalf("the store's call ended without waiting for a lock: %v", err)
		case <-time.After(150 * time.Millisecond):
		}
		var n int
		if err := db.QueryRowContext(t.Context(), "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'").Scan(&n); err != nil {
			t.Fatalf("innodb_trx: %v", err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatalf("no transaction came to wait for a lock")
}

// TestIdempotencyRace: two requests under one key run at once; the one
// that commits second finds the key taken when it stores its response,
// and replays the first's instead. Nothing of its own is kept.
func TestIdempotencyRace(t *testing.T) {
	ctx := t.Context()
	url := freshDB(t)
	s := open(t, url, mysql.Options{})
	a, b := storetest.Template(t, s, t0, nil), storetest.Template(t, s, t0, nil)

	release := make(chan struct{})
	idem := &store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0}
	done := storetest.PausedClaim(t, openDriver(t, url, mysql.Options{}), store.ClaimParams{TemplateID: a.ID, UserID: "u1", Now: t0, Idem: idem}, release)
	// Another user: the fast claim does not queue behind the slow one on
	// u1's row.
	first, err := s.Claim(ctx, store.ClaimParams{TemplateID: b.ID, UserID: "u2", Now: t0, Idem: idem})
	if err != nil {
		t.Fatalf("fast claim: %v", err)
	}
	close(release)
	var (
		re       *store.ReplayError
		replayed coupon.Coupon
	)
	if err := (<-done).Err; !errors.As(err, &re) || json.Unmarshal(re.Result, &replayed) != nil || replayed.ID != first.ID {
		t.Fatalf("slow claim under the same key: got %v, want a replay of %s", err, first.ID)
	}
	cs, err := s.UserCoupons(ctx, storetype.UserCouponsParams{UserID: "u2", Now: t0, Limit: storetype.MaxWalletPage})
	if err != nil || len(cs) != 1 || cs[0].ID != first.ID {
		t.Fatalf("u2's coupons: got %v (err %v), want only %s", cs, err, first.ID)
	}
	if cs, err := s.UserCoupons(ctx, storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: storetype.MaxWalletPage}); err != nil || len(cs) != 0 {
		t.Fatalf("u1's coupons: got %v (err %v), want none", cs, err)
	}
	info, err := s.Template(ctx, store.TemplateParams{ID: a.ID, Now: t0})
	if err != nil || info.Counts[coupon.Unused] != 0 {
		t.Fatalf("slow claim's template counts: got %v (err %v), want no coupon", info.Counts, err)
	}
}

// TestLatePaymentRace: retries of one payment for a closed order arrive
// at once. Each is refused, and the late payment is recorded once: the
// recording transactions queue on the order's row, and each after the
// first finds the event there.
func TestLatePaymentRace(t *testing.T) {
	ctx := t.Context()
	s := open(t, freshDB(t), mysql.Options{})
	if _, err := s.PutSKU(ctx, store.PutSKUParams{SKU: "tea", Stock: 10, Now: t0}); err != nil {
		t.Fatalf("PutSKU: %v", err)
	}
	o, err := s.CreateOrder(ctx, store.CreateOrderParams{UserID: "u1", Items: []order.Item{{SKU: "tea", Qty: 1, UnitPrice: 100}},
		Deadline: t0.Add(time.Minute), Now: t0})
	if err != nil {
		t.Fatalf("CreateOrder: %v", err)
	}
	if _, err := s.CloseOrder(ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0.Add(time.Second)}); err != nil {
		t.Fatalf("CloseOrder: %v", err)
	}
	const retries = 8
	errs := make([]error, retries)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range retries {
		wg.Go(func() {
			<-start
			_, errs[i] = s.PayOrder(ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue, Now: t0.Add(2 * time.Second)})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		// Refused, and nothing else went wrong recording it.
		if !errors.Is(err, order.ErrClosed) || err.Error() != order.ErrClosed.Error() {
			t.Fatalf("payment %d: got %v, want %v alone", i, err, order.ErrClosed)
		}
	}
	es, err := s.Events(ctx, store.EventsParams{After: 0, Limit: 100})
	if err != nil {
		t.Fatalf("Events: %v", err)
	}
	late := 0
	for _, e := range es {
		if e.Type == store.EventOrderLatePayment {
			late++
		}
	}
	if late != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", late)
	}
}
