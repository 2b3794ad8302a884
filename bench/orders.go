package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// The orders the orders bench creates: each of one or two of orderSKUs
// SKUs, up to orderMaxQty of each at orderPrice, for one of orderUsers
// users.
const (
	orderSKUs   = 10
	orderMaxQty = 3
	orderPrice  = 1000
	orderUsers  = 1000
	// maxOrdersInFlight caps the orders being created or waiting to be
	// paid; beyond it creation waits, and falls behind the rate.
	maxOrdersInFlight = 10000
)

// OrdersConfig sets up RunOrders. Target.Open is required; the orders
// bench starts from an empty store and uses neither Save nor Restore.
type OrdersConfig struct {
	Target Target
	// Rate is orders created a second; 0 means 200.
	Rate float64
	// Duration is how long orders are created; 0 means 20s.
	Duration time.Duration
	// Timeout is how long after its creation an order falls due, at
	// millisecond precision; 0 means 2s.
	Timeout time.Duration
	// PayShare is the fraction of orders paid before their deadline, from
	// 0 to 1, spread evenly over the run.
	PayShare float64
	// Progress receives a progress bar; nil draws none.
	Progress io.Writer
	// Log receives the engine's log; nil discards it.
	Log *slog.Logger
}

func (c *OrdersConfig) defaults() error {
	c.Rate = orDefault(c.Rate, 200)
	c.Duration = orDefault(c.Duration, 20*time.Second)
	c.Timeout = orDefault(c.Timeout, 2*time.Second)
	c.Timeout = c.Timeout.Truncate(time.Millisecond)
	quiet(&c.Progress, &c.Log)
	switch {
	case c.Target.Open == nil:
		return errors.New("bench: the target needs Open")
	case c.Timeout < time.Millisecond || c.Timeout > order.MaxTimeout:
		return fmt.Errorf("bench: timeout must be from 1ms to %s", order.MaxTimeout)
	case c.PayShare < 0 || c.PayShare > 1:
		return errors.New("bench: pay share must be from 0 to 1")
	case c.Rate*c.Duration.Seconds() < 1:
		return errors.New("bench: rate × duration makes no order")
	}
	return nil
}

// RunOrders runs the orders bench: orders created at a steady rate
// through the store, a share of them paid before their deadline, the rest
// closed on timeout by lapse's engine. Once every order is paid or closed
// it reads them back and reports each closed one's lag (stored close time
// minus deadline), and checks the stock counters.
func RunOrders(ctx context.Context, cfg OrdersConfig) (OrdersResult, error) {
	if err := cfg.defaults(); err != nil {
		return OrdersResult{}, err
	}
	n := int(math.Round(cfg.Rate * cfg.Duration.Seconds()))
	o := &orders{cfg: cfg, clock: &clock{}, ids: make([]string, n), created: make([]time.Time, n), stock: int64(n) * orderMaxQty}
	o.res = OrdersResult{Store: cfg.Target.Name, Orders: n, Rate: cfg.Rate, Timeout: cfg.Timeout.Seconds(),
		PayShare: cfg.PayShare, CPUs: runtime.NumCPU(), LoadAvg: loadAvg()}
	wheel := newWheel(o.clock.Now)
	var settled atomic.Int64
	st, _, err := cfg.Target.Open(ctx, store.Hooks{OnTimer: engine.Hint(wheel), OnEvents: func(events []storetype.Event) {
		settled.Add(countOf(events, store.EventOrderPaid) + countOf(events, store.EventOrderClosed))
	}})
	if err != nil {
		return o.res, err
	}
	defer st.Close()
	o.st = st
	for i := range orderSKUs {
		if _, err := st.PutSKU(ctx, store.PutSKUParams{SKU: skuID(i), Stock: o.stock, Now: o.clock.Now()}); err != nil {
			return o.res, err
		}
	}
	eng := newEngine(cfg.Target, st, wheel, o.clock.Now, cfg.Log, 0, 0, nil)
	if err := eng.Start(ctx); err != nil {
		return o.res, err
	}
	defer eng.Stop()
	b := StartBar(cfg.Progress, "orders", int64(n), settled.Load)
	start, began := o.clock.Now(), time.Now()
	if err := o.create(ctx); err != nil {
		return o.res, err
	}
	o.res.CreateSeconds = slices.MaxFunc(o.created, time.Time.Compare).Sub(began).Seconds()
	for deadline := time.Now().Add(cfg.Timeout + stallAfter); settled.Load() < int64(n); {
		if time.Now().After(deadline) {
			return o.res, fmt.Errorf("bench orders: %d of %d orders paid or closed", settled.Load(), n)
		}
		if err := sleep(ctx, 10*time.Millisecond); err != nil {
			return o.res, err
		}
	}
	eng.Stop()
	closes, err := o.readBack(ctx)
	if err != nil {
		return o.res, err
	}
	// The last deadline falls about CreateSeconds + Timeout after start.
	to := time.Duration(o.res.CreateSeconds*float64(time.Second)) + cfg.Timeout + 2*time.Second
	o.res.lagP50 = series(closes, start, 0, to, time.Second, p50)
	o.res.lagP99 = series(closes, start, 0, to, time.Second, p99)
	o.res.LoadAvg = append(o.res.LoadAvg, loadAvg()...)
	b.Finish(fmt.Sprintf("%d paid, %d closed, close lag p50 %s p99 %s", o.res.Paid, o.res.Closed,
		ms(o.res.CloseLag.P50), ms(o.res.CloseLag.P99)))
	return o.res, nil
}

func skuID(i int) string { return fmt.Sprintf("sku-%d", i) }

// orders is one orders run in progress.
type orders struct {
	cfg   OrdersConfig
	clock *clock
	st    Store
	// stock is each SKU's stock: enough that no order is ever short.
	stock int64
	// ids and created hold each order's ID and when its creation
	// returned, by creation order.
	ids     []string
	created []time.Time
	// late counts the payments refused as late.
	late atomic.Int64
	res  OrdersResult
}

// create creates the orders at cfg.Rate a second, each in a goroutine of
// its own that then pays it if it is one of the share to pay. It returns
// once every order is created and paid, or on the first error.
func (o *orders) create(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	inFlight := make(chan struct{}, maxOrdersInFlight)
	start := time.Now()
	for i := range o.ids {
		at := start.Add(time.Duration(float64(i) / o.cfg.Rate * float64(time.Second)))
		if sleep(ctx, time.Until(at)) != nil {
			break
		}
		select {
		case inFlight <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-inFlight }()
			if err := o.order(ctx, i); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	o.res.LatePayments = int(o.late.Load())
	return context.Cause(ctx)
}

// order creates the i-th order, then, if it is one to pay, pays it at a
// random time in the first half of its timeout. A payment the order
// refuses as closed (the machine fell that far behind) is counted late.
func (o *orders) order(ctx context.Context, i int) error {
	now := o.clock.Now()
	first := rand.IntN(orderSKUs)
	items := []order.Item{{SKU: skuID(first), Qty: 1 + rand.Int64N(orderMaxQty), UnitPrice: orderPrice}}
	if rand.IntN(2) == 0 {
		items = append(items, order.Item{SKU: skuID((first + 1 + rand.IntN(orderSKUs-1)) % orderSKUs), Qty: 1 + rand.Int64N(orderMaxQty), UnitPrice: orderPrice})
	}
	created, err := o.st.CreateOrder(ctx, store.CreateOrderParams{UserID: userID(rand.IntN(orderUsers)), Items: items,
		Deadline: now.Add(o.cfg.Timeout), Now: now})
	if err != nil {
		return fmt.Errorf("create order %d: %w", i, err)
	}
	o.ids[i] = created.ID
	o.created[i] = time.Now()
	if int(float64(i+1)*o.cfg.PayShare) == int(float64(i)*o.cfg.PayShare) {
		return nil
	}
	if err := sleep(ctx, rand.N(o.cfg.Timeout/2+1)); err != nil {
		return err
	}
	_, err = o.st.PayOrder(ctx, store.PayOrderParams{OrderID: created.ID, PaymentID: "pay_" + created.ID,
		Amount: created.AmountDue, Now: o.clock.Now()})
	if errors.Is(err, order.ErrClosed) {
		o.late.Add(1)
		return nil
	}
	if err != nil {
		return fmt.Errorf("pay order %s: %w", created.ID, err)
	}
	return nil
}

// readBack reads every order back from the store: paid or closed on
// timeout, each closed one's lag (its stored close time, that of its
// order.closed event, minus its deadline), and the SKU counters against
// what the paid orders sold. It returns the closes as samples started at
// their deadline.
func (o *orders) readBack(ctx context.Context) ([]sample, error) {
	var (
		closes []sample
		lags   []time.Duration
		sold   = map[string]int64{}
	)
	for _, id := range o.ids {
		got, err := o.st.Order(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("read order %s: %w", id, err)
		}
		switch {
		case got.Status == order.Paid:
			o.res.Paid++
			for _, it := range got.Items {
				sold[it.SKU] += it.Qty
			}
		case got.Status == order.Closed && got.CloseReason == order.ReasonTimeout:
			o.res.Closed++
			lag := got.UpdatedAt.Sub(got.Deadline)
			if lag < 0 {
				o.res.ClosedEarly++
			}
			lags = append(lags, lag)
			closes = append(closes, sample{start: got.Deadline, took: lag})
		default:
			return nil, fmt.Errorf("order %s is %s (%s) once everything settled", id, got.Status, got.CloseReason)
		}
	}
	o.res.CloseLag = quantilesOf(lags)
	o.res.StockOK = true
	for i := range orderSKUs {
		s, err := o.st.SKU(ctx, skuID(i))
		if err != nil {
			return nil, err
		}
		if s.Available+s.Reserved+s.Sold != o.stock || s.Reserved != 0 || s.Sold != sold[s.SKU] {
			o.res.StockOK = false
		}
	}
	return closes, nil
}
