package drivertest

import (
	"testing"

	"github.com/lapsehq/lapse/driver"
)

// missingTests: every read by key of a row that is not there is
// storetype.ErrNotFound, through the driver's Executor and in a
// transaction.
var missingTests = []test{{"NotFound", testNotFound}}

func testNotFound(f *fixture) {
	ctx := f.ctx
	reads := map[string]func(e driver.Executor) error{
		"Template": func(e driver.Executor) error { _, err := e.Template(ctx, "nope"); return err },
		"TemplateInfo": func(e driver.Executor) error {
			_, _, err := e.TemplateInfo(ctx, driver.TemplateInfoParams{ID: "nope", Now: t0})
			return err
		},
		"ClaimTemplate": func(e driver.Executor) error { _, err := e.ClaimTemplate(ctx, "nope"); return err },
		"Coupon":        func(e driver.Executor) error { _, err := e.Coupon(ctx, driver.CouponParams{ID: "nope"}); return err },
		"Coupon archived": func(e driver.Executor) error {
			_, err := e.Coupon(ctx, driver.CouponParams{ID: "nope", Archived: true})
			return err
		},
		"Order": func(e driver.Executor) error { _, err := e.Order(ctx, driver.OrderParams{ID: "nope"}); return err },
		"Order archived": func(e driver.Executor) error {
			_, err := e.Order(ctx, driver.OrderParams{ID: "nope", Archived: true})
			return err
		},
		"Token":     func(e driver.Executor) error { _, err := e.Token(ctx, "nope"); return err },
		"Request":   func(e driver.Executor) error { _, err := e.Request(ctx, "nope"); return err },
		"Operation": func(e driver.Executor) error { _, err := e.Operation(ctx, "nope"); return err },
		"User":      func(e driver.Executor) error { _, err := e.User(ctx, "nope"); return err },
		"Reminder":  func(e driver.Executor) error { _, err := e.Reminder(ctx, 404); return err },
		"JoinableReminder": func(e driver.Executor) error {
			_, err := e.JoinableReminder(ctx, driver.JoinableReminderParams{User: "nope", Lead: 1, Lo: t0, Hi: later})
			return err
		},
	}
	for name, read := range reads {
		f.t.Run(name, func(t *testing.T) {
			notFound(t, "Executor "+name, read(f.d.Executor()))
			f.tx(func(tx driver.Executor) { notFound(t, "ExecutorTx "+name, read(tx)) })
		})
	}
}
