package postgres_test

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// TestDeadlockRetried: a transaction PostgreSQL rolls back to break a
// deadlock runs again and succeeds. The store's order takes SKU a, then
// waits for b, which another session holds and which then asks for a.
func TestDeadlockRetried(t *testing.T) {
	ctx := t.Context()
	u := pgtest.SchemaURL(t)
	s := open(t, u, postgres.Options{})
	for _, sku := range []string{"a", "b"} {
		if _, err := s.PutSKU(ctx, store.PutSKUParams{SKU: sku, Stock: 10, Now: t0}); err != nil {
			t.Fatalf("PutSKU(%s): %v", sku, err)
		}
	}
	other, err := pgtest.Connect(t, u).Begin(ctx)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer other.Rollback(ctx)
	// PostgreSQL looks for a deadlock once per wait, deadlock_timeout (1s)
	// after it began, in the session that waits: this one looks much
	// later, so that the order's session, which waits first, finds the
	// cycle and is rolled back, however slow the machine.
	if _, err := other.Exec(ctx, "SET LOCAL deadlock_timeout = '20s'"); err != nil {
		t.Fatalf("deadlock_timeout: %v", err)
	}
	if _, err := other.Exec(ctx, "SELECT 1 FROM skus WHERE sku = 'b' FOR UPDATE"); err != nil {
		t.Fatalf("hold b: %v", err)
	}

	created := make(chan error, 1)
	go func() {
		_, err := s.CreateOrder(ctx, store.CreateOrderParams{UserID: "u1", Deadline: t0.Add(time.Hour), Now: t0,
			Items: []order.Item{{SKU: "a", Qty: 1, UnitPrice: 100}, {SKU: "b", Qty: 2, UnitPrice: 100}}})
		created <- err
	}()
	waitForLockWait(t, u, created) // the order holds a and waits for b
	// Closes the cycle; PostgreSQL rolls back the order's transaction and
	// this one gets a.
	if _, err := other.Exec(ctx, "UPDATE skus SET updated_at = updated_at WHERE sku = 'a'"); err != nil {
		t.Fatalf("take a: %v", err)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatalf("commit: %v", err)
	}
	if err := <-created; err != nil {
		t.Fatalf("CreateOrder after its deadlock: got %v, want it retried to success", err)
	}
	for sku, reserved := range map[string]int64{"a": 1, "b": 2} {
		k, err := s.SKU(ctx, sku)
		if err != nil || k.Reserved != reserved || k.Available != 10-reserved {
			t.Fatalf("SKU %s: got %+v (err %v), want %d reserved of 10", sku, k, err, reserved)
		}
	}
}
