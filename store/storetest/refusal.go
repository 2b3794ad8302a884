package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// runRefusalRecordFails: a refusal whose record fails (the
// order.late_payment event of a payment to a closed order, which the
// database would not store) is answered as the store's failure, not as
// the refusal: a caller that took it for the refusal would answer 409
// with nothing recorded and nothing logged. A retry once the store takes
// the record writes it.
func runRefusalRecordFails(t *testing.T, newDriver NewDriver) {
	fail := true
	d := wrapTx(newDriver(t), func(tx driver.ExecutorTx) driver.ExecutorTx {
		if !fail {
			return tx
		}
		return failingEventsTx{tx}
	})
	f := &orderFixture{fixture: &fixture{t: t, s: store.New(d, store.Options{}), ctx: t.Context()}}
	f.tpl = f.template(nil)
	f.putSKU(sku1, 10)
	o := f.create()
	if _, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10}); err != nil {
		t.Fatalf("CloseDueOrders: %v", err)
	}
	pay := store.PayOrderParams{OrderID: o.ID, PaymentID: "p-late", Amount: o.AmountDue, Now: o.Deadline}
	_, err := f.s.PayOrder(f.ctx, pay)
	if !errors.Is(err, errEventRefused) || errors.Is(err, order.ErrClosed) {
		t.Fatalf("late payment whose record fails: got %v, want the record's error, not order.ErrClosed", err)
	}
	if n := len(f.eventsOfType(o.ID, store.EventOrderLatePayment)); n != 0 {
		t.Fatalf("order.late_payment events after the failed record: got %d, want 0", n)
	}
	fail = false
	_, err = f.s.PayOrder(f.ctx, pay)
	f.wantErr("the payment retried", err, order.ErrClosed)
	if n := len(f.eventsOfType(o.ID, store.EventOrderLatePayment)); n != 1 {
		t.Fatalf("order.late_payment events after the retry: got %d, want 1", n)
	}
}

// errEventRefused is what a failingEventsTx's once-only events fail
// with.
var errEventRefused = errors.New("storetest: once-only event refused")

// failingEventsTx fails every EventStored: a database that will not take
// a refusal's record.
type failingEventsTx struct{ driver.ExecutorTx }

func (failingEventsTx) EventStored(context.Context, string) (bool, error) {
	return false, errEventRefused
}
