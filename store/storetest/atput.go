package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/lapsehq/lapse/coupon"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
)

// AtPutRequest returns d with at called in each write transaction just
// before it records a request under an idempotency key: its writes all
// made, before its commit. Tests use it to hold a transaction open there,
// or to cancel it.
func AtPutRequest(d driver.Driver, at func()) driver.Driver {
	return wrapTx(d, func(tx driver.ExecutorTx) driver.ExecutorTx { return atPutTx{tx, at} })
}

// wrapTx returns d with each transaction it begins passed through wrap:
// a real driver with a test's hook in its transactions.
func wrapTx(d driver.Driver, wrap func(driver.ExecutorTx) driver.ExecutorTx) driver.Driver {
	return txWrapper{d, wrap}
}

type txWrapper struct {
	driver.Driver
	wrap func(driver.ExecutorTx) driver.ExecutorTx
}

func (d txWrapper) Begin(ctx context.Context, background bool) (driver.ExecutorTx, error) {
	tx, err := d.Driver.Begin(ctx, background)
	if err != nil {
		return nil, err
	}
	return d.wrap(tx), nil
}

type atPutTx struct {
	driver.ExecutorTx
	at func()
}

func (t atPutTx) PutRequest(ctx context.Context, p driver.RequestParams) error {
	t.at()
	return t.ExecutorTx.PutRequest(ctx, p)
}

// Claimed is what a claim returned.
type Claimed struct {
	Coupon coupon.Coupon
	Err    error
}

// PausedClaim starts claim p, under an idempotency key, on the store over
// d, and returns once it pauses, all its writes made, before its commit;
// it fails t if the claim returns before. Once release is closed the
// claim goes on, and its result comes on the channel returned.
func PausedClaim(t testing.TB, d driver.Driver, p store.ClaimParams, release <-chan struct{}) <-chan Claimed {
	t.Helper()
	reached, done := make(chan struct{}), make(chan Claimed, 1)
	var once sync.Once
	paused := store.New(AtPutRequest(d, func() { once.Do(func() { close(reached); <-release }) }), store.Options{})
	go func() {
		c, err := paused.Claim(t.Context(), p)
		done <- Claimed{c, err}
	}()
	select {
	case <-reached:
	case r := <-done:
		t.Fatalf("paused claim returned before its commit: %v", r.Err)
	}
	return done
}
