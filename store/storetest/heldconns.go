package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Bounds of hold and of the users' calls beside it: generous, since the
// tests assert that nothing waits for a held connection, not a speed.
const (
	// maxConns is more transactions than any driver may hold open at
	// once.
	maxConns = 64
	// beginWait is how long a Begin may take before hold takes it to
	// wait for a connection.
	beginWait = time.Second
	// userWait is how long a user's call beside the held transactions
	// may take; it would wait until they ended, forever here, if it
	// shared their connections.
	userWait = 10 * time.Second
)

// RunReadsBesideEngine checks that a user's reads (a wallet, a coupon, a
// template) complete while every connection the driver has for
// background work is held by an open background transaction: users never
// wait for a connection behind the engine. newDriver is as for Run.
func RunReadsBesideEngine(t *testing.T, newDriver NewDriver) {
	userReads(held(t, newDriver, true))
}

// RunReadsBesideWrites checks that a user's reads complete while every
// connection the driver has for the users' transactions is held by an
// open one: a read never queues behind writes, which may wait on a lock
// the engine holds. newDriver is as for Run.
func RunReadsBesideWrites(t *testing.T, newDriver NewDriver) {
	userReads(held(t, newDriver, false))
}

// runWritesBesideEngine checks, on a driver whose writers run side by
// side (PostgreSQL, MySQL; on SQLite's one writer a user's write waits
// for the batch in hand, and the gate lets it go before the next), that
// a user's writes (a claim, a lock) commit while every connection the
// driver has for background work is held by an open background
// transaction. newDriver is as for Run.
func runWritesBesideEngine(t *testing.T, newDriver NewDriver) {
	f, c := held(t, newDriver, true)
	ctx, cancel := context.WithTimeout(f.ctx, userWait)
	defer cancel()
	if _, err := f.s.Claim(ctx, store.ClaimParams{TemplateID: c.TemplateID, UserID: "u2", Now: t0}); err != nil {
		t.Fatalf("Claim with the engine's connections held: %v", err)
	}
	p := lock("o1", t0, time.Minute)
	p.CouponID = c.ID
	if _, err := f.s.Transition(ctx, p); err != nil {
		t.Fatalf("Lock with the engine's connections held: %v", err)
	}
}

// userReads reads c's wallet, c and its template, each within userWait.
func userReads(f *fixture, c coupon.Coupon) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(f.ctx, userWait)
	defer cancel()
	if _, err := f.s.UserCoupons(ctx, storetype.UserCouponsParams{UserID: c.UserID, Now: t0, Limit: storetype.MaxWalletPage}); err != nil {
		f.t.Fatalf("UserCoupons with the connections held: %v", err)
	}
	if _, err := f.s.Coupon(ctx, c.ID); err != nil {
		f.t.Fatalf("Coupon with the connections held: %v", err)
	}
	if _, err := f.s.Template(ctx, store.TemplateParams{ID: c.TemplateID, Now: t0}); err != nil {
		f.t.Fatalf("Template with the connections held: %v", err)
	}
}

// held opens a store over a fresh driver, claims a coupon for u1, then
// holds every connection of background transactions, or of the users'
// (see hold).
func held(t *testing.T, newDriver NewDriver, background bool) (*fixture, coupon.Coupon) {
	d := newDriver(t)
	f := newFixture(t, overDriver(d))
	c := f.claim(f.template(nil).ID, "u1", t0)
	if n := hold(t, d, background); n == 0 {
		t.Fatal("no transaction began")
	}
	return f, c
}

// hold begins transactions, background ones or not, each left open until
// t ends, until one more waits for a connection, and returns how many it
// holds.
func hold(t *testing.T, d driver.Driver, background bool) int {
	t.Helper()
	type begun struct {
		tx  driver.ExecutorTx
		err error
	}
	for n := range maxConns {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan begun, 1)
		go func() {
			tx, err := d.Begin(ctx, background)
			done <- begun{tx, err}
		}()
		select {
		case b := <-done:
			if b.err != nil {
				t.Fatalf("Begin %d: %v", n+1, b.err)
			}
			t.Cleanup(func() {
				b.tx.Rollback()
				cancel()
			})
		case <-time.After(beginWait):
			cancel()
			if b := <-done; b.err == nil {
				b.tx.Rollback()
			}
			return n
		}
	}
	t.Fatalf("%d transactions open at once: the connections are not bounded", maxConns)
	return 0
}
