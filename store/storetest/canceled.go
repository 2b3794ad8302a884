package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
)

// runCanceled: a store call whose context ends inside its transaction
// fails with the context's error, not only with the driver's account of a
// transaction rolled back under it (database/sql's "transaction has
// already been committed or rolled back"), so that an engine that stops
// does not log its last claims as failures.
func runCanceled(t *testing.T, newDriver NewDriver) {
	ctx, cancel := context.WithCancel(t.Context())
	d := wrapTx(newDriver(t), func(tx driver.ExecutorTx) driver.ExecutorTx { return cancelingTx{tx, cancel} })
	s := store.New(d, store.Options{})
	_, ok, err := s.ClaimOperation(ctx, store.ClaimOperationParams{Holder: "i0", TTL: time.Minute, Now: t0})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ClaimOperation, its context cancelled inside its transaction: got %v (claimed %v), want an error that is context.Canceled", err, ok)
	}
}

// cancelingTx lists the operations due, then cancels the context and
// gives database/sql the moment it takes to roll the transaction back
// under it, as it did when the engine stopped between the statements of
// a claim.
type cancelingTx struct {
	driver.ExecutorTx
	cancel context.CancelFunc
}

func (t cancelingTx) OperationsDue(ctx context.Context, p driver.OperationsDueParams) ([]string, error) {
	ids, err := t.ExecutorTx.OperationsDue(ctx, p)
	t.cancel()
	time.Sleep(20 * time.Millisecond)
	return ids, err
}
