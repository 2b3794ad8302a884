package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// Bounds of holdEngine and of the users' calls beside it: generous, since
// the test asserts that nothing waits for the engine, not a speed.
const (
	// maxEngineConns is more background transactions than any driver
	// may hold open at once.
	maxEngineConns = 64
	// beginWait is how long a background Begin may take before
	// holdEngine takes it to wait for a connection.
	beginWait = time.Second
	// userWait is how long a user's call beside the engine may take; it
	// would wait until the engine let go, forever here, if it shared the
	// engine's connections.
	userWait = 10 * time.Second
)

// RunReadsBesideEngine checks that a user's reads (a wallet, a coupon, a
// template) complete while every connection the driver has for
// background work is held by an open background transaction: users never
// wait for a connection behind the engine. newDriver is as for Run.
func RunReadsBesideEngine(t *testing.T, newDriver NewDriver) {
	f, c := besideEngine(t, newDriver)
	ctx, cancel := context.WithTimeout(f.ctx, userWait)
	defer cancel()
	if _, err := f.s.UserCoupons(ctx, store.UserCouponsParams{UserID: c.UserID, Now: t0}); err != nil {
		t.Fatalf("UserCoupons with the engine's connections held: %v", err)
	}
	if _, err := f.s.Coupon(ctx, c.ID); err != nil {
		t.Fatalf("Coupon with the engine's connections held: %v", err)
	}
	if _, err := f.s.Template(ctx, store.TemplateParams{ID: c.TemplateID, Now: t0}); err != nil {
		t.Fatalf("Template with the engine's connections held: %v", err)
	}
}

// RunWritesBesideEngine checks, on a driver whose writers run side by
// side (PostgreSQL, MySQL; on SQLite's one writer a user's write waits
// for the batch in hand, and the gate lets it go before the next), that
// a user's writes (a claim, a lock) commit while every connection the
// driver has for background work is held by an open background
// transaction. newDriver is as for Run.
func RunWritesBesideEngine(t *testing.T, newDriver NewDriver) {
	f, c := besideEngine(t, newDriver)
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

// besideEngine opens a store over a fresh driver, claims a coupon for
// u1, then holds every background connection (see holdEngine).
func besideEngine(t *testing.T, newDriver NewDriver) (*fixture, coupon.Coupon) {
	d := newDriver(t)
	f := newFixture(t, func(*testing.T) store.Store { return store.New(d, store.Options{}) })
	c := f.claim(f.template(nil).ID, "u1", t0)
	if n := holdEngine(t, d); n == 0 {
		t.Fatal("no background transaction began")
	}
	return f, c
}

// holdEngine begins background transactions, each left open until t
// ends, until one more waits for a connection, and returns how many it
// holds.
func holdEngine(t *testing.T, d store.Driver) int {
	t.Helper()
	type begun struct {
		tx  store.DriverTx
		err error
	}
	for held := range maxEngineConns {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan begun, 1)
		go func() {
			tx, err := d.Begin(ctx, true)
			done <- begun{tx, err}
		}()
		select {
		case b := <-done:
			if b.err != nil {
				t.Fatalf("background Begin %d: %v", held+1, b.err)
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
			return held
		}
	}
	t.Fatalf("%d background transactions open at once: the engine's connections are not bounded", maxEngineConns)
	return 0
}
