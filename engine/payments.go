package engine

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// PaymentChecker answers whether an order was paid, from the payment
// system's side: the hook asked before an order is closed on timeout.
type PaymentChecker interface {
	Paid(ctx context.Context, o order.Order) (paid bool, paymentID string, err error)
}

// closeCheckingPayments is the order-close drain when a PaymentChecker is
// set. It closes orders one transaction each, as it asks about each. Each due order is asked about first: paid, it becomes paid; not
// paid, it closes. When the check fails the order is left for a retry, and
// closed anyway, counted as unconfirmed, once PaymentGrace has passed since
// its deadline: no blind close while the payment system may answer.
func (e *Engine) closeCheckingPayments(ctx context.Context, p storetype.DueParams) (store.Drained, error) {
	var d store.Drained
	due, err := e.cfg.Store.DueOrders(ctx, p)
	if err != nil {
		return d, err
	}
	d.Next = due.Next
	answers := e.askPayments(due.Orders)
	for i, o := range due.Orders {
		if e.ctx.Err() != nil {
			break // stopping: each order is a transaction of its own, none is cut
		}
		paid, paymentID, err := answers[i].paid, answers[i].paymentID, answers[i].err
		switch {
		case err == nil && paid:
			_, err = e.cfg.Store.PayOrder(ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: paymentID, Confirmed: true, Now: p.Now})
		case err == nil:
			_, err = e.cfg.Store.CloseOrder(ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonTimeout, Now: p.Now})
		case p.Now.Sub(o.Deadline) >= e.cfg.PaymentGrace:
			e.cfg.Log.Warn("engine: closing order without a payment answer", slog.String("order", o.ID), slog.Any("err", err))
			e.cfg.Metrics.unconfirmedClose()
			_, err = e.cfg.Store.CloseOrder(ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonTimeout, Now: p.Now})
		default:
			retry := p.Now.Add(e.retryAfter(o, p))
			if d.Next.IsZero() || retry.Before(d.Next) {
				d.Next = retry
			}
			continue
		}
		switch {
		case errors.Is(err, order.ErrInvalidState), errors.Is(err, order.ErrClosed):
			continue // paid or cancelled while we asked: decided already
		case err != nil:
			return d, err
		}
		d.Due = append(d.Due, o.Deadline)
	}
	return d, nil
}

// paymentAnswer is what the hook said of one order.
type paymentAnswer struct {
	paid      bool
	paymentID string
	err       error
}

// checkParallelism bounds the payment checks in flight at once, so that a
// hook that hangs costs a batch PaymentTimeout per this many orders.
const checkParallelism = 16

// askPayments asks the hook about every order, a few at a time.
func (e *Engine) askPayments(orders []order.Order) []paymentAnswer {
	answers := make([]paymentAnswer, len(orders))
	sem := make(chan struct{}, checkParallelism)
	var wg sync.WaitGroup
	for i, o := range orders {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			a := &answers[i]
			a.paid, a.paymentID, a.err = e.askPayment(e.ctx, o)
		})
	}
	wg.Wait()
	return answers
}

// askPayment runs one payment check, bounded by PaymentTimeout.
func (e *Engine) askPayment(ctx context.Context, o order.Order) (bool, string, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.PaymentTimeout)
	defer cancel()
	paid, id, err := e.cfg.Payments.Paid(ctx, o)
	e.cfg.Metrics.paymentCheck(paid, err)
	return paid, id, err
}

// retryAfter spaces the checks of an order whose check failed: doubling
// with its time past the deadline, from 250ms, never past the grace.
func (e *Engine) retryAfter(o order.Order, p storetype.DueParams) time.Duration {
	late := p.Now.Sub(o.Deadline)
	wait := max(250*time.Millisecond, late)
	return min(wait, e.cfg.PaymentGrace-late)
}
