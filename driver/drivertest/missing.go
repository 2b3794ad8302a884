package drivertest

import (
	"testing"

	"github.com/lapsehq/lapse/driver"
)

// missingTests: every read by key of a row that is not there is
// store.ErrNotFound, on the driver and in a transaction.
var missingTests = []test{{"NotFound", testNotFound}}

func testNotFound(f *fixture) {
	ctx := f.ctx
	reads := map[string]func() error{
		"Driver.Template": func() error { _, _, err := f.d.Template(ctx, "nope", t0); return err },
		"Driver.Coupon":   func() error { _, err := f.d.Coupon(ctx, "nope"); return err },
		"ArchivedCoupon":  func() error { _, err := f.d.ArchivedCoupon(ctx, "nope"); return err },
		"Driver.Order":    func() error { _, err := f.d.Order(ctx, "nope"); return err },
		"ArchivedOrder":   func() error { _, err := f.d.ArchivedOrder(ctx, "nope"); return err },
		"SKU":             func() error { _, err := f.d.SKU(ctx, "nope"); return err },
		"Driver.User":     func() error { _, err := f.d.User(ctx, "nope"); return err },
		"Driver.Operation": func() error {
			_, err := f.d.Operation(ctx, "nope")
			return err
		},
	}
	txReads := map[string]func(tx driver.DriverTx) error{
		"Tx.Template":   func(tx driver.DriverTx) error { _, err := tx.Template("nope"); return err },
		"ClaimTemplate": func(tx driver.DriverTx) error { _, err := tx.ClaimTemplate("nope"); return err },
		"Tx.Coupon":     func(tx driver.DriverTx) error { _, err := tx.Coupon("nope"); return err },
		"Tx.Order":      func(tx driver.DriverTx) error { _, err := tx.Order("nope"); return err },
		"Token":         func(tx driver.DriverTx) error { _, err := tx.Token("nope"); return err },
		"Request":       func(tx driver.DriverTx) error { _, err := tx.Request("nope"); return err },
		"Tx.Operation":  func(tx driver.DriverTx) error { _, err := tx.Operation("nope"); return err },
		"Tx.User":       func(tx driver.DriverTx) error { _, err := tx.User("nope"); return err },
		"Reminder":      func(tx driver.DriverTx) error { _, err := tx.Reminder(404); return err },
	}
	for name, read := range reads {
		f.t.Run(name, func(t *testing.T) { notFound(t, name, read()) })
	}
	for name, read := range txReads {
		f.t.Run(name, func(t *testing.T) {
			f.tx(func(tx driver.DriverTx) { notFound(t, name, read(tx)) })
		})
	}
}
