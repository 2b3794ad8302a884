package storetest

import (
	"context"
	"sync"

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

// Paused returns the store over d whose first write under an idempotency
// key pauses, all its writes made, before its commit: it closes reached,
// then waits for release to be closed.
func Paused(d driver.Driver, reached chan<- struct{}, release <-chan struct{}) *store.DB {
	var once sync.Once
	return store.New(AtPutRequest(d, func() { once.Do(func() { close(reached); <-release }) }), store.Options{})
}
